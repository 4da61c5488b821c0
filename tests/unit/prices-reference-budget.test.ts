// The reference quotes' own budget (lib/prices/reference-budget.ts): a burst, then a steady rate, and a
// bound on the wait after which a price is skipped rather than queued for ever.
import { describe, expect, it } from 'vitest';
import { createReferenceBudget } from '@/lib/prices/reference-budget';

function clock() {
  let t = 0;
  const waits: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      waits.push(ms);
      t += ms;
    },
    advance: (ms: number) => {
      t += ms;
    },
    waits,
  };
}

describe('reference quote budget', () => {
  it('lets a burst through at once, then spaces the rest at the steady rate', async () => {
    const c = clock();
    const budget = createReferenceBudget({
      burst: 3,
      perSecond: 2,
      maxWaitMs: 60_000,
      now: c.now,
      sleep: c.sleep,
    });
    for (let i = 0; i < 3; i++) expect(await budget.take()).toBe(true);
    expect(c.waits).toEqual([]);
    expect(await budget.take()).toBe(true);
    expect(c.waits).toEqual([500]);
  });

  it('29 prices at once never exceed the service quota of a burst of 30 then 5 a second', async () => {
    const c = clock();
    const budget = createReferenceBudget({ now: c.now, sleep: async () => {}, maxWaitMs: 60_000 });
    const granted = await Promise.all(Array.from({ length: 29 }, () => budget.take()));
    expect(granted.every(Boolean)).toBe(true);
    // All 29 reserved at t=0: 10 at once, the others queued at 2 a second (the last ~9.5 s out).
    const later = createReferenceBudget({ now: c.now, sleep: c.sleep, maxWaitMs: 60_000 });
    for (let i = 0; i < 29; i++) await later.take();
    expect(c.waits.length).toBe(19);
    expect(c.now()).toBe(9_500);
  });

  it('skips a price whose wait would pass the bound, and recovers as time passes', async () => {
    const c = clock();
    const budget = createReferenceBudget({
      burst: 2,
      perSecond: 1,
      maxWaitMs: 1_000,
      now: c.now,
      sleep: async () => {},
    });
    expect(await budget.take()).toBe(true);
    expect(await budget.take()).toBe(true);
    expect(await budget.take()).toBe(true); // waits 1 s: within the bound
    expect(await budget.take()).toBe(false); // would wait 2 s
    c.advance(5_000);
    expect(await budget.take()).toBe(true);
  });
});
