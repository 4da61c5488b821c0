// The approval queue behind the one approval window: requests wait here (bounded per origin and in
// all), the window shows the oldest, the user's answer runs or rejects it, and closing the window
// rejects everything it was asking about (4001). State is in memory: a worker restart drops the
// waiting requests, whose pages then get an error from the bridge.
import type { ApprovalDetail, ApprovalsState, ApprovalView, DappResponse } from '@/lib/dapp/approval';
import { DappRpcError, RPC_ERROR, rejected, toRpcError } from '@/lib/dapp/errors';
import type { ApprovalKind } from '@/lib/dapp/methods';
import { originWarnings } from '@/lib/dapp/origin';
import { current, enqueue, type Queued, removeFromQueue } from '@/lib/dapp/queue';
import type { WalletState } from '@/lib/wallet/state';
import { CodedError } from './errors';

export interface ApprovalDeps {
  openWindow: () => Promise<number | undefined>;
  focusWindow: (id: number) => Promise<void>;
  /** Closes a window the queue no longer uses (if it did not close itself first). */
  closeWindow: (id: number) => Promise<void>;
  walletStatus: () => Promise<WalletState['status']>;
  unlock: (password: string) => Promise<unknown>;
  now: () => number;
}

interface Pending extends Queued {
  kind: ApprovalKind;
  view: ApprovalView;
  /** Runs once the user approved (the wallet is unlocked by then); its value goes to the page. */
  run: () => Promise<unknown>;
  settle: (response: DappResponse) => void;
}

const FULL_MESSAGES = {
  'origin-full': 'This site already has requests waiting for the user.',
  'queue-full': 'Too many requests are waiting for the user.',
} as const;

export function createApprovalQueue(deps: ApprovalDeps) {
  let queue: Pending[] = [];
  let windowId: number | null = null;
  let nextId = 0;
  let opening: Promise<void> | null = null;

  /** One window for the whole queue: concurrent requests share the one being opened. */
  function ensureWindow(): Promise<void> {
    opening ??= (async () => {
      if (windowId !== null) {
        const focused = await deps.focusWindow(windowId).then(
          () => true,
          () => false,
        );
        if (focused) return;
      }
      windowId = (await deps.openWindow()) ?? null;
    })().finally(() => {
      opening = null;
    });
    return opening;
  }

  /**
   * Nothing left to decide: the window is forgotten before it is closed, so a request arriving
   * while it closes opens a new window instead of being shown in (and rejected with) the old one.
   */
  function closeIfDone(): void {
    if (queue.length > 0 || windowId === null) return;
    const closing = windowId;
    windowId = null;
    void deps.closeWindow(closing).catch(() => undefined);
  }

  async function approvals(): Promise<ApprovalsState> {
    return {
      wallet: await deps.walletStatus(),
      current: current(queue)?.view ?? null,
      waiting: queue.slice(1).map(({ id, origin, kind }) => ({ id, origin, kind })),
    };
  }

  return {
    approvals,

    /** Waits for the user's answer about one request: its result, or an EIP-1193 error. */
    ask(origin: string, kind: ApprovalKind, detail: ApprovalDetail, run: () => Promise<unknown>) {
      return new Promise<DappResponse>((settle) => {
        const id = `${deps.now().toString(36)}-${(nextId++).toString(36)}`;
        const view: ApprovalView = { id, origin, warnings: originWarnings(origin), detail };
        const added = enqueue(queue, { id, origin, kind, view, run, settle });
        if (!added.ok) {
          settle({ error: { code: RPC_ERROR.limitExceeded, message: FULL_MESSAGES[added.reason] } });
          return;
        }
        queue = added.queue;
        void ensureWindow().catch(() => undefined);
      });
    },

    async decide(id: string, approve: boolean, password?: string): Promise<ApprovalsState> {
      const pending = queue.find((entry) => entry.id === id);
      if (!pending) throw new CodedError('NOT_WAITING', 'This request is no longer waiting.');
      if (!approve) {
        queue = removeFromQueue(queue, id);
        pending.settle({ error: toRpcError(rejected()) });
        closeIfDone();
        return approvals();
      }
      // A wrong password keeps the request waiting: the window says so and asks again.
      if ((await deps.walletStatus()) !== 'unlocked') {
        if (!password) throw new CodedError('LOCKED', 'Unlock Swaplane first: enter your password.');
        await deps.unlock(password);
      }
      queue = removeFromQueue(queue, id);
      try {
        pending.settle({ result: await pending.run() });
      } catch (error) {
        pending.settle({ error: toRpcError(error) });
        // The window shows why it failed (the page got the same coded error).
        throw new CodedError(
          'REQUEST_FAILED',
          error instanceof DappRpcError ? error.message : 'Swaplane could not complete the request.',
        );
      }
      closeIfDone();
      return approvals();
    },

    /** The window went away (closed by the user): everything it was asking about is rejected. */
    windowClosed(id: number): void {
      if (id !== windowId) return;
      windowId = null;
      const dropped = queue;
      queue = [];
      for (const pending of dropped) pending.settle({ error: toRpcError(rejected()) });
    },
  };
}
