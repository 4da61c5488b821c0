// What the popup's first render starts from: the preloaded answers (preload.ts), parsed with the
// protocol's schemas. main.tsx waits for them (capped) before the first render, so the first frame
// is the real screen with the cached list, not "Loading…" followed by two more rounds of effects.
import { callBackground } from '@/lib/messaging/client';
import type { ResultOf } from '@/lib/messaging/protocol';
import type { WalletState } from '@/lib/wallet/state';
import { PRELOAD_CHAIN_ID, preloadedPortSettled, takePreloaded } from './preload';

type TokenList = ResultOf<'getTokenList'>;

/** A started request: its value if it had already arrived, and the promise either way. */
export interface Booted<T> {
  value?: T;
  promise: Promise<T>;
}

let wallet: Booted<WalletState> | null = null;
let tokenList: Booted<TokenList> | null = null;

function track<T>(promise: Promise<T>): Booted<T> {
  const booted: Booted<T> = { promise };
  promise.then(
    (value) => {
      booted.value = value;
    },
    () => undefined,
  );
  return booted;
}

/**
 * Parses the preloaded answers; resolves when they and the session's first state are in, or after
 * `maxWaitMs` (a slow background then shows "Loading…" as before, never a blank popup for long).
 */
export function boot(maxWaitMs: number): Promise<void> {
  const rawWallet = takePreloaded('wallet');
  const rawList = takePreloaded('tokenList');
  if (rawWallet) wallet = track(callBackground({ type: 'walletState' }, rawWallet));
  if (rawList)
    tokenList = track(callBackground({ type: 'getTokenList', chainId: PRELOAD_CHAIN_ID }, rawList));
  const all = Promise.allSettled([wallet?.promise, tokenList?.promise, preloadedPortSettled()]);
  return Promise.race([all.then(() => undefined), new Promise<void>((done) => setTimeout(done, maxWaitMs))]);
}

/** The booted wallet state, once. */
export function takeBootWallet(): Booted<WalletState> | null {
  const taken = wallet;
  wallet = null;
  return taken;
}

/** The booted token list if it is `chainId`'s, once. */
export function takeBootTokenList(chainId: number): Booted<TokenList> | null {
  const taken = tokenList;
  tokenList = null;
  return taken && chainId === PRELOAD_CHAIN_ID ? taken : null;
}
