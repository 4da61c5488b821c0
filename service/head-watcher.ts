// Follows a chain's head without a round trip per quote: newHeads over a WebSocket when the node
// offers one (anvil, most hosted nodes), plus a short eth_getBlockByNumber poll that catches what
// pushes miss (reverts, reorgs to a lower block, a dropped socket) and proves the node is alive.
// Quotes read `current()`: the newest head seen, or the node's failure once it has not answered
// for `staleAfterMs`, so a dead node still fails quotes (503) instead of serving old state forever.

import type { Hex } from 'viem';
import WebSocket from 'ws';
import { RpcUnavailableError } from './errors';
import type { JsonRpcClient } from './rpc-client';

export interface BlockRef {
  readonly number: bigint;
  readonly hash: Hex;
}

export interface HeadWatcherOptions {
  chainName: string;
  client: JsonRpcClient;
  /** ws:// or wss:// URL for newHeads; undefined polls only. */
  wsUrl?: string;
  pollMs: number;
  /** No answer from the node for this long: quotes fail with 503 until it answers again. */
  staleAfterMs: number;
  /** Called once per new head (number or hash changed), before quotes see it. */
  onHead?: (head: BlockRef) => void;
  now?: () => number;
}

export interface HeadWatcher {
  /** The newest head seen; waits for the first one; throws RpcUnavailableError when stale. */
  current(): Promise<BlockRef>;
  /**
   * The head, without waiting, when current() would answer it at once (watching, fresh, the node's
   * last word not a failure); undefined whenever current() would first ask the node or fail.
   */
  known(): BlockRef | undefined;
  close(): void;
}

interface RawBlock {
  number?: unknown;
  hash?: unknown;
}

/** The WebSocket twin of an http(s) RPC URL (same host, port and path), as anvil and geth serve it. */
export function webSocketUrlFor(rpcUrl: string): string | undefined {
  const url = new URL(rpcUrl);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  else if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return undefined;
  return url.href;
}

export function parseBlock(raw: unknown): BlockRef | null {
  const block = raw as RawBlock | null;
  if (!block || typeof block.number !== 'string' || typeof block.hash !== 'string') return null;
  if (!/^0x[0-9a-fA-F]+$/.test(block.number) || !/^0x[0-9a-fA-F]{64}$/.test(block.hash)) return null;
  return { number: BigInt(block.number), hash: block.hash.toLowerCase() as Hex };
}

export function createHeadWatcher(options: HeadWatcherOptions): HeadWatcher {
  const now = options.now ?? Date.now;
  let head: BlockRef | undefined;
  let lastAnswerAt = 0;
  let lastError: unknown;
  let pushes = 0; // bumps on every pushed head, so a poll sent before a push cannot undo it
  let closed = false;
  let started = false;
  /** True while a newHeads subscription is live: then the head is pushed and stays fresh. */
  let subscribed = false;
  let inflight: Promise<void> | undefined;
  let socket: WebSocket | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const accept = (next: BlockRef) => {
    lastAnswerAt = now();
    lastError = undefined;
    if (head && head.number === next.number && head.hash === next.hash) return;
    head = next;
    options.onHead?.(next);
  };

  const schedule = () => {
    clearTimeout(pollTimer);
    if (!closed) pollTimer = setTimeout(() => void poll(), options.pollMs);
  };

  function poll(): Promise<void> {
    if (inflight) return inflight;
    const seen = pushes;
    inflight = (async () => {
      try {
        const block = parseBlock(await options.client.call('eth_getBlockByNumber', ['latest', false]));
        if (!block) throw new Error('the node answered a malformed latest block');
        // A lower block is a revert or reorg, unless a push landed while this poll was on the wire.
        if (!head || block.number >= head.number || pushes === seen) accept(block);
        else lastAnswerAt = now();
      } catch (error) {
        lastError = error;
      } finally {
        inflight = undefined;
        schedule();
      }
    })();
    return inflight;
  }

  function subscribe(url: string): void {
    const ws = new WebSocket(url);
    socket = ws;
    ws.on('open', () => {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
    });
    ws.on('message', (data) => {
      let message: { id?: unknown; result?: unknown; method?: unknown; params?: { result?: unknown } };
      try {
        message = JSON.parse(data.toString()) as typeof message;
      } catch {
        return; // not ours to judge: the poll still keeps the head right
      }
      if (message.id === 1) {
        subscribed = typeof message.result === 'string';
        return;
      }
      if (message.method !== 'eth_subscription') return;
      const block = parseBlock(message.params?.result);
      if (!block) return;
      pushes++;
      accept(block);
    });
    ws.on('error', () => {}); // 'close' follows; the poll covers the gap
    ws.on('close', () => {
      if (socket === ws) socket = undefined;
      // A dropped socket often means the node went away: the next quote asks the node first.
      subscribed = false;
      lastAnswerAt = 0;
      if (!closed) reconnectTimer = setTimeout(() => subscribe(url), Math.max(1_000, options.pollMs));
    });
  }

  const fresh = () => subscribed || now() - lastAnswerAt <= options.staleAfterMs;

  return {
    async current() {
      if (closed) throw new RpcUnavailableError(options.chainName, new Error('the head watcher is closed'));
      if (!started) {
        // Lazy: an app that never quotes never opens a socket or a timer.
        started = true;
        if (options.wsUrl) subscribe(options.wsUrl);
      }
      if (!head || !fresh() || lastError) await poll();
      // The node's last word was a failure: say so, whatever head was seen before it.
      if (lastError) throw new RpcUnavailableError(options.chainName, lastError);
      if (!head) throw new RpcUnavailableError(options.chainName, new Error('no latest block'));
      return head;
    },
    known() {
      return !closed && started && head && !lastError && fresh() ? head : undefined;
    },
    close() {
      closed = true;
      clearTimeout(pollTimer);
      clearTimeout(reconnectTimer);
      socket?.close();
    },
  };
}
