// The approval queue behind the one approval window: requests wait here (bounded per origin and in
// all), the window shows the oldest, the user's answer runs or rejects it, and closing the window
// rejects everything it was asking about (4001). The waiting requests are kept in storage.session
// (./dapp-queue-store.ts): after the browser stops the worker, the window still shows them and an
// answer still reaches the page, whose bridge asks for it again (resume); a page that is gone by
// then gets nothing signed.
import type { ApprovalsState, ApprovalView, DappResponse } from '@/lib/dapp/approval';
import { DappRpcError, RPC_ERROR, rejected, toRpcError } from '@/lib/dapp/errors';
import type { ApprovalKind } from '@/lib/dapp/methods';
import { originWarnings } from '@/lib/dapp/origin';
import { current, enqueue, removeFromQueue } from '@/lib/dapp/queue';
import type { WalletState } from '@/lib/wallet/state';
import {
  type AskedRequest,
  answerKey,
  type Pending,
  type PreparedApproval,
  type QueueStore,
  type Revive,
  restoreQueue,
  settlePending,
  storedQueue,
  type UserChoice,
} from './dapp-queue-store';
import { createRefusals, REFUSALS, type RefusalStore } from './dapp-refusals';
import { CodedError } from './errors';

export type { AskedRequest, PreparedApproval, UserChoice };

/** Who asks: the frame's origin (the one connected and shown), its frame, and its embedder. */
export interface Asker {
  origin: string;
  /** tab:frame of the page that asked (null: a caller without a frame, as in tests). */
  frame: string | null;
  /** The top page's origin when a frame of another origin asks (null: a page that cannot be named). */
  embeddedIn?: string | null | undefined;
}
export { REFUSALS };

export interface ApprovalDeps {
  openWindow: () => Promise<number | undefined>;
  focusWindow: (id: number) => Promise<void>;
  /** Closes a window the queue no longer uses (if it did not close itself first). */
  closeWindow: (id: number) => Promise<void>;
  walletStatus: () => Promise<WalletState['status']>;
  unlock: (password: string) => Promise<unknown>;
  now: () => number;
  /** Where waiting requests outlive the worker (storage.session), and how one is made runnable again. */
  store?: QueueStore;
  revive?: Revive;
  /** Where the window-bombing cool-down outlives the worker (storage.session); none: memory only. */
  refusalStore?: RefusalStore;
}

/** Warnings the user must tick before this request can be approved. */
function codesToTick(view: ApprovalView): string[] {
  const warnings = 'warnings' in view.detail ? view.detail.warnings : [];
  return [...view.warnings, ...warnings].filter((warning) => warning.tick).map((warning) => warning.code);
}

const REFUSED_MESSAGE = `The user rejected this site's last ${REFUSALS.count} requests: wait ${REFUSALS.windowMs / 1000} s before asking again.`;

const FULL_MESSAGES = {
  'origin-full': 'This site already has requests waiting for the user.',
  'site-full': "This site's pages (its subdomains together) already have requests waiting for the user.",
  'queue-full': 'Too many requests are waiting for the user.',
} as const;

/** The one approval window: opened (or focused) when something waits, closed when nothing does. */
function approvalWindow(deps: Pick<ApprovalDeps, 'openWindow' | 'focusWindow' | 'closeWindow'>) {
  let windowId: number | null = null;
  let opening: Promise<void> | null = null;
  return {
    id: () => windowId,
    /** The window a worker before this one opened (from storage). */
    adopt(id: number | null): void {
      windowId ??= id;
    },
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

const PAGE_GONE =
  'The page that asked is no longer waiting for the answer (Swaplane was restarted while it waited), so nothing was signed. Ask the site again.';

/** The queue's state and its bookkeeping: storage writes, answers, the window, the revival. */
function queueCore(deps: ApprovalDeps) {
  const core = {
    queue: [] as Pending[],
    nextId: 0,
    /** Answers no page was listening for yet (its bridge resumes after a restart), by answerKey. */
    answered: new Map<string, DappResponse>(),
    windows: approvalWindow(deps),
    /** When the user last refused each origin's requests (./dapp-refusals.ts). */
    refusals: createRefusals(deps.now, deps.refusalStore),
    /** Writes the queue as it is now; writes land in order. */
    persist(): void {
      const { store } = deps;
      if (!store) return;
      const snapshot = storedQueue(core.windows.id(), core.queue);
      saving = saving.then(() => store.save(snapshot)).catch(() => undefined);
    },
    settle(pending: Pending, response: DappResponse): void {
      settlePending(pending, response, core.answered);
    },
    /** Takes a request off the queue and answers its page. */
    finish(pending: Pending, response: DappResponse): void {
      core.queue = removeFromQueue(core.queue, pending.id);
      core.settle(pending, response);
    },
    ensureWindow(): Promise<void> {
      return core.windows
        .ensure()
        .then(core.persist)
        .catch(() => undefined);
    },
    closeIfDone(): void {
      core.windows.closeIfEmpty(core.queue.length);
      core.persist();
    },
    /** The queue a worker before this one left, revived once, before anything else reads it. */
    restored(): Promise<void> {
      restoring ??= (async () => {
        if (!deps.store || !deps.revive) return;
        const stored = await deps.store.load();
        core.windows.adopt(stored.windowId);
        core.queue = [...(await restoreQueue(stored, deps.revive, core.answered)), ...core.queue];
        core.closeIfDone();
      })().catch(() => undefined);
      return restoring;
    },
  };
  let saving: Promise<void> = Promise.resolve();
  let restoring: Promise<void> | null = null;
  return core;
}
type QueueCore = ReturnType<typeof queueCore>;

/**
 * Waits for the user's answer about one request: its result, or an EIP-1193 error. The request
 * takes its place in the queue BEFORE it is prepared: a page over its limit gets -32005 without
 * making the wallet simulate anything.
 */
async function askApproval(
  core: QueueCore,
  deps: ApprovalDeps,
  request: Asker & { kind: ApprovalKind; asked: AskedRequest },
  prepare: () => Promise<PreparedApproval>,
): Promise<DappResponse> {
  await core.restored();
  const { origin, kind, frame, asked, embeddedIn } = request;
  const spamming = await core.refusals.spamming(origin);
  return new Promise<DappResponse>((resolve) => {
    const id = `${deps.now().toString(36)}-${(core.nextId++).toString(36)}`;
    const entry: Pending = {
      id,
      origin,
      kind,
      frame,
      asked,
      view: null,
      run: async () => null,
      listeners: [resolve],
      revived: false,
    };
    if (spamming) {
      resolve({ error: { code: RPC_ERROR.userRejected, message: REFUSED_MESSAGE } });
      return;
    }
    const added = enqueue(core.queue, entry);
    if (!added.ok) {
      resolve({ error: { code: RPC_ERROR.limitExceeded, message: FULL_MESSAGES[added.reason] } });
      return;
    }
    core.queue = added.queue;
    prepare().then(
      ({ detail, run, check, chainId, transaction }) => {
        const pending = core.queue.find((waiting) => waiting.id === id);
        if (!pending) return; // rejected while it was being prepared
        const account = 'account' in detail ? detail.account : null;
        const warnings = originWarnings(origin);
        pending.view = { id, origin, chainId, account, warnings, detail };
        if (embeddedIn !== undefined) pending.view.embeddedIn = embeddedIn;
        pending.run = run;
        pending.check = check;
        if (transaction) pending.transaction = transaction;
        core.persist();
        void core.ensureWindow();
      },
      (error: unknown) => {
        core.queue = removeFromQueue(core.queue, id);
        core.settle(entry, { error: toRpcError(error) });
      },
    );
  });
}

/**
 * The user's answer. A wrong password or an unticked warning keeps the request waiting; a request
 * revived after a restart whose page never asked for it again is refused (its page is gone).
 */
async function decideApproval(
  core: QueueCore,
  deps: ApprovalDeps,
  answer: {
    id: string;
    approve: boolean;
    password: string | undefined;
    acknowledged: readonly string[];
    choice: UserChoice;
  },
): Promise<void> {
  await core.restored();
  const { id, approve, password, acknowledged, choice } = answer;
  const pending = core.queue.find((entry) => entry.id === id);
  if (!pending?.view) throw new CodedError('NOT_WAITING', 'This request is no longer waiting.');
  const unticked = approve ? codesToTick(pending.view).filter((code) => !acknowledged.includes(code)) : [];
  if (unticked.length > 0) {
    throw new CodedError('NOT_ACKNOWLEDGED', 'Tick every warning that asks you to before approving.');
  }
  if (!approve) {
    const counted = core.refusals.refused(pending.origin);
    core.finish(pending, { error: toRpcError(rejected()) });
    core.closeIfDone();
    await counted;
    return;
  }
  // A wrong password keeps the request waiting: the window says so and asks again.
  if ((await deps.walletStatus()) !== 'unlocked') {
    if (!password) throw new CodedError('LOCKED', 'Unlock Swaplane first: enter your password.');
    await deps.unlock(password);
  }
  await pending.check?.(choice);
  if (pending.revived && pending.listeners.length === 0) {
    // The window stays to say why (as for a failed request); the next request reuses it.
    core.finish(pending, { error: { code: RPC_ERROR.disconnected, message: PAGE_GONE } });
    core.persist();
    throw new CodedError('PAGE_GONE', PAGE_GONE);
  }
  core.queue = removeFromQueue(core.queue, id);
  core.persist();
  try {
    core.settle(pending, { result: await pending.run(choice) });
  } catch (error) {
    core.settle(pending, { error: toRpcError(error) });
    // The window shows why it failed (the page got the same coded error).
    throw new CodedError(
      'REQUEST_FAILED',
      error instanceof DappRpcError ? error.message : 'Swaplane could not complete the request.',
    );
  }
  core.closeIfDone();
}

const LOST_IN_RESTART = 'Swaplane restarted before this request reached its approval window. Send it again.';

export function createApprovalQueue(deps: ApprovalDeps) {
  const core = queueCore(deps);

  /** The queue as the window shows it: `selected` when it still waits, else the oldest. */
  async function approvals(selected?: string): Promise<ApprovalsState> {
    await core.restored();
    const ready = core.queue.filter((entry) => entry.view !== null);
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

    ask: (
      from: Asker,
      kind: ApprovalKind,
      prepare: () => Promise<PreparedApproval>,
      asked: AskedRequest = { method: kind, key: null },
    ): Promise<DappResponse> => askApproval(core, deps, { ...from, kind, asked }, prepare),

    /**
     * The bridge of `frame` asks again for request `key`: its first message died with the worker.
     * It gets the answer when the user gives it (or the one given while it was away).
     */
    async resume(origin: string, frame: string, key: string): Promise<DappResponse> {
      await core.restored();
      const given = core.answered.get(answerKey(frame, key));
      if (given) {
        core.answered.delete(answerKey(frame, key));
        return given;
      }
      const pending = core.queue.find(
        (entry) => entry.frame === frame && entry.asked.key === key && entry.origin === origin,
      );
      if (!pending) return { error: { code: RPC_ERROR.disconnected, message: LOST_IN_RESTART } };
      return new Promise((resolve) => pending.listeners.push(resolve));
    },

    /** Rejects (4001) the requests of one tab's frames: its page reloaded or went away. */
    async rejectTab(tabId: number): Promise<void> {
      await core.restored();
      const fromTab = (entry: Pending) => entry.frame?.startsWith(`${tabId}:`) === true;
      for (const pending of core.queue.filter(fromTab))
        core.finish(pending, { error: toRpcError(rejected()) });
      core.closeIfDone();
    },

    async decide(
      id: string,
      approve: boolean,
      password?: string,
      acknowledged: readonly string[] = [],
      choice: UserChoice = {},
    ): Promise<ApprovalsState> {
      await decideApproval(core, deps, { id, approve, password, acknowledged, choice });
      return approvals();
    },

    /** The window went away (closed by the user): everything it was asking about is rejected. */
    async windowClosed(id: number): Promise<void> {
      await core.restored();
      if (!core.windows.closed(id)) return;
      const shown = core.queue.filter((entry) => entry.view !== null);
      const counted = shown.map((pending) => core.refusals.refused(pending.origin));
      for (const pending of shown) core.finish(pending, { error: toRpcError(rejected()) });
      core.persist();
      await Promise.all(counted);
    },
  };
}
