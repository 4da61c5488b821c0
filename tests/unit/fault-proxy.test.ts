// The fault proxy really does what each fault says, in front of a tiny node:http upstream that
// answers JSON (a service-like GET and a JSON-RPC POST) and counts what reaches it.
import { createServer, get as httpGet, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FaultProxy, onPath, onRpc, startFaultProxy } from '../support/fault-proxy';

const SERVICE_BODY = JSON.stringify({ success: true, data: { hello: 'world', padding: 'x'.repeat(200) } });

let upstream: Server;
let upstreamUrl: string;
const reached: { method: string; path: string; body: string }[] = [];
let proxy: FaultProxy;

beforeAll(async () => {
  upstream = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    reached.push({ method: request.method ?? '', path: request.url ?? '', body });
    if (request.method === 'POST') {
      const parsed = JSON.parse(body) as { id: number } | { id: number }[];
      const answer = (call: { id: number }) => ({ jsonrpc: '2.0', id: call.id, result: '0x10' });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' });
    response.end(SERVICE_BODY);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

afterEach(async () => {
  await proxy?.close();
  reached.length = 0;
});

const rpc = (url: string, body: unknown, signal?: AbortSignal) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });

/** Raw GET that records each chunk as it arrives and how the response ended. */
function rawGet(url: string): Promise<{ status: number; chunks: Buffer[]; completed: boolean }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, chunks, completed: response.complete }),
      );
      response.on('error', () => resolve({ status: response.statusCode ?? 0, chunks, completed: false }));
      response.on('aborted', () => resolve({ status: response.statusCode ?? 0, chunks, completed: false }));
    });
    request.on('error', reject);
  });
}

const settle = <T>(promise: Promise<T>, ms: number): Promise<'pending' | { value: T } | { error: unknown }> =>
  Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms)),
  ]);

describe('fault proxy', () => {
  it('forwards unchanged without rules and records every request with its RPC methods', async () => {
    proxy = await startFaultProxy(upstreamUrl);
    const response = await fetch(`${proxy.url}/v1/tokens/ethereum/full?x=1`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-upstream')).toBe('yes');
    expect(await response.text()).toBe(SERVICE_BODY);
    const single = await rpc(proxy.url, { jsonrpc: '2.0', id: 7, method: 'eth_blockNumber' });
    expect(await single.json()).toEqual({ jsonrpc: '2.0', id: 7, result: '0x10' });
    await rpc(proxy.url, [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 2, method: 'eth_call', params: [] },
    ]);
    expect(proxy.hits.map((h) => [h.method, h.path, h.rpcMethods])).toEqual([
      ['GET', '/v1/tokens/ethereum/full?x=1', []],
      ['POST', '/', ['eth_blockNumber']],
      ['POST', '/', ['eth_chainId', 'eth_call']],
    ]);
    expect(reached.map((r) => r.path)).toEqual(['/v1/tokens/ethereum/full?x=1', '/', '/']);
  });

  it('delay: holds the request back before forwarding it', async () => {
    proxy = await startFaultProxy(upstreamUrl);
    proxy.add({ fault: { kind: 'delay', ms: 60_000 }, times: 1 });
    // Far longer than the client waits: it gives up and the upstream never saw the request.
    await expect(fetch(`${proxy.url}/slow`, { signal: AbortSignal.timeout(150) })).rejects.toThrow();
    expect(reached).toHaveLength(0);
    proxy.add({ fault: { kind: 'delay', ms: 30 }, times: 1 });
    const response = await fetch(`${proxy.url}/short`);
    expect(await response.text()).toBe(SERVICE_BODY);
    expect(reached.map((r) => r.path)).toEqual(['/short']);
  });

  it('hang: never answers until the proxy closes', async () => {
    proxy = await startFaultProxy(upstreamUrl);
    proxy.add({ fault: { kind: 'hang' } });
    const pending = fetch(`${proxy.url}/v1/tokens/ethereum/full`);
    expect(await settle(pending, 300)).toBe('pending');
    expect(proxy.hits).toHaveLength(1);
    expect(reached).toHaveLength(0);
    await proxy.close();
    const outcome = await settle(pending, 5_000);
    expect(outcome).toHaveProperty('error');
  });

  it('status: answers the given status, body and content type instead of forwarding', async () => {
    proxy = await startFaultProxy(upstreamUrl);
    proxy.add({
      match: onPath('/v1/quote'),
      fault: { kind: 'status', status: 503, body: '{"oops":true}', contentType: 'application/json' },
      times: 1,
    });
    const response = await fetch(`${proxy.url}/v1/quote`);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"oops":true}');
    // times: 1 -> the next one goes through; other paths never matched
    expect((await fetch(`${proxy.url}/v1/quote`)).status).toBe(200);
    const bare = await fetch(`${proxy.url}/other`);
    expect(bare.status).toBe(200);
    expect(reached.map((r) => r.path)).toEqual(['/v1/quote', '/other']);
  });

  it('reset: destroys the connection without a response', async () => {
    proxy = await startFaultProxy(upstreamUrl);
    proxy.add({ fault: { kind: 'reset' } });
    const error = await fetch(`${proxy.url}/x`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(reached).toHaveLength(0);
  });

  it('truncate: sends the headers and half of the body, then cuts the connection', async () => {
    proxy = await startFaultProxy(upstreamUrl);
    proxy.add({ fault: { kind: 'truncate' } });
    const raw = await rawGet(`${proxy.url}/full`);
    expect(raw.status).toBe(200);
    expect(raw.completed).toBe(false);
    const received = Buffer.concat(raw.chunks).toString('utf8');
    expect(received).toBe(SERVICE_BODY.slice(0, Math.floor(SERVICE_BODY.length / 2)));
    // fetch sees the status, then the body read fails
    const response = await fetch(`${proxy.url}/full`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    expect(reached).toHaveLength(2);
  });

  it('nonJson: answers 200 with an HTML page', async () => {
    proxy = await startFaultProxy(upstreamUrl);
    proxy.add({ fault: { kind: 'nonJson' } });
    const response = await fetch(`${proxy.url}/v1/search`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await response.text();
    expect(text).toMatch(/^<!DOCTYPE html>/);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('schemaViolation: valid JSON of the wrong shape, keeping JSON-RPC ids', async () => {
    proxy = await startFaultProxy(upstreamUrl);
    proxy.add({ fault: { kind: 'schemaViolation' } });
    expect(await (await fetch(`${proxy.url}/v1/tokens/base/full`)).json()).toEqual({
      success: true,
      data: { nope: 1 },
    });
    expect(
      await (await rpc(proxy.url, { jsonrpc: '2.0', id: 42, method: 'eth_blockNumber' })).json(),
    ).toEqual({
      jsonrpc: '2.0',
      id: 42,
      result: { nope: 1 },
    });
    const batch = await rpc(proxy.url, [
      { jsonrpc: '2.0', id: 3, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 4, method: 'eth_call' },
    ]);
    expect(await batch.json()).toEqual([
      { jsonrpc: '2.0', id: 3, result: { nope: 1 } },
      { jsonrpc: '2.0', id: 4, result: { nope: 1 } },
    ]);
    expect(reached).toHaveLength(0);
  });

  it('drip: forwards the whole body in small chunks over time', async () => {
    proxy = await startFaultProxy(upstreamUrl);
    proxy.add({ fault: { kind: 'drip', bytesPerChunk: 32, intervalMs: 30 } });
    const raw = await rawGet(`${proxy.url}/full`);
    expect(raw.completed).toBe(true);
    expect(Buffer.concat(raw.chunks).toString('utf8')).toBe(SERVICE_BODY);
    // 8 writes 30 ms apart: the body did not arrive in one piece (a busy reader may merge a few).
    expect(raw.chunks.length).toBeGreaterThan(1);
    expect(raw.chunks[0]?.length).toBeLessThanOrEqual(32);
    expect(reached).toHaveLength(1);
  });

  it('rules apply in order, first match with times left; onRpc matches batches; clear() removes them', async () => {
    proxy = await startFaultProxy(upstreamUrl);
    proxy.add({ match: onRpc('eth_sendRawTransaction'), fault: { kind: 'status', status: 500 }, times: 1 });
    proxy.add({ match: onRpc('eth_sendRawTransaction'), fault: { kind: 'status', status: 502 } });
    proxy.add({ fault: { kind: 'status', status: 418 }, times: 1 });
    const send = { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['0x'] };
    expect((await rpc(proxy.url, send)).status).toBe(500);
    expect((await rpc(proxy.url, [{ jsonrpc: '2.0', id: 0, method: 'eth_chainId' }, send])).status).toBe(502);
    expect((await rpc(proxy.url, { jsonrpc: '2.0', id: 2, method: 'eth_chainId' })).status).toBe(418);
    expect((await rpc(proxy.url, { jsonrpc: '2.0', id: 3, method: 'eth_chainId' })).status).toBe(200);
    proxy.clear();
    expect((await rpc(proxy.url, send)).status).toBe(200);
    expect(proxy.hits.filter(onRpc('eth_sendRawTransaction'))).toHaveLength(3);
  });

  it('an unreachable upstream looks like a dead connection', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    proxy = await startFaultProxy(deadUrl);
    await expect(fetch(`${proxy.url}/x`)).rejects.toThrow(TypeError);
  });
});
