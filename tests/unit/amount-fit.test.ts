import { describe, expect, it } from 'vitest';
import { AMOUNT_FONT_FLOOR_PX, amountFontPx } from '@/lib/amounts/fit';

describe('amountFontPx', () => {
  it('keeps the full size for everyday amounts and shrinks, never grows, as the text lengthens', () => {
    expect(amountFontPx('')).toBe(22);
    expect(amountFontPx('1.5')).toBe(22);
    let previous = Number.POSITIVE_INFINITY;
    for (let length = 1; length <= 40; length++) {
      const px = amountFontPx('9'.repeat(length));
      expect(px).toBeLessThanOrEqual(previous);
      previous = px;
    }
  });

  it('shrinks a 13-million amount with cents, and stops at the floor', () => {
    expect(amountFontPx('13,747,515.29 USDC')).toBeLessThan(22);
    expect(amountFontPx('13747515.291234567891')).toBe(AMOUNT_FONT_FLOOR_PX);
  });
});
