// Generated token logos: a coloured disc with up to 4 letters of the symbol. The service serves
// them itself so the token list works offline. The colour comes from the asset (symbol and name),
// not the address, so one asset listed on two chains (USDC on Ethereum and on Base, WETH, ETH) has
// one logo wherever it shows.

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}

/** Up to 4 letters or digits of the symbol (code points, so emoji or CJK are not cut in half). */
export function logoLabel(symbol: string): string {
  const chars = Array.from(symbol).filter((char) => /[\p{L}\p{N}]/u.test(char));
  return chars.slice(0, 4).join('').toUpperCase() || '?';
}

function hue(key: string): number {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 360;
}

/** The asset a logo stands for, the same on every chain it is listed on. */
export function assetKey(token: { symbol: string; name: string }): string {
  return `${token.symbol.toUpperCase()}\u0000${token.name.toLowerCase()}`;
}

export function tokenLogoSvg(token: { symbol: string; name: string }): string {
  const { symbol } = token;
  const label = logoLabel(symbol);
  const size = label.length <= 2 ? 26 : label.length === 3 ? 20 : 16;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">' +
    `<circle cx="32" cy="32" r="32" fill="hsl(${hue(assetKey(token))},60%,45%)"/>` +
    `<text x="32" y="32" dy=".35em" text-anchor="middle" font-family="Helvetica,Arial,sans-serif" font-weight="700" font-size="${size}" fill="#fff">` +
    `${escapeXml(label)}</text></svg>`
  );
}
