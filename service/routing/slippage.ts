// Slippage arithmetic in exact integers: the percent is a JSON number, read through its shortest
// decimal form so 0.3 means exactly 3/10 and minReceived never depends on float rounding.

/** Slippage is scaled by 1e6 (at most 6 decimals); 100% is this many units. */
export const SLIPPAGE_SCALE = 1_000_000n;
const HUNDRED_PERCENT = 100n * SLIPPAGE_SCALE;

const scaled = new Map<number, bigint | null>();

/** Slippage percent -> integer micro-percent, or null when it has more than 6 decimals or is not plain. */
export function scaleSlippage(slippage: number): bigint | null {
  // Clients send a handful of distinct values; the regex runs once per value.
  const known = scaled.get(slippage);
  if (known !== undefined) return known;
  const result = parseSlippage(slippage);
  if (scaled.size > 1_000) scaled.clear();
  scaled.set(slippage, result);
  return result;
}

function parseSlippage(slippage: number): bigint | null {
  if (!Number.isFinite(slippage) || slippage < 0) return null;
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(String(slippage));
  if (!match) return null; // exponent notation or more than 6 decimals
  const whole = BigInt(match[1] ?? '0');
  const fraction = BigInt((match[2] ?? '').padEnd(6, '0'));
  return whole * SLIPPAGE_SCALE + fraction;
}

/** floor(outAmount * (100 - slippage) / 100), exactly. */
export function minReceivedFor(outAmount: bigint, scaledSlippage: bigint): bigint {
  if (scaledSlippage >= HUNDRED_PERCENT) return 0n;
  return (outAmount * (HUNDRED_PERCENT - scaledSlippage)) / HUNDRED_PERCENT;
}
