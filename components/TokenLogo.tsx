import { useEffect, useState } from 'preact/hooks';
import { logosHeld, onLogosReleased } from './logo-gate';

/** False while the popup holds logos back (logo-gate.ts), then true. */
function useLogosReleased(): boolean {
  const [released, setReleased] = useState(() => !logosHeld());
  useEffect(() => {
    if (released) return;
    if (!logosHeld()) {
      setReleased(true);
      return;
    }
    return onLogosReleased(() => setReleased(true));
  }, [released]);
  return released;
}

/**
 * A token's logo, loaded lazily from an allowed URL (see lib/tokens/import.ts safeLogoUrl);
 * a missing, refused or broken logo falls back to the symbol's first letters.
 */
export function TokenLogo({ src, symbol }: { src: string | null; symbol: string }) {
  const [failed, setFailed] = useState(false);
  const released = useLogosReleased();
  if (src && !failed && !released) return <span class="logo logo-pending" aria-hidden="true" />;
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
