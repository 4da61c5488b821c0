// A test-only HTTP reverse proxy that injects faults, put in front of the reference service or
// a JSON-RPC endpoint (anvil). node:http only. Rules are checked in order; the first one that
// matches and has `times` left applies its fault, otherwise the request is forwarded unchanged.
// Every request is recorded in `hits` (with the JSON-RPC method names of its body, if any).
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export type Fault =
  | { kind: 'delay'; ms: number }
  | { kind: 'hang' }
  | { kind: 'status'; status: number; body?: string; contentType?: string; headers?: Record<string, string> }
  | { kind: 'reset' }
  | { kind: 'truncate' }
  | { kind: 'nonJson' }
  /** A 302 to `location` (a node moved, or a hostile front sending the wallet elsewhere). */
  | { kind: 'redirect'; location: string }
  | { kind: 'schemaViolation' }
  | { kind: 'drip'; bytesPerChunk: number; intervalMs: number }
  /** A lying upstream: the real answer, rewritten (the body as text in, text out). */
  | { kind: 'rewrite'; transform: (body: string, request: ProxyRequestInfo) => string };

export interface ProxyRequestInfo {
  method: string;
  path: string;
  body: string;
  /** JSON-RPC method names of the body (single or batch); [] for anything else. */
  rpcMethods: string[];
}

export interface FaultRule {
  match?: (request: ProxyRequestInfo) => boolean;
  fault: Fault;
  /** How many requests this rule applies to; default Infinity. */
  times?: number;
}

export interface FaultProxy {
  url: string;
  add(rule: FaultRule): void;
  clear(): void;
  hits: ProxyRequestInfo[];
  close(): Promise<void>;
}

export const onPath =
  (prefix: string) =>
  (request: ProxyRequestInfo): boolean =>
    request.path.startsWith(prefix);

export const onRpc =
  (method: string) =>
  (request: ProxyRequestInfo): boolean =>
    request.rpcMethods.includes(method);

/** A rewrite that keeps the node's answer but for its result (a lying node's answer to one method). */
export const answerWith =
  (result: unknown) =>
  (body: string): string =>
    JSON.stringify({ ...JSON.parse(body), result });

const hex = (value: bigint) => `0x${value.toString(16)}`;

/**
 * A node lying about fees and gas (issue 25's hostile RPC): `priorityWei` as the priority fee, a fee
 * history whose every reward backs it, and `gas` for every estimate. Add them to an RPC's proxy.
 */
export function lyingFeeRules(priorityWei: bigint, gas: bigint): FaultRule[] {
  return [
    {
      match: onRpc('eth_maxPriorityFeePerGas'),
      fault: { kind: 'rewrite', transform: answerWith(hex(priorityWei)) },
    },
    { match: onRpc('eth_estimateGas'), fault: { kind: 'rewrite', transform: answerWith(hex(gas)) } },
    {
      match: onRpc('eth_feeHistory'),
      fault: {
        kind: 'rewrite',
        transform: (body) => {
          const parsed = JSON.parse(body);
          parsed.result.reward = parsed.result.reward.map(() => [hex(priorityWei)]);
          return JSON.stringify(parsed);
        },
      },
    },
  ];
}

interface Upstream {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
]);

function parseRpc(body: string): { methods: string[]; ids: unknown[]; batch: boolean } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const entries = Array.isArray(parsed) ? parsed : [parsed];
  const calls = entries.filter(
    (entry): entry is { method: string; id?: unknown } =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as { method?: unknown }).method === 'string',
  );
  if (calls.length === 0) return undefined;
  return {
    methods: calls.map((c) => c.method),
    ids: calls.map((c) => c.id ?? null),
    batch: Array.isArray(parsed),
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function forwardHeaders(headers: IncomingHttpHeaders, target: URL, length: number): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'host') continue;
    out[name] = value;
  }
  out.host = target.host;
  out['content-length'] = String(length);
  return out;
}

export async function startFaultProxy(target: string, options: { port?: number } = {}): Promise<FaultProxy> {
  const base = new URL(target);
  const basePath = base.pathname.replace(/\/$/, '');
  const rules: { match?: FaultRule['match']; fault: Fault; left: number }[] = [];
  const hits: ProxyRequestInfo[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closed = false;

  const later = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) fn();
    }, ms);
    timers.add(timer);
  };

  const fetchUpstream = (request: IncomingMessage, body: Buffer): Promise<Upstream> =>
    new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
          method: request.method,
          path: `${basePath}${request.url ?? '/'}`,
          headers: forwardHeaders(request.headers, base, body.length),
          agent: false,
        },
        (response) => {
          readBody(response).then((buffer) => {
            const headers: OutgoingHttpHeaders = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
            }
            headers['content-length'] = String(buffer.length);
            resolve({ status: response.statusCode ?? 502, headers, body: buffer });
          }, reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  // The upstream being unreachable looks like a dead connection to the client, not like a 502.
  const forward = async (
    request: IncomingMessage,
    response: ServerResponse,
    body: Buffer,
    write: (upstream: Upstream) => void = (upstream) => {
      response.writeHead(upstream.status, upstream.headers);
      response.end(upstream.body);
    },
  ): Promise<void> => {
    let upstream: Upstream;
    try {
      upstream = await fetchUpstream(request, body);
    } catch {
      request.socket.destroy();
      return;
    }
    if (closed || response.destroyed) return;
    write(upstream);
  };

  const apply = async (
    fault: Fault,
    info: ProxyRequestInfo,
    request: IncomingMessage,
    response: ServerResponse,
    body: Buffer,
  ): Promise<void> => {
    switch (fault.kind) {
      case 'delay':
        later(fault.ms, () => void forward(request, response, body));
        return;
      case 'hang':
        return; // the socket stays open until the client gives up or the proxy closes
      case 'status': {
        const payload = Buffer.from(fault.body ?? '');
        response.writeHead(fault.status, {
          ...fault.headers,
          'content-type': fault.contentType ?? 'text/plain; charset=utf-8',
          'content-length': String(payload.length),
        });
        response.end(payload);
        return;
      }
      case 'redirect':
        response.writeHead(302, { location: fault.location, 'content-length': '0' });
        response.end();
        return;
      case 'reset': {
        const socket = request.socket as Socket & { resetAndDestroy?: () => void };
        if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
        else socket.destroy();
        return;
      }
      case 'truncate':
        await forward(request, response, body, (upstream) => {
          // Headers promise the whole body (content-length), half of it arrives, then the connection dies.
          response.writeHead(upstream.status, upstream.headers);
          response.flushHeaders();
          const half = upstream.body.subarray(0, Math.floor(upstream.body.length / 2));
          response.write(half, () => {
            later(10, () => request.socket.destroy());
          });
        });
        return;
      case 'nonJson': {
        const html = Buffer.from(
          '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>',
        );
        response.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-length': html.length,
        });
        response.end(html);
        return;
      }
      case 'schemaViolation': {
        const rpc = parseRpc(info.body);
        let payload: unknown;
        if (rpc) {
          const answers = rpc.ids.map((id) => ({ jsonrpc: '2.0', id, result: { nope: 1 } }));
          payload = rpc.batch ? answers : answers[0];
        } else {
          payload = { success: true, data: { nope: 1 } };
        }
        const json = Buffer.from(JSON.stringify(payload));
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': json.length });
        response.end(json);
        return;
      }
      case 'rewrite':
        await forward(request, response, body, (upstream) => {
          // A compressed answer is rewritten as plain text (and sent uncompressed).
          const { 'content-encoding': encoding, ...headers } = upstream.headers;
          const plain =
            encoding === 'gzip'
              ? gunzipSync(upstream.body)
              : encoding === 'br'
                ? brotliDecompressSync(upstream.body)
                : encoding === 'deflate'
                  ? inflateSync(upstream.body)
                  : upstream.body;
          const text = Buffer.from(fault.transform(plain.toString('utf8'), info));
          response.writeHead(upstream.status, { ...headers, 'content-length': String(text.length) });
          response.end(text);
        });
        return;
      case 'drip':
        await forward(request, response, body, (upstream) => {
          response.writeHead(upstream.status, upstream.headers);
          response.flushHeaders();
          const size = Math.max(1, fault.bytesPerChunk);
          let offset = 0;
          const next = (): void => {
            if (response.destroyed) return;
            const chunk = upstream.body.subarray(offset, offset + size);
            offset += size;
            if (offset >= upstream.body.length) {
              response.end(chunk);
              return;
            }
            response.write(chunk);
            later(fault.intervalMs, next);
          };
          next();
        });
        return;
    }
  };

  const server = createServer((request, response) => {
    readBody(request).then(
      (body) => {
        if (closed) return void request.socket.destroy();
        const text = body.toString('utf8');
        const info: ProxyRequestInfo = {
          method: request.method ?? 'GET',
          path: request.url ?? '/',
          body: text,
          rpcMethods: parseRpc(text)?.methods ?? [],
        };
        hits.push(info);
        const rule = rules.find((r) => r.left > 0 && (r.match ? r.match(info) : true));
        if (!rule) return forward(request, response, body);
        rule.left--;
        return apply(rule.fault, info, request, response, body);
      },
      () => request.socket.destroy(),
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    add(rule) {
      rules.push({
        ...(rule.match ? { match: rule.match } : {}),
        fault: rule.fault,
        left: rule.times ?? Infinity,
      });
    },
    clear() {
      rules.length = 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await done;
    },
  };
}
