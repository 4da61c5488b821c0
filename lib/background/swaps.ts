// The background's swap executor: turns the quote session's current quote into a confirmed swap
// through the pipeline (lib/swap/execute.ts), pushes each state to views, resumes pending swaps
// after a worker restart, and notifies when a swap confirms or fails.
import type { Address } from 'viem';
import type { SwapApiClient } from '@/lib/api/client';
import { type BalanceReader, balanceOf, createBalanceReader } from '@/lib/rpc/balances';
import { publicClientFor } from '@/lib/rpc/network';
import type { Settings } from '@/lib/settings/settings';
import type { SwapState } from '@/lib/state/pipeline-state';
import {
  createPendingSwapStore,
  createSwapMachine,
  resumePendingSwaps,
  type SwapDeps,
} from '@/lib/swap/execute';
import { createSwapHistory } from '@/lib/swap/history';
import { createRouterPins } from '@/lib/swap/router-pins';
import type { QuoteSession } from '@/lib/swap/session';
import { CodedError } from './errors';
import type { WalletService } from './wallet';

export interface SwapServiceDeps {
  api: () => SwapApiClient;
  settings: () => Settings;
  session: QuoteSession;
  wallet: WalletService;
  notify?: (title: string, message: string) => void;
}

export interface StartSwapOptions {
  approvalMode: 'exact' | 'unlimited';
  routerConsent?: string;
}

export function createSwapService(deps: SwapServiceDeps) {
  const store = createPendingSwapStore();
  const history = createSwapHistory();
  const pins = createRouterPins();
  const readers = new Map<string, BalanceReader>();
  const listeners = new Set<(state: SwapState) => void>();
  let current: SwapState | null = null;
  let running = false;

  function readerFor(chainId: number): BalanceReader {
    const client = publicClientFor(chainId, deps.settings());
    const key = `${chainId} ${client.transport.url ?? ''}`;
    let reader = readers.get(key);
    if (!reader) {
      reader = createBalanceReader({ client, chainId });
      readers.set(key, reader);
    }
    return reader;
  }

  function depsFor(chainId: number): SwapDeps {
    return {
      client: publicClientFor(chainId, deps.settings()),
      api: deps.api(),
      pins,
      store,
      history,
      balances: readerFor(chainId),
      onChange: (state) => {
        current = state;
        for (const listener of listeners) listener(state);
      },
    };
  }

  function settle(state: SwapState): void {
    if (state.status === 'confirmed') {
      deps.notify?.('Swap confirmed', 'Your swap went through. Open Swaplane for the details.');
    } else if (state.status === 'failed' && state.failure?.anythingSent) {
      deps.notify?.('Swap failed', state.failure.message.title);
    }
    if (state.failure?.code === 'QUOTE_OUTDATED' || state.failure?.code === 'PRICE_CHANGED') {
      deps.session.markOutdated('The price moved: review the new quote.');
    }
  }

  return {
    current: () => current,
    onChange(listener: (state: SwapState) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Executes the session's current quote with the active account. */
    async start(options: StartSwapOptions): Promise<SwapState | null> {
      if (running)
        throw new CodedError('SWAP_IN_PROGRESS', 'A swap is already in progress: wait for it to finish.');
      const session = deps.session.getState();
      if (!session.input || !session.quote) throw new CodedError('NO_QUOTE', 'Get a quote before you swap.');
      const account = await deps.wallet.activeSigner();
      const request = {
        chainId: session.input.chainId,
        inToken: session.input.inToken,
        outToken: session.input.outToken,
        inAmount: session.input.inAmount,
        slippage: session.input.slippage,
        ...(deps.settings().refCode !== undefined ? { refCode: deps.settings().refCode } : {}),
      };
      const machine = createSwapMachine(depsFor(request.chainId));
      running = true;
      current = null;
      const run = machine
        .run({
          chainId: request.chainId,
          account,
          request,
          quote: session.quote,
          quoteStale: session.status === 'stale',
          approvalMode: options.approvalMode,
          ...(options.routerConsent ? { routerConsent: options.routerConsent } : {}),
        })
        .then(settle, () => undefined)
        .finally(() => {
          running = false;
        });
      // Answer once the first state exists, so the view shows progress at once.
      await Promise.race([run, new Promise((resolve) => setTimeout(resolve, 50))]);
      return current;
    },

    /** Picks up swaps that were in flight when the worker stopped. */
    async resume(): Promise<void> {
      // Views see a swap in flight at once, not only when tracking it next changes its state
      // (with the RPC down, that could be minutes away).
      const pending = await store.list();
      if (pending.length === 0) return;
      const latest = pending.at(-1);
      if (latest && !current) {
        current = latest;
        for (const listener of listeners) listener(latest);
      }
      // One swap at a time, as after `start`: a new one waits until the resumed ones settle
      // (the view hides its button, but the background must refuse too).
      running = true;
      try {
        const states = await resumePendingSwaps(depsFor, store);
        for (const state of states) settle(state);
      } finally {
        running = false;
      }
    },

    /** Balances of the active account, as decimal strings, for the tokens a view shows. */
    async balances(chainId: number, tokens: string[]): Promise<Record<string, string>> {
      const state = await deps.wallet.state();
      const active = state.accounts.find((account) => account.id === state.activeId);
      if (!active) return {};
      const snapshot = await readerFor(chainId).read(active.address as Address, tokens);
      const result: Record<string, string> = {};
      for (const token of tokens) {
        const value = balanceOf(snapshot, token);
        if (value !== undefined) result[token.toLowerCase()] = value.toString();
      }
      return result;
    },

    history: () => history.list(),
    dismiss() {
      if (!running) current = null;
    },
  };
}

export type SwapService = ReturnType<typeof createSwapService>;
