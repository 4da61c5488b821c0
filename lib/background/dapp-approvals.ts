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
  /** Null while the request is being prepared (simulated): it holds its place but is not shown. */
  view: ApprovalView | null;
  /** The page frame that asked (tab:frame), so its reload rejects it. */
  frame: string | null;
  /** Runs once the user approved (the wallet is unlocked by then); its value goes to the page. */
  run: (choice: UserChoice) => Promise<unknown>;
  check?: PreparedApproval['check'];
  settle: (response: DappResponse) => void;
}

/** What the user chose in the window besides yes: the accounts a site may see (connect). */
export interface UserChoice {
  accounts?: readonly string[];
}

export interface PreparedApproval {
  chainId: number;
  detail: ApprovalDetail;
  /** Checks the user's choice first: a bad one keeps the request waiting (the window says why). */
  check?: (choice: UserChoice) => Promise<unknown>;
  run: (choice: UserChoice) => Promise<unknown>;
}

/** Warnings the user must tick before this request can be approved. */
function codesToTick(view: ApprovalView): string[] {
  const warnings = 'warnings' in view.detail ? view.detail.warnings : [];
  return [...view.warnings, ...warnings].filter((warning) => warning.tick).map((warning) => warning.code);
}

const FULL_MESSAGES = {
  'origin-full': 'This site already has requests waiting for the user.',
  'queue-full': 'Too many requests are waiting for the user.',
} as const;

/** The one approval window: opened (or focused) when something waits, closed when nothing does. */
function approvalWindow(deps: Pick<ApprovalDeps, 'openWindow' | 'focusWindow' | 'closeWindow'>) {
  let windowId: number | null = null;
  let opening: Promise<void> | null = null;
  return {
    /** One window for the whole queue: concurrent requests share the one being opened. */
    ensure(): Promise<void> {
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
    },
    /**
     * Nothing left to decide: the window is forgotten before it is closed, so a request arriving
     * while it closes opens a new window instead of being shown in (and rejected with) the old one.
     */
    closeIfEmpty(queueLength: number): void {
      if (queueLength > 0 || windowId === null) return;
      const closing = windowId;
      windowId = null;
      void deps.closeWindow(closing).catch(() => undefined);
    },
    /** The user closed window `id`: true when it was ours (it is then forgotten). */
    closed(id: number): boolean {
      if (id !== windowId) return false;
      windowId = null;
      return true;
    },
  };
}

export function createApprovalQueue(deps: ApprovalDeps) {
  let queue: Pending[] = [];
  let nextId = 0;
  const windows = approvalWindow(deps);
  const ensureWindow = () => windows.ensure();
  const closeIfDone = () => windows.closeIfEmpty(queue.length);

  /** The queue as the window shows it: `selected` when it still waits, else the oldest. */
  async function approvals(selected?: string): Promise<ApprovalsState> {
    const ready = queue.filter((entry) => entry.view !== null);
    const shown = ready.find((entry) => entry.id === selected) ?? current(ready);
    return {
      wallet: await deps.walletStatus(),
      current: shown?.view ?? null,
      waiting: ready.filter((entry) => entry !== shown).map(({ id, origin, kind }) => ({ id, origin, kind })),
      order: ready.map((entry) => entry.id),
    };
  }

  return {
    approvals,

    /**
     * Waits for the user's answer about one request: its result, or an EIP-1193 error. The request
     * takes its place in the queue BEFORE it is prepared: a page over its limit gets -32005 without
     * making the wallet simulate anything.
     */
    ask(
      origin: string,
      kind: ApprovalKind,
      prepare: () => Promise<PreparedApproval>,
      frame: string | null = null,
    ) {
      return new Promise<DappResponse>((settle) => {
        const id = `${deps.now().toString(36)}-${(nextId++).toString(36)}`;
        const added = enqueue(queue, { id, origin, kind, frame, view: null, run: async () => null, settle });
        if (!added.ok) {
          settle({ error: { code: RPC_ERROR.limitExceeded, message: FULL_MESSAGES[added.reason] } });
          return;
        }
        queue = added.queue;
        prepare().then(
          ({ detail, run, check, chainId }) => {
            const pending = queue.find((entry) => entry.id === id);
            if (!pending) return; // rejected while it was being prepared
            const account = 'account' in detail ? detail.account : null;
            pending.view = { id, origin, chainId, account, warnings: originWarnings(origin), detail };
            pending.run = run;
            pending.check = check;
            void ensureWindow().catch(() => undefined);
          },
          (error: unknown) => {
            queue = removeFromQueue(queue, id);
            settle({ error: toRpcError(error) });
          },
        );
      });
    },

    /** Rejects (4001) the requests of one tab's frames: its page reloaded or went away. */
    rejectTab(tabId: number): void {
      const fromTab = (entry: Pending) => entry.frame?.startsWith(`${tabId}:`) === true;
      const dropped = queue.filter(fromTab);
      queue = queue.filter((entry) => !fromTab(entry));
      for (const pending of dropped) pending.settle({ error: toRpcError(rejected()) });
      closeIfDone();
    },

    async decide(
      id: string,
      approve: boolean,
      password?: string,
      acknowledged: readonly string[] = [],
      choice: UserChoice = {},
    ): Promise<ApprovalsState> {
      const pending = queue.find((entry) => entry.id === id);
      if (!pending?.view) throw new CodedError('NOT_WAITING', 'This request is no longer waiting.');
      const unticked = approve
        ? codesToTick(pending.view).filter((code) => !acknowledged.includes(code))
        : [];
      if (unticked.length > 0) {
        throw new CodedError('NOT_ACKNOWLEDGED', 'Tick every warning that asks you to before approving.');
      }
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
      await pending.check?.(choice);
      queue = removeFromQueue(queue, id);
      try {
        pending.settle({ result: await pending.run(choice) });
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
      if (!windows.closed(id)) return;
      const dropped = queue.filter((entry) => entry.view !== null);
      queue = queue.filter((entry) => entry.view === null);
      for (const pending of dropped) pending.settle({ error: toRpcError(rejected()) });
    },
  };
}
