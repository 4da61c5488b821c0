import { describe, expect, it } from 'vitest';
import { checkSlippage } from '@/lib/swap/slippage';

describe('slippage warnings', () => {
  it.each([
    [0.5, 'ok'],
    [0.1, 'ok'],
    [5, 'ok'],
    [0.05, 'warning'],
    [0.01, 'warning'],
    [5.5, 'warning'],
    [50, 'warning'],
    [50.01, 'error'],
    [0.001, 'error'],
    [0, 'error'],
    [-1, 'error'],
    [Number.NaN, 'error'],
    [Number.POSITIVE_INFINITY, 'error'],
  ])('%s%% is %s', (value, level) => {
    expect(checkSlippage(value).level).toBe(level);
  });
});
