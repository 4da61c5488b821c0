import { useState } from 'preact/hooks';

/**
 * A token's logo, loaded lazily from an allowed URL (see lib/tokens/import.ts safeLogoUrl);
 * a missing, refused or broken logo falls back to the symbol's first letters.
 */
export function TokenLogo({ src, symbol }: { src: string | null; symbol: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <span class="logo logo-fallback" aria-hidden="true">
        {symbol.slice(0, 2).toUpperCase()}
      </span>
    );
  }
  return (
    <img
      class="logo"
      src={src}
      alt=""
      width={20}
      height={20}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
