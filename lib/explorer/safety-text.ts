// The card's words for a token safety report. The background words the report (withSafetyWords) and
// sends the words along; the content script only reads them (readSafety), so these strings stay out of
// its 8 kB bundle.

export interface SafetyAnswer {
  verdict: 'clean' | 'tax' | 'sell-blocked' | 'no-pool' | 'buy-failed' | 'unsupported';
  buyTaxBps?: number;
  sellTaxBps?: number;
  network: string;
}

/** What the card shows: the verdict's headline and how it was found. */
export interface SafetyWords {
  headline: string;
  detail: string;
}

/** The words when the answer carries them as strings (checked by hand: no zod in this bundle). */
export function readSafety(result: unknown): SafetyWords | undefined {
  const value = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  if (typeof value.headline !== 'string' || typeof value.detail !== 'string') return undefined;
  return { headline: value.headline, detail: value.detail };
}

/** The report with its words, as the background answers tokenSafety. */
export function withSafetyWords<T extends SafetyAnswer>(answer: T): T & SafetyWords {
  const [headline, detail] = safetyText(answer);
  return { ...answer, headline, detail };
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
