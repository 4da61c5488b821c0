// A small, controllable HTTP stand-in for the Swap Routing Service, for unit tests of the
// background's caches and sessions (real HTTP, real client; the reference service and devnet
// are exercised by the integration and end-to-end tests).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Quote, QuoteRequest, Token } from '@/lib/api/schema';

export interface TestServiceBehaviour {
  /** Status to answer with instead of a quote (and how many times; Infinity for always). */
  quoteFailure?: { status: number; times: number; body?: unknown; headers?: Record<string, string> };
  /** Delay before answering a quote, in ms. */
  quoteDelayMs?: number;
  /** Changes a correct quote into a wrong one (to test verification). */
  tamper?: (quote: Quote) => Quote;
  listFailure?: { status: number; times: number };
  tokens: Record<string, Token[]>;
  searchable?: Record<string, Token>;
}

export interface TestService {
  url: string;
  behaviour: TestServiceBehaviour;
  hits: { path: string; body: unknown }[];
  close(): Promise<void>;
}

/** Rate: 1 in-unit gives 2 out-units; minReceived follows the slippage rule exactly. */
export function quoteFor(request: QuoteRequest, blockNumber = 100): Quote {
  const outAmount = BigInt(request.inAmount) * 2n;
  const scaled = BigInt(Math.round(request.slippage * 1e6));
  const minReceived = (outAmount * (100_000_000n - scaled)) / 100_000_000n;
  return {
    chainId: request.chainId,
    inToken: request.inToken,
    inDecimals: 18,
    inAmount: request.inAmount,
    outToken: request.outToken,
    outDecimals: 6,
    outAmount: outAmount.toString(),
    slippage: request.slippage,
    minReceived: minReceived.toString(),
    bestRoute: [{ percent: 100, swaps: [{ dex: 'test', pool: request.inToken }] }],
    contractAddress: '0x1000000000000000000000000000000000000001',
    contractMethod: 'swap',
    blockNumber,
  };
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function errorBody(code: string, message: string) {
  return { success: false, error: { code, message }, timestamp: new Date().toISOString() };
}

export async function startTestService(behaviour: TestServiceBehaviour): Promise<TestService> {
  const hits: TestService['hits'] = [];
  let block = 100;
  const server = createServer(async (request, response) => {
    const path = request.url ?? '/';
    const body = request.method === 'POST' ? await readBody(request) : undefined;
    hits.push({ path, body });
    const list = path.match(/^\/v1\/tokens\/([^/]+)\/full$/);
    if (list) {
      const failure = behaviour.listFailure;
      if (failure && failure.times > 0) {
        failure.times--;
        return send(response, failure.status, errorBody('SERVICE_UNAVAILABLE', 'list unavailable'));
      }
      const tokens = behaviour.tokens[decodeURIComponent(list[1] as string)];
      return tokens
        ? send(response, 200, tokens)
        : send(response, 400, errorBody('UNSUPPORTED_CHAIN', 'no chain'));
    }
    const search = path.match(/^\/v1\/tokens\/([^/]+)\/search\/([^/]+)$/);
    if (search) {
      const found = behaviour.searchable?.[decodeURIComponent(search[2] as string).toLowerCase()];
      return found
        ? send(response, 200, [{ ...found, extensions: { opListId: 'test', opTokenId: found.address } }])
        : send(response, 404, errorBody('TOKEN_NOT_FOUND', 'not whitelisted'));
    }
    if (path === '/v1/quote') {
      const failure = behaviour.quoteFailure;
      if (failure && failure.times > 0) {
        failure.times--;
        return send(
          response,
          failure.status,
          failure.body ?? errorBody('TEST_FAILURE', `failure ${failure.status}`),
          failure.headers,
        );
      }
      if (behaviour.quoteDelayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.quoteDelayMs));
      block++;
      const quote = quoteFor(body as QuoteRequest, block);
      // Decimals as the service's own list has them (a real service does not contradict itself).
      const listed = Object.values(behaviour.tokens).flat();
      const decimalsOf = (address: string) =>
        listed.find((token) => token.address.toLowerCase() === address.toLowerCase())?.decimals;
      quote.inDecimals = decimalsOf(quote.inToken) ?? quote.inDecimals;
      quote.outDecimals = decimalsOf(quote.outToken) ?? quote.outDecimals;
      return send(response, 200, {
        success: true,
        data: behaviour.tamper ? behaviour.tamper(quote) : quote,
        timestamp: new Date().toISOString(),
      });
    }
    send(response, 404, errorBody('NOT_FOUND', 'no route'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    behaviour,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
