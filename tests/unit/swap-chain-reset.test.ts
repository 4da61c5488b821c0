// Activity after a network reset (a restarted devnet): entries whose transactions the chain no longer
// has are marked, so they are not shown as current; an unreachable RPC marks nothing.
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '@/lib/state/pipeline-state';
import { markEarlierChains, type ReceiptProbe } from '@/lib/swap/chain-reset';
import { ACCOUNT } from '../support/swaps';

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function entry(n: number, chainId = 1, status: HistoryEntry['status'] = 'confirmed'): HistoryEntry {
  return {
    kind: 'approval',
    id: `a-${chainId}-${n}`,
    swapId: `s-${n}`,
    chainId,
    account: ACCOUNT,
    status,
    hash: hash(chainId * 1000 + n),
    explorerUrl: null,
    gasPaid: null,
    failure: null,
    createdAt: n,
    updatedAt: n,
    token: ACCOUNT,
    spender: ACCOUNT,
    amount: '1',
    unlimited: false,
    reset: false,
  };
}

/** Newest first, as history is kept. */
const history = (chainId: number, ...ns: number[]) => ns.sort((a, b) => b - a).map((n) => entry(n, chainId));

function chainWith(present: Set<string>, calls: string[] = []): ReceiptProbe {
  return async (_chainId, h) => {
    calls.push(h);
    return present.has(h) ? 'found' : 'missing';
  };
}

const marked = (entries: HistoryEntry[]) => entries.filter((e) => e.earlierChain).map((e) => e.createdAt);

describe('markEarlierChains', () => {
  it('marks nothing on a chain that still has its newest and oldest transactions, with two lookups', async () => {
    const entries = history(1, 1, 2, 3, 4);
    const calls: string[] = [];
    const result = await markEarlierChains(
      entries,
      chainWith(new Set(entries.map((e) => e.hash as string)), calls),
    );
    expect(marked(result)).toEqual([]);
    expect(calls).toHaveLength(2);
  });

  it('marks a whole chain whose newest transaction is gone (reset since), and only that chain', async () => {
    const base = history(8453, 1, 2);
    const result = await markEarlierChains(
      [...history(1, 1, 2, 3), ...base],
      chainWith(new Set(base.map((e) => e.hash as string))),
    );
    expect(result.filter((e) => e.earlierChain).map((e) => e.chainId)).toEqual([1, 1, 1]);
  });

  it('finds the reset between the oldest and the newest', async () => {
    const entries = history(1, 1, 2, 3, 4, 5);
    const present = new Set(entries.filter((e) => e.createdAt >= 4).map((e) => e.hash as string));
    expect(marked(await markEarlierChains(entries, chainWith(present)))).toEqual([3, 2, 1]);
  });

  it('keeps a pending entry newer than the reset, and marks nothing when the RPC cannot answer', async () => {
    const entries = [entry(9, 1, 'pending'), ...history(1, 1, 2)];
    expect(marked(await markEarlierChains(entries, chainWith(new Set())))).toEqual([2, 1]);
    expect(marked(await markEarlierChains(entries, async () => 'unknown'))).toEqual([]);
  });
});
