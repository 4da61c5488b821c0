import { SLIPPAGE_LIMITS } from '@/lib/settings/settings';

export type SlippageCheck =
  | { level: 'ok' }
  | { level: 'warning'; message: string }
  | { level: 'error'; message: string };

/** What users of MetaMask or Rabby expect to be told about a slippage setting. */
export function checkSlippage(value: number): SlippageCheck {
  if (!Number.isFinite(value)) return { level: 'error', message: 'Enter slippage as a number, like 0.5.' };
  if (value < SLIPPAGE_LIMITS.min)
    return { level: 'error', message: `Slippage must be at least ${SLIPPAGE_LIMITS.min}%.` };
  if (value > SLIPPAGE_LIMITS.max) {
    return {
      level: 'error',
      message: `Slippage above ${SLIPPAGE_LIMITS.max}% is refused: you could lose most of the trade.`,
    };
  }
  if (value < SLIPPAGE_LIMITS.warnBelow) {
    return { level: 'warning', message: 'Very low slippage: the swap may fail if the price moves at all.' };
  }
  if (value > SLIPPAGE_LIMITS.warnAbove) {
    return {
      level: 'warning',
      message: 'High slippage: you may receive much less than quoted, and bots can take the difference.',
    };
  }
  return { level: 'ok' };
}
