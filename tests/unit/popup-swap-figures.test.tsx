// @vitest-environment happy-dom
// The swap screen's balances (entrypoints/popup/hooks/useSwapFigures.ts): when the background cannot
// read them (its words name why, e.g. an RPC of another chain), the screen has no figure and the reason;
// the next good read clears it.
import { cleanup, renderHook, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rpcFailureMessage } from '@/lib/rpc/rpc-failure';
import { USDC } from '../support/addresses';

const WORDS = rpcFailureMessage({
  cause: 'wrong-chain',
  host: '127.0.0.1:8545',
  expectedChainId: 1,
  rpcChainId: 8453,
});

const world = vi.hoisted(() => ({ wrongChain: true }));

vi.mock('@/lib/messaging/client', async (original) => {
  const actual = await original<typeof import('@/lib/messaging/client')>();
  return {
    ...actual,
    callBackground: async (request: { type: string }) => {
      if (request.type !== 'getBalances') return {};
      if (world.wrongChain) throw new actual.BackgroundError('RPC_WRONG_CHAIN', WORDS.title, WORDS);
      return { [USDC.toLowerCase()]: '1500000' };
    },
  };
});

const { useSwapFigures } = await import('@/entrypoints/popup/hooks/useSwapFigures');

afterEach(cleanup);

describe('useSwapFigures balances', () => {
  it('an RPC of another chain: no balance, and the cause named; a later good read clears it', async () => {
    world.wrongChain = true;
    const { result, rerender } = renderHook(
      ({ status }: { status: string | undefined }) => useSwapFigures(1, [USDC], null, status),
      { initialProps: { status: undefined as string | undefined } },
    );
    await waitFor(() => expect(result.current.balanceError).not.toBeNull());
    expect(result.current.balanceError).toBe(`${WORDS.title}. ${WORDS.action}`);
    expect(result.current.balanceError).toContain('is for Base (chain 8453), not Ethereum (chain 1)');
    expect(result.current.balanceOf(USDC)).toBeUndefined();

    world.wrongChain = false;
    rerender({ status: 'confirmed' });
    await waitFor(() => expect(result.current.balanceOf(USDC)).toBe(1_500_000n));
    expect(result.current.balanceError).toBeNull();
  });
});
