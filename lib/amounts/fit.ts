// How large an amount's digits may be drawn in the popup's 360 px panels: long amounts shrink the
// font step by step down to a floor, past which the field truncates (the value itself is never cut).

/** Font sizes (px) by the amount text's length; the last one is the floor. */
const STEPS: readonly (readonly [maxLength: number, px: number])[] = [
  [10, 22],
  [13, 18],
  [16, 15],
];
export const AMOUNT_FONT_FLOOR_PX = 13;

export function amountFontPx(text: string): number {
  for (const [maxLength, px] of STEPS) if (text.length <= maxLength) return px;
  return AMOUNT_FONT_FLOOR_PX;
}
