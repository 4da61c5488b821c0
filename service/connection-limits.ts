// What a client can hold at the connection level, before any request reaches the app: how long
// its headers, its whole request and an idle keep-alive socket may take, and how many sockets it
// and everyone together may keep open. Node's own answers to requests it cannot parse (400, 431,
// 408 on a timeout) are given the contract's JSON error body. Every refusal is answered and the
// socket closed: nothing is left hanging, and nothing a refused client sends is parsed.
import { type Server, type ServerOptions, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_CODES } from '../lib/api/schema';
import { errorBody } from './errors';
import { clientKey } from './rate-limit';

export interface ConnectionLimits {
  /** A request's headers must arrive within this many milliseconds of its first byte (or of the connection). */
  readonly headersTimeoutMs: number;
  /** A whole request (headers and body) must arrive within this many milliseconds. */
  readonly requestTimeoutMs: number;
  /** A keep-alive socket with no request in flight is closed after this many milliseconds. */
  readonly keepAliveTimeoutMs: number;
  /**
   * A socket whose queued answer has not moved for this many milliseconds is closed: a client that
   * never reads its answers (or stops mid-answer) cannot hold its place forever.
   */
  readonly stalledSocketMs: number;
  /**
   * Bytes a queued answer must drain in each `stalledSocketMs` window, else the socket is closed: a
   * client reading a byte now and then keeps its answer moving but not its place. 1: only a wholly
   * stalled answer is closed.
   */
  readonly minDrainBytes: number;
  /** Open sockets per client (TCP peer, IPv6 by /64); null: no per-client cap. Past it: 429. */
  readonly maxPerClient: number | null;
  /** Open sockets in all, in this process. Past it: 503. */
  readonly maxTotal: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  stalledSocketMs: 30_000,
  minDrainBytes: 32 * 1024,
  maxPerClient: 64,
  maxTotal: 1_000,
};

/** A refused or failed socket may linger this long for the client to read its answer and close. */
const LINGER_MS = 1_000;

/** Options for http.createServer: Node checks the header and request timeouts on an interval. */
export function connectionServerOptions(limits: ConnectionLimits): ServerOptions {
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new RangeError('the headers timeout cannot be longer than the request timeout');
  }
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node's default checks every 30 s, so a 10 s bound would hold a socket up to 40 s.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

export interface ConnectionStats {
  /** Sockets open now (admitted ones; refused ones are never counted). */
  readonly open: number;
  /** Bytes of answers queued in the process (not yet taken by the kernel), over all open sockets. */
  readonly queuedBytes: number;
  /** Requests Node's parser has handed to the app since the start. */
  readonly requests: number;
  /** Sockets refused since the start, by cause. */
  readonly refused: { readonly perClient: number; readonly total: number };
  /** Sockets closed since the start for a queued answer that did not move, or drained too slowly. */
  readonly cut: { readonly stalled: number; readonly slow: number };
}

export interface ConnectionGuard {
  stats(): ConnectionStats;
  /** On shutdown: refused sockets still lingering would hold server.close() for up to a second. */
  destroyRefused(): void;
}

/**
 * Counts sockets per client and in all, and refuses those past a cap before Node's HTTP parser
 * sees them (the cap costs one map update per connection, nothing per request). Also answers
 * Node's client errors with the JSON error body. Call before the server listens.
 */
export function guardConnections(
  server: Server,
  limits: ConnectionLimits,
  clock: () => Date = () => new Date(),
): ConnectionGuard {
  const perClient = new Map<string, number>();
  const open = new Set<Socket>();
  // Refused sockets are not Node's (its parser never saw them): closeAllConnections skips them.
  const refusing = new Set<Socket>();
  const refuse = (socket: Socket, status: number, code: string, message: string) => {
    // A flood of refused sockets is not answered: each answer lingers, so their count is capped too.
    if (refusing.size >= limits.maxTotal) return void socket.destroy();
    refusing.add(socket);
    socket.once('close', () => refusing.delete(socket));
    answerAndClose(socket, status, code, message, clock(), true);
  };
  const refused = { perClient: 0, total: 0 };
  let requests = 0;
  const cut = { stalled: 0, slow: 0 };
  const stopSweeping = sweepSlowReaders(open, limits, cut);
  server.once('close', stopSweeping);
  server.on('request', () => {
    requests++;
  });
  // Node's HTTP connection listener (and anything else already listening): admitted sockets only.
  const httpListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    if (open.size >= limits.maxTotal) {
      refused.total++;
      const message = 'the service has too many open connections; retry shortly';
      return refuse(socket, 503, ERROR_CODES.serviceUnavailable, message);
    }
    const client = clientKey(socket.remoteAddress);
    const held = perClient.get(client) ?? 0;
    if (limits.maxPerClient !== null && held >= limits.maxPerClient) {
      refused.perClient++;
      const message = `this client has ${held} connections open; the limit is ${limits.maxPerClient}`;
      return refuse(socket, 429, ERROR_CODES.rateLimited, message);
    }
    perClient.set(client, held + 1);
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    });
    for (const listener of httpListeners) listener.call(server, socket);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const answer = clientErrorAnswer(error.code);
    if (!answer || lingering.has(socket) || !socket.writable || answerStarted(socket)) {
      if (!lingering.has(socket)) socket.destroy();
      return;
    }
    answerAndClose(socket, answer.status, ERROR_CODES.badRequest, answer.message, clock(), false);
  });
  return {
    stats: () => {
      let queuedBytes = 0;
      for (const socket of open) queuedBytes += socket.writableLength;
      return { open: open.size, queuedBytes, requests, refused: { ...refused }, cut: { ...cut } };
    },
    destroyRefused: () => {
      for (const socket of refusing) socket.destroy();
    },
  };
}

/**
 * Closes sockets whose queued answers drain too slowly (a client that stopped reading, or reads a
 * trickle to keep its place). One sweep of the open sockets every quarter of the window (at most
 * every second): nothing per request. Node's own socket timeout cannot do it: it is switched off
 * for each keep-alive request after the first.
 */
function sweepSlowReaders(
  open: ReadonlySet<Socket>,
  limits: ConnectionLimits,
  cut: { stalled: number; slow: number },
): () => void {
  const verdict = drainVerdict(limits.stalledSocketMs, limits.minDrainBytes);
  const timer = setInterval(
    () => {
      const now = performance.now();
      for (const socket of open) {
        const found = verdict(socket, now);
        if (found === 'ok') continue;
        cut[found] += 1;
        socket.destroy();
      }
    },
    Math.max(50, Math.min(1_000, Math.floor(limits.stalledSocketMs / 4))),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/** What the drain check reads of a socket (a net.Socket has both). */
export interface QueuedWriter {
  /** Bytes queued in the process, not yet taken by the kernel. */
  readonly writableLength: number;
  /** Bytes written, the queued ones included. */
  readonly bytesWritten: number;
}

/**
 * Judges a socket at each sweep: a window of `windowMs` starts when its answer is first seen queued
 * and again after each window it passes; a window in which the queue handed the kernel fewer than
 * `minBytes` ends it ('stalled' when nothing moved, else 'slow'). An emptied queue clears the window.
 */
export function drainVerdict(
  windowMs: number,
  minBytes: number,
): (socket: QueuedWriter, now: number) => 'ok' | 'stalled' | 'slow' {
  const windows = new WeakMap<QueuedWriter, { flushed: number; at: number }>();
  return (socket, now) => {
    if (socket.writableLength === 0) {
      windows.delete(socket);
      return 'ok';
    }
    const flushed = socket.bytesWritten - socket.writableLength;
    const window = windows.get(socket);
    if (window === undefined || now - window.at >= windowMs) {
      const drained = window === undefined ? minBytes : flushed - window.flushed;
      if (drained < minBytes) return drained === 0 ? 'stalled' : 'slow';
      windows.set(socket, { flushed, at: now });
    }
    return 'ok';
  };
}

/** Node's parse and timeout errors as the status and words a client gets; undefined: just close. */
export function clientErrorAnswer(code: string | undefined): { status: number; message: string } | undefined {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'the request headers are too large' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'the request body has too large chunk extensions' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'the request did not arrive in time' };
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    default:
      return code?.startsWith('HPE_')
        ? { status: 400, message: 'the request could not be parsed as HTTP' }
        : undefined;
  }
}

/** Whether a response on this socket has started (then an error answer would corrupt it). */
function answerStarted(socket: Socket): boolean {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return inFlight?.headersSent === true;
}

/** Sockets answered and closing: further errors on them are the same failure, already answered. */
const lingering = new WeakSet<Socket>();

/**
 * Writes a whole HTTP answer and closes. The socket lingers (reading and dropping what the client
 * still sends) until the client closes or LINGER_MS pass: closing with unread input would send a
 * reset, and the client could lose the answer.
 */
function answerAndClose(
  socket: Socket,
  status: number,
  code: string,
  message: string,
  now: Date,
  unparsed: boolean,
): void {
  lingering.add(socket);
  const body = JSON.stringify(errorBody(code, message, now));
  const retry = status === 429 || status === 503 ? 'Retry-After: 1\r\n' : '';
  socket.on('error', () => socket.destroy());
  socket.once('end', () => socket.destroy());
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
  // A socket no parser reads is drained here; a parsed one is drained by its (failed) parser.
  if (unparsed) socket.resume();
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n${retry}Connection: close\r\n\r\n${body}`,
  );
}
