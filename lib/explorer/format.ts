// Amount display for the content script. lib/amounts holds the full formatter (and its parser); this is
// the same display rule with its defaults baked in, small enough for the 8 kB bundle: truncate toward
// zero (never show more than the quote says), 6 significant digits but at least 2 decimals from 1 up,
// thousands separators, `<0.000001` for tiny non-zero amounts. Tests hold it equal to formatAmount.

export function formatUnits(value: bigint, decimals: number): string {
  if (value <= 0n) return '0';
  const digits = value.toString().padStart(decimals + 1, '0');
  const int = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals);
  let shown: string;
  if (int !== '0') {
    shown = frac.slice(0, Math.max(6 - int.length, 2));
  } else {
    const first = frac.search(/[1-9]/);
    if (first >= 6) return '<0.000001';
    shown = frac.slice(0, first + 6);
  }
  shown = shown.replace(/0+$/, '');
  return `${int.replace(/\B(?=(\d{3})+$)/g, ',')}${shown ? `.${shown}` : ''}`;
}
