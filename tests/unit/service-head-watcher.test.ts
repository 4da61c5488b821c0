// The head watcher without a node: a scripted JSON-RPC client and a fake clock. What quotes rely
// on: a fresh head costs no call, a stale one is asked again, a failing node is a 503, a revert
// to a lower block is followed.
import { afterEach, describe, expect, it } from 'vitest';
import { RpcUnavailableError } from '../../service/errors';
import { createHeadWatcher, type HeadWatcher, parseBlock, webSocketUrlFor } from '../../service/head-watcher';
import type { JsonRpcClient } from '../../service/rpc-client';

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function scripted() {
  const state = { head: 5, calls: 0, down: false };
  const client: JsonRpcClient = {
    async call<T>(method: string) {
      state.calls++;
      expect(method).toBe('eth_getBlockByNumber');
      if (state.down) throw new Error('ECONNREFUSED');
      return { number: `0x${state.head.toString(16)}`, hash: hash(state.head) } as T;
    },
    close() {},
  };
  return { state, client };
}

let watcher: HeadWatcher | undefined;
afterEach(() => watcher?.close());

function watch(client: JsonRpcClient, clock: { now: number }, heads: bigint[] = []) {
  watcher = createHeadWatcher({
    chainName: 'ethereum',
    client,
    pollMs: 1_000_000, // the tests drive time; the timer never fires
    staleAfterMs: 300,
    now: () => clock.now,
    onHead: (head) => heads.push(head.number),
  });
  return watcher;
}

describe('head watcher', () => {
  it('asks once for the first head, then serves it without a call while fresh', async () => {
    const { state, client } = scripted();
    const clock = { now: 1_000 };
    const heads: bigint[] = [];
    const w = watch(client, clock, heads);
    expect((await w.current()).number).toBe(5n);
    expect(await w.current()).toEqual({ number: 5n, hash: hash(5) });
    expect(state.calls).toBe(1);
    expect(heads).toEqual([5n]);
  });

  it('asks again once the head is older than staleAfterMs, and follows a revert to a lower block', async () => {
    const { state, client } = scripted();
    const clock = { now: 1_000 };
    const heads: bigint[] = [];
    const w = watch(client, clock, heads);
    await w.current();
    state.head = 7;
    clock.now += 200;
    expect((await w.current()).number).toBe(5n); // fresh enough: no call
    clock.now += 200;
    expect((await w.current()).number).toBe(7n);
    state.head = 6; // anvil_revert
    clock.now += 400;
    expect((await w.current()).number).toBe(6n);
    expect(heads).toEqual([5n, 7n, 6n]);
  });

  it('a node that stops answering fails quotes with RpcUnavailableError, and recovers', async () => {
    const { state, client } = scripted();
    const clock = { now: 1_000 };
    const w = watch(client, clock);
    await w.current();
    state.down = true;
    clock.now += 400;
    await expect(w.current()).rejects.toBeInstanceOf(RpcUnavailableError);
    // Still down: a known old head is never served in the meantime.
    await expect(w.current()).rejects.toBeInstanceOf(RpcUnavailableError);
    state.down = false;
    state.head = 9;
    expect((await w.current()).number).toBe(9n);
  });

  it('knows the head without waiting exactly when current() would answer it at once', async () => {
    const { state, client } = scripted();
    const clock = { now: 1_000 };
    const w = watch(client, clock);
    expect(w.known()).toBeUndefined(); // never asked yet
    await w.current();
    expect(w.known()).toEqual({ number: 5n, hash: hash(5) });
    clock.now += 400; // stale: current() would ask the node first
    expect(w.known()).toBeUndefined();
    state.down = true;
    await expect(w.current()).rejects.toBeInstanceOf(RpcUnavailableError);
    clock.now -= 400; // even within the freshness window, the node's last word was a failure
    expect(w.known()).toBeUndefined();
    state.down = false;
    await w.current();
    expect(w.known()?.number).toBe(5n);
    w.close();
    expect(w.known()).toBeUndefined();
  });

  it('never served before the first answer: a dead node at start is a 503', async () => {
    const { state, client } = scripted();
    state.down = true;
    await expect(watch(client, { now: 0 }).current()).rejects.toBeInstanceOf(RpcUnavailableError);
  });
});

describe('head watcher helpers', () => {
  it('parses only well-formed blocks', () => {
    expect(parseBlock({ number: '0x10', hash: hash(16).toUpperCase().replace('0X', '0x') })).toEqual({
      number: 16n,
      hash: hash(16),
    });
    expect(parseBlock(null)).toBeNull();
    expect(parseBlock({ number: 16, hash: hash(16) })).toBeNull();
    expect(parseBlock({ number: '0x10', hash: '0x1234' })).toBeNull();
  });

  it('derives the WebSocket twin of an RPC URL', () => {
    expect(webSocketUrlFor('http://127.0.0.1:8545')).toBe('ws://127.0.0.1:8545/');
    expect(webSocketUrlFor('https://node.example/v1/key')).toBe('wss://node.example/v1/key');
    expect(webSocketUrlFor('ipc:///tmp/x')).toBeUndefined();
  });
});
