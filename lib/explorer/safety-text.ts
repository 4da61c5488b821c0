// The card's words for a token safety report (the background's tokenSafety answer). Tiny: content script.

export interface SafetyAnswer {
  verdict: 'clean' | 'tax' | 'sell-blocked' | 'no-pool' | 'buy-failed' | 'unsupported';
  buyTaxBps?: number;
  sellTaxBps?: number;
  network: string;
}

const VERDICTS = ['clean', 'tax', 'sell-blocked', 'no-pool', 'buy-failed', 'unsupported'];
const bps = (value: unknown) =>
  value === undefined || (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 10_000);

/** The answer when it has exactly the expected shape (checked by hand: no zod in this bundle). */
export function readSafety(result: unknown): SafetyAnswer | undefined {
  const value = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  if (!VERDICTS.includes(value.verdict as string) || typeof value.network !== 'string') return undefined;
  if (!bps(value.buyTaxBps) || !bps(value.sellTaxBps)) return undefined;
  return value as unknown as SafetyAnswer;
}

const percent = (value = 0) => `${value / 100}%`;

/** [headline, detail]: what the simulated buy and sell-back found. */
export function safetyText(answer: SafetyAnswer): [string, string] {
  const how = `A buy and sell-back simulated on your ${answer.network} RPC (nothing was sent)`;
  switch (answer.verdict) {
    case 'clean':
      return ['Safety check: clean', `${how} lost no transfer tax.`];
    case 'tax':
      return [
        `Transfer tax: ${percent(answer.buyTaxBps)} on buying, ${percent(answer.sellTaxBps)} on selling`,
        `${how} received less than the pool sent.`,
      ];
    case 'sell-blocked':
      return ['Sell blocked (honeypot): you could buy it but not sell it', `${how}: the sell-back failed.`];
    case 'no-pool':
      return [
        'Not checked: no pool against the wrapped coin to test with',
        'Swaplane found nothing to simulate.',
      ];
    case 'buy-failed':
      return ['Warning: a simulated buy failed', `${how}: the buy itself reverted.`];
    default:
      return [
        'Not checked: this RPC cannot simulate',
        `Your ${answer.network} RPC does not support eth_simulateV1, so the token was not tested.`,
      ];
  }
}
