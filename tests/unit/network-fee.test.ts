import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Quote } from '@/lib/api/schema';
import { feeEstimate } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { withGasMargin } from '@/lib/rpc/transactions';
import { swapGasMemoryItem } from '@/lib/storage/items';
import { createFeeProbe, PROBE_REUSE_MS, probeKey } from '@/lib/swap/fee-probe';
import {
  APPROVAL_GAS,
  createGasMemory,
  estimatedGas,
  GAS_MARGIN_PERCENT,
  networkFee,
  routeShape,
  swapGasEstimate,
} from '@/lib/swap/network-fee';

beforeEach(() => fakeBrowser.reset());

const share = (pools: number, pool = '0x00000000000000000000000000000000000000a1') => ({
  percent: 100,
  swaps: Array.from({ length: pools }, () => ({ dex: 'uniswap-v2', pool })),
});
const fees = {
  baseFee: 1_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
  maxFeePerGas: 3_000_000_000n,
  capped: false,
};
const quoteOf = (patch: Partial<Quote> = {}): Quote => ({
  chainId: 1,
  inToken: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
  inDecimals: 18,
  inAmount: '1',
  outToken: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  outDecimals: 6,
  outAmount: '1',
  slippage: 0.5,
  minReceived: '1',
  bestRoute: [share(1)],
  contractAddress: '0x1111111111111111111111111111111111111111',
  contractMethod: 'swap',
  blockNumber: 1,
  ...patch,
});

describe('network fee', () => {
  it('estimates from the pools of the route, plus one approval when one is needed', () => {
    expect(swapGasEstimate([share(2)]) - swapGasEstimate([share(1)])).toBe(90_000n);
    expect(swapGasEstimate([share(1)], true), 'the coin paid in is wrapped first').toBeGreaterThan(
      swapGasEstimate([share(1)]),
    );
    const plain = networkFee(estimatedGas(quoteOf(), false), fees);
    const withApproval = networkFee(estimatedGas(quoteOf(), true), fees);
    expect(plain.gas).toBe(swapGasEstimate([share(1)], true));
    expect(plain.expected).toBe(plain.gas * 2_000_000_000n);
    expect(plain.approvalNeeded).toBe(false);
    expect(withApproval.gas - plain.gas).toBe(APPROVAL_GAS);
    expect(withApproval.approvalNeeded).toBe(true);
    expect(estimatedGas(quoteOf(), false, 123_456n).swap, 'a remembered gas wins over the route').toBe(
      123_456n,
    );
  });

  it("is the review's figure for the same gas: each transaction's feeEstimate at the review's margin, summed", () => {
    const swap = 169_824n;
    const approval = 46_321n;
    const review = [swap, approval].map((gas) =>
      feeEstimate(gas, withGasMargin(gas, GAS_MARGIN_PERCENT), fees),
    );
    const screen = networkFee({ swap, approvals: [approval] }, fees);
    expect(screen.gas).toBe(swap + approval);
    expect(screen.expected).toBe(BigInt(review[0]?.expected ?? 0) + BigInt(review[1]?.expected ?? 0));
    expect(screen.max).toBe(BigInt(review[0]?.max ?? 0) + BigInt(review[1]?.max ?? 0));
    expect(screen.approvalNeeded).toBe(true);
  });
});

describe('gas memory', () => {
  it('remembers the simulated gas per route shape, not across shapes, and forgets the oldest past its limit', async () => {
    const memory = createGasMemory(swapGasMemoryItem, 2);
    await memory.remember(quoteOf(), 150_000n);
    expect(await memory.recall(quoteOf({ inAmount: '5' }))).toBe(150_000n);
    expect(await memory.recall(quoteOf({ bestRoute: [share(2)] }))).toBeUndefined();
    expect(await memory.recall(quoteOf({ chainId: 8453 }))).toBeUndefined();
    await memory.remember(quoteOf({ bestRoute: [share(2)] }), 220_000n);
    await memory.remember(quoteOf({ bestRoute: [share(3)] }), 290_000n);
    expect(await memory.recall(quoteOf()), 'the oldest shape is forgotten past the limit').toBeUndefined();
    expect(routeShape(quoteOf())).not.toBe(
      routeShape(quoteOf({ inToken: quoteOf().outToken, outToken: quoteOf().inToken })),
    );
  });

  it('survives a worker restart: a new memory reads back what the last one wrote (storage.session)', async () => {
    await createGasMemory().remember(quoteOf(), 171_234n);
    const stored = await fakeBrowser.storage.session.get('swapGasMemory');
    expect(JSON.stringify(stored)).toContain('171234');
    const restarted = createGasMemory();
    expect(await restarted.recall(quoteOf({ inAmount: '7' }))).toBe(171_234n);
  });

  it('reads nothing from a stored memory that does not parse, and keeps working', async () => {
    await fakeBrowser.storage.session.set({
      swapGasMemory: { v: 1, data: { [routeShape(quoteOf())]: '-5' } },
    });
    const memory = createGasMemory();
    expect(await memory.recall(quoteOf())).toBeUndefined();
    await fakeBrowser.storage.session.set({ swapGasMemory: { v: 1, data: { shape: 12 } } });
    expect(await createGasMemory().recall(quoteOf())).toBeUndefined();
    await memory.remember(quoteOf(), 160_000n);
    expect(await createGasMemory().recall(quoteOf()), 'the next write replaces the bad value').toBe(160_000n);
  });
});

describe('fee probe key', () => {
  it('is the same for a refresh of the same route and amount, and differs by pool, share, amount and account', () => {
    const from = '0x2222222222222222222222222222222222222222';
    const key = probeKey(quoteOf({ blockNumber: 9 }), from);
    expect(
      probeKey(quoteOf({ blockNumber: 10, outAmount: '2' }), from.toUpperCase().replace('0X', '0x')),
    ).toBe(key);
    expect(probeKey(quoteOf({ inAmount: '2' }), from)).not.toBe(key);
    expect(
      probeKey(quoteOf({ bestRoute: [share(1, '0x00000000000000000000000000000000000000b2')] }), from),
    ).not.toBe(key);
    const split = [
      { ...share(1), percent: 60 },
      { ...share(1), percent: 40 },
    ];
    expect(probeKey(quoteOf({ bestRoute: split }), from)).not.toBe(key);
    expect(probeKey(quoteOf(), '0x3333333333333333333333333333333333333333')).not.toBe(key);
  });

  it("serialises a quote's route once, however often the screen looks at that quote", () => {
    const quote = quoteOf();
    const from = '0x2222222222222222222222222222222222222222';
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const key = probeKey(quote, from);
      const once = stringify.mock.calls.length;
      expect(once).toBeGreaterThan(0);
      for (let look = 0; look < 5; look++) expect(probeKey(quote, from)).toBe(key);
      expect(probeKey(quote, '0x3333333333333333333333333333333333333333')).not.toBe(key);
      expect(stringify.mock.calls.length).toBe(once);
      // A new quote object (the next refresh) is read again, to the same key.
      expect(probeKey(quoteOf(), from)).toBe(key);
      expect(stringify.mock.calls.length).toBeGreaterThan(once);
    } finally {
      stringify.mockRestore();
    }
  });
});

describe('fee probe reuse', () => {
  const from = '0x2222222222222222222222222222222222222222';
  const router = '0x4444444444444444444444444444444444444444';
  /** Coin in: no allowance to read, only the balance before a build; every build is refused here. */
  function setUp() {
    let clock = 1_000;
    const account = { balance: 10n ** 18n };
    const client = { getBalance: async () => account.balance } as unknown as RpcClient;
    const asked: Quote[] = [];
    const api = {
      build: async (quote: Quote) => {
        asked.push(quote);
        throw new Error('the service is down');
      },
    };
    const probe = createFeeProbe(() => clock);
    const look = (quote: Quote) => probe.probe({ client, api, quote, from, fees });
    return { probe, look, asked, account, tick: (ms: number) => (clock += ms) };
  }

  it("takes the review's own gas for the reviewed quote and its refreshes, without a build, until it is old", async () => {
    const { probe, look, asked, tick } = setUp();
    probe.share(quoteOf(), from, Promise.resolve({ swap: 170_000n, approvals: [], router }));
    expect(await look(quoteOf({ blockNumber: 2, outAmount: '2' }))).toMatchObject({ swap: 170_000n });
    expect(asked).toHaveLength(0);
    tick(PROBE_REUSE_MS + 1);
    expect(await look(quoteOf()), 'too old: built again, and the refused build gives no figure').toBeNull();
    expect(asked).toHaveLength(1);
  });

  it('shares one build between looks at the same quote, and a failed review leaves the next look to build', async () => {
    const { probe, look, asked } = setUp();
    const [a, b] = await Promise.all([look(quoteOf({ inAmount: '9' })), look(quoteOf({ inAmount: '9' }))]);
    expect([a, b]).toEqual([null, null]);
    expect(asked).toHaveLength(1);
    probe.share(quoteOf({ inAmount: '8' }), from, Promise.reject(new Error('the review failed')));
    expect(
      await look(quoteOf({ inAmount: '8' })),
      'the failed review answers the look that waited',
    ).toBeNull();
    expect(await look(quoteOf({ inAmount: '8' }))).toBeNull();
    expect(asked, 'the next look builds').toHaveLength(2);
  });

  it('never builds an amount the account cannot pay', async () => {
    const { look, asked, account } = setUp();
    account.balance = 5n;
    expect(await look(quoteOf({ inAmount: '6' }))).toBeNull();
    expect(await look(quoteOf({ inAmount: '6', blockNumber: 3 }))).toBeNull();
    expect(asked, 'no build for a balance short of the amount').toHaveLength(0);
    expect(await look(quoteOf({ inAmount: '5' }))).toBeNull();
    expect(asked, 'the whole balance may be swapped').toHaveLength(1);
  });

  it("keeps the router a build named, for the fallback's allowance read", async () => {
    const { probe } = setUp();
    expect(probe.routerFor(quoteOf())).toBeUndefined();
    probe.share(quoteOf(), from, Promise.resolve({ swap: 170_000n, approvals: [], router }));
    await probe.probe({
      client: {} as RpcClient,
      api: { build: async () => Promise.reject() },
      quote: quoteOf(),
      from,
      fees,
    });
    expect(probe.routerFor(quoteOf({ inAmount: '99' })), 'any amount of the same service contract').toBe(
      router,
    );
    expect(probe.routerFor({ ...quoteOf(), chainId: 8453 })).toBeUndefined();
  });
});
