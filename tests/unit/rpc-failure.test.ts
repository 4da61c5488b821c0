// Each way a node can fail to answer, through a real HTTP server and the wallet's own RPC client:
// the failure names its cause and the host, never a generic connection hint.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import { createFeeHandlers } from '@/lib/background/handlers/fee';
import { readHoldings } from '@/lib/background/holdings';
import type { BackgroundServices } from '@/lib/background/services';
import { activeBalances, readerFor } from '@/lib/background/swaps-network';
import type { WalletService } from '@/lib/background/wallet';
import { clearPublicClients, isRpcUnavailable, publicClientFor } from '@/lib/rpc/network';
import { chainCheckFor, checkedClientFor, rpcFailureMessage, rpcFailureOf } from '@/lib/rpc/rpc-failure';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { asFailure } from '@/lib/swap/failure';
import { requestOf } from '../support/quotes';
import { USDC_DAI_QUOTE } from '../support/swaps';

const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
type Behaviour = 'hang' | 'status' | 'html' | 'redirect' | 'base' | 'ok';
let server: Server;
let host: string;
/** Every JSON-RPC call the server answered, as "behaviour method". */
const asked: string[] = [];
const behaviourOf = (path: string) => path.slice(1) as Behaviour;

beforeAll(async () => {
  server = createServer((request, response) => {
    const behaviour = behaviourOf(request.url ?? '/');
    if (behaviour === 'hang') return; // never answers
    if (behaviour === 'status') {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad Gateway</html>');
      return;
    }
    if (behaviour === 'html') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Welcome</title>');
      return;
    }
    if (behaviour === 'redirect') {
      response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' });
      response.end();
      return;
    }
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      asked.push(`${behaviour} ${method}`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', id, result: behaviour === 'base' ? '0x2105' : '0x1' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  clearPublicClients();
});

const clientAt = (url: string) =>
  publicClientFor(1, { rpcOverrides: { '1': url } }, { timeoutMs: 400, retryCount: 0 });

async function failureOf(url: string) {
  const error = await clientAt(url)
    .getChainId()
    .then(
      () => null,
      (caught: unknown) => caught,
    );
  expect(error, url).not.toBeNull();
  return { error, failure: rpcFailureOf(error) };
}

describe('RPC failures name their cause', () => {
  it('a node that never answers: timeout, at its host', async () => {
    const { failure } = await failureOf(`http://${host}/hang`);
    expect(failure).toEqual({ cause: 'timeout', host });
    expect(rpcFailureMessage(failure as never).title).toBe(`The RPC at ${host} did not answer in time`);
  });

  it('nothing listening: could not be reached (refused), not "check your internet"', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { failure } = await failureOf(`http://127.0.0.1:${port}/`);
    expect(failure).toEqual({ cause: 'unreachable', host: `127.0.0.1:${port}` });
    const words = rpcFailureMessage(failure as never);
    expect(words.title).toBe(`The RPC at 127.0.0.1:${port} could not be reached`);
    expect(JSON.stringify(words)).not.toMatch(/internet/i);
  });

  it('an HTTP error page: its status', async () => {
    const { error, failure } = await failureOf(`http://${host}/status`);
    expect(failure).toEqual({ cause: 'http-status', host, status: 502 });
    expect(rpcFailureMessage(failure as never).title).toContain('HTTP error 502');
    expect(isRpcUnavailable(error)).toBe(true);
  });

  it('a 200 that is not JSON: not JSON-RPC', async () => {
    const { failure } = await failureOf(`http://${host}/html`);
    expect(failure).toEqual({ cause: 'not-json', host });
  });

  it('a redirect: refused and said so, never followed', async () => {
    const { error, failure } = await failureOf(`http://${host}/redirect`);
    expect(failure).toEqual({ cause: 'redirect', host });
    expect(rpcFailureMessage(failure as never).title).toBe(
      `The RPC at ${host} answered from another address; Swaplane refused it`,
    );
    expect(isRpcUnavailable(error)).toBe(true);
  });

  it('an RPC of another chain: named with both chains, before any balance is read', async () => {
    const check = chainCheckFor(clientAt(`http://${host}/base`), 1);
    const error = await check().then(
      () => null,
      (caught: unknown) => caught,
    );
    const failure = rpcFailureOf(error);
    expect(failure).toMatchObject({ cause: 'wrong-chain', host, expectedChainId: 1, rpcChainId: 8453 });
    expect(rpcFailureMessage(failure as never).title).toBe(
      `The RPC at ${host} is for Base (chain 8453), not Ethereum (chain 1)`,
    );
    await expect(chainCheckFor(clientAt(`http://${host}/ok`), 1)()).resolves.toBeUndefined();
  });

  it("the swap screen's and the home's balances from an RPC of another chain: none read, the cause named", async () => {
    const settings = { ...DEFAULT_SETTINGS, rpcOverrides: { '1': `http://${host}/base` } };
    const wallet = {
      state: async () => ({ activeId: 'a', accounts: [{ id: 'a', address: OWNER }] }),
    } as unknown as WalletService;
    const reader = () => readerFor(new Map(), settings, 1);
    asked.length = 0;
    const failures = await Promise.all([
      activeBalances(wallet, reader, [NATIVE_TOKEN_ADDRESS]).then(
        () => null,
        (caught: unknown) => caught,
      ),
      readHoldings(wallet, reader(), 1, []).then(
        () => null,
        (caught: unknown) => caught,
      ),
    ]);
    for (const error of failures) {
      expect(rpcFailureMessage(rpcFailureOf(error) as never).title).toBe(
        `The RPC at ${host} is for Base (chain 8453), not Ethereum (chain 1)`,
      );
    }
    // The chain was asked; no balance (no block, no call) was read from it.
    expect(new Set(asked)).toEqual(new Set(['base eth_chainId']));
  });

  it("the swap screen's network fee from an RPC of another chain: no figure, no fee read from it", async () => {
    const quote = USDC_DAI_QUOTE;
    const services = {
      settings: () => ({ ...DEFAULT_SETTINGS, rpcOverrides: { '1': `http://${host}/base` } }),
      session: { getState: () => ({ quote, input: requestOf(quote) }) },
      wallet: { state: async () => ({ activeId: null, accounts: [] }) },
      indexFor: async () => ({ view: { tokens: [] } }),
      api: () => ({ quote: async () => Promise.reject(new Error('no service here')) }),
      signing: { ceilingFor: () => undefined },
    } as unknown as BackgroundServices;
    asked.length = 0;
    const fee = await createFeeHandlers(services).quoteFee({ type: 'quoteFee', chainId: 1 });
    expect(fee).toBeNull();
    expect(new Set(asked)).toEqual(new Set(['base eth_chainId']));
  });

  it('a checked client asks the node its chain once, then serves; another chain is refused', async () => {
    asked.length = 0;
    const settings = { rpcOverrides: { '1': `http://${host}/ok` } };
    expect(await checkedClientFor(1, settings)).toBe(publicClientFor(1, settings));
    await checkedClientFor(1, settings);
    expect(asked.filter((call) => call.startsWith('ok '))).toEqual(['ok eth_chainId']);
    await expect(checkedClientFor(1, { rpcOverrides: { '1': `http://${host}/base` } })).rejects.toThrow(
      'answers for chain 8453, not 1',
    );
  });

  it('a swap stopped by the node carries the cause in its message', async () => {
    const { error } = await failureOf(`http://${host}/status`);
    const failure = asFailure(error, 'quote');
    expect(failure.code).toBe('RPC_UNAVAILABLE');
    expect(failure.user?.title).toContain('HTTP error 502');
  });

  it('a node answering with a JSON-RPC error is not a failure to answer', () => {
    expect(rpcFailureOf(new Error('execution reverted'))).toBeNull();
  });
});
