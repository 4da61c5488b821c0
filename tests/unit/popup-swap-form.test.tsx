// @vitest-environment happy-dom
// The swap form's state (entrypoints/popup/hooks/useSwapForm.ts) over a recorded background: what the
// first render restores, and how many messages each change of the form sends (one per keystroke).
import { act, cleanup, renderHook, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NATIVE_TOKEN_ADDRESS, type Token } from '@/lib/api/schema';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { INITIAL_SESSION_STATE, type QuoteInput, type QuoteSessionState } from '@/lib/state/session-state';

const TOKEN_A: Token = {
  chainId: 1,
  address: '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa',
  name: 'Token A',
  symbol: 'AAA',
  decimals: 18,
  logoURI: '',
};
const TOKEN_B: Token = {
  chainId: 1,
  address: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB',
  name: 'Token B',
  symbol: 'BBB',
  decimals: 6,
  logoURI: '',
};
const NATIVE: Token = {
  chainId: 1,
  address: NATIVE_TOKEN_ADDRESS,
  name: 'Ether',
  symbol: 'ETH',
  decimals: 18,
  logoURI: '',
};

const world = vi.hoisted(() => ({
  sent: [] as { type: string; [key: string]: unknown }[],
  session: null as QuoteSessionState | null,
  start: null as unknown,
  prefill: null as unknown,
}));

vi.mock('@/lib/messaging/client', () => ({
  BackgroundError: class extends Error {},
  callBackground: async (request: { type: string; input?: QuoteInput | null }) => {
    world.sent.push(request);
    switch (request.type) {
      case 'getTokenList':
        return { chainId: 1, tokens: [NATIVE, TOKEN_A, TOKEN_B], fetchedAt: 0, status: 'fresh' };
      case 'takePrefill':
        return world.prefill;
      case 'getSettings':
        return { ...DEFAULT_SETTINGS, slippage: 0.7 };
      case 'setQuoteInput':
        // The background's echo: the session now holds the input (the port brings it back).
        world.session = { ...(world.session ?? INITIAL_SESSION_STATE), input: request.input ?? null };
        return world.session;
      default:
        return null;
    }
  },
}));
vi.mock('@/entrypoints/popup/hooks/useQuoteSession', () => ({
  useQuoteSession: () => ({ session: world.session, swap: null }),
}));
vi.mock('@/entrypoints/popup/start', () => ({
  takeStart: () => (world.start ? { value: world.start, promise: Promise.resolve(world.start) } : null),
}));

const { inputOf, sameInput, useSwapForm } = await import('@/entrypoints/popup/hooks/useSwapForm');

const INPUT: QuoteInput = {
  chainId: 1,
  inToken: TOKEN_A.address,
  outToken: TOKEN_B.address,
  inAmount: '1500000000000000000',
  slippage: 1,
};

function startWith(input: QuoteInput | null): void {
  world.session = { ...INITIAL_SESSION_STATE, input, status: input ? 'ready' : 'idle' };
  world.start = {
    wallet: null,
    settings: DEFAULT_SETTINGS,
    session: world.session,
    swap: null,
    tokens: { chainId: 1, tokens: [TOKEN_A, TOKEN_B] },
  };
}

/** The messages that touch the quote session, by type. */
const sessionMessages = () =>
  world.sent.filter((m) => m.type === 'setQuoteInput' || m.type === 'markTyping').map((m) => m.type);

async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((done) => setTimeout(done, 0));
  });
}

beforeEach(() => {
  world.sent = [];
  world.session = null;
  world.start = null;
  world.prefill = null;
});
afterEach(cleanup);

describe('useSwapForm', () => {
  it('restores the form from the start in the first render, and sends no input back on opening', async () => {
    startWith(INPUT);
    const { result } = renderHook(() => useSwapForm());
    expect(result.current.ready).toBe(true);
    expect(result.current.from?.token.symbol).toBe('AAA');
    expect(result.current.to?.token.symbol).toBe('BBB');
    expect(result.current.amount).toBe('1.5');
    expect(result.current.slippage).toBe(1);
    await settle();
    expect(sessionMessages()).toEqual([]);
    expect(world.sent.map((m) => m.type).sort()).toEqual(['getTokenList', 'takePrefill']);
  });

  it('sends one message per keystroke: setQuoteInput when the input changed, markTyping when not', async () => {
    startWith(INPUT);
    const { result, rerender } = renderHook(() => useSwapForm());
    await settle();
    const type = async (text: string) => {
      world.sent = [];
      act(() => result.current.typeAmount(text));
      await settle();
      rerender(); // the session's echo arrives
      return sessionMessages();
    };
    expect(await type('1.55')).toEqual(['setQuoteInput']);
    expect(world.session?.input?.inAmount).toBe('1550000000000000000');
    expect(await type('1.550')).toEqual(['markTyping']); // same amount: hold the refresh only
    expect(await type('2')).toEqual(['setQuoteInput']);
    expect(await type('')).toEqual(['setQuoteInput']); // no amount: the session is cleared
    expect(world.session?.input).toBeNull();
    expect(await type('0')).toEqual(['markTyping']); // still no input
  });

  it('picking the other side’s token swaps the two; flip swaps them too, one message each', async () => {
    startWith(INPUT);
    const { result } = renderHook(() => useSwapForm());
    await settle();
    world.sent = [];
    act(() => result.current.pickFrom({ token: TOKEN_B, whitelisted: true }));
    await settle();
    expect(result.current.from?.token.symbol).toBe('BBB');
    expect(result.current.to?.token.symbol).toBe('AAA');
    act(() => result.current.flip());
    await settle();
    expect(result.current.from?.token.symbol).toBe('AAA');
    expect(sessionMessages()).toEqual(['setQuoteInput', 'setQuoteInput']);
  });

  it('without a start, waits for the session, then takes the settings’ slippage with one request', async () => {
    const { result, rerender } = renderHook(() => useSwapForm());
    expect(result.current.ready).toBe(false);
    await settle();
    world.session = { ...INITIAL_SESSION_STATE };
    rerender();
    await settle();
    await waitFor(() => expect(result.current.slippage).toBe(0.7));
    expect(result.current.ready).toBe(true);
    expect(world.sent.filter((m) => m.type === 'getSettings')).toHaveLength(1);
    expect(sessionMessages()).toEqual([]);
  });

  it('starts from an explorer page’s prefill: its token to receive, paid in the native coin', async () => {
    startWith(null);
    world.prefill = { chainId: 1, token: TOKEN_B.address, amount: '250000000000000000', createdAt: 0 };
    const { result } = renderHook(() => useSwapForm());
    await waitFor(() => expect(result.current.to?.token.symbol).toBe('BBB'));
    expect(result.current.from?.token.symbol).toBe('ETH');
    expect(result.current.amount).toBe('0.25');
    await settle();
    expect(world.session?.input).toMatchObject({
      inToken: NATIVE_TOKEN_ADDRESS,
      inAmount: '250000000000000000',
    });
  });
});

describe('inputOf and sameInput', () => {
  const a = { token: TOKEN_A, whitelisted: true };
  const b = { token: TOKEN_B, whitelisted: true };
  it('makes an input only from two different tokens and a positive amount', () => {
    expect(inputOf(1, a, b, { ok: true, value: 1_500_000_000_000_000_000n }, 1)).toEqual(INPUT);
    expect(inputOf(1, a, a, { ok: true, value: 1n }, 1)).toBeNull();
    expect(inputOf(1, a, b, { ok: true, value: 0n }, 1)).toBeNull();
    expect(inputOf(1, null, b, { ok: true, value: 1n }, 1)).toBeNull();
  });
  it('compares with what the session holds', () => {
    expect(sameInput(INPUT, { ...INPUT })).toBe(true);
    expect(sameInput(INPUT, { ...INPUT, slippage: 2 })).toBe(false);
    expect(sameInput(null, null)).toBe(true);
    expect(sameInput(INPUT, null)).toBe(false);
    expect(sameInput(null, INPUT)).toBe(false);
  });
});
