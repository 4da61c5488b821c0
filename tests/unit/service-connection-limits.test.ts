// Connection limits as configured: the file's `limits.connections` become policy, Node's server
// options follow from them, and Node's client errors map to the answers the service gives.
// (Their behaviour on real sockets: tests/integration/service-connections.test.ts.)
import { describe, expect, it } from 'vitest';
import { LimitsConfigSchema } from '../../service/config';
import {
  clientErrorAnswer,
  connectionServerOptions,
  DEFAULT_CONNECTION_LIMITS,
  drainVerdict,
} from '../../service/connection-limits';
import { policyFromConfig, resolvePolicy } from '../../service/policy';

describe('connection limits in the configuration file', () => {
  it('become policy; absent fields keep the defaults; false lifts the per-client cap', () => {
    const limits = LimitsConfigSchema.parse({
      connections: { headersTimeoutMs: 5_000, maxPerClient: false },
    });
    const policy = resolvePolicy(policyFromConfig({ limits }));
    expect(policy.connections).toEqual({
      ...DEFAULT_CONNECTION_LIMITS,
      headersTimeoutMs: 5_000,
      maxPerClient: null,
    });
    expect(resolvePolicy().connections).toEqual(DEFAULT_CONNECTION_LIMITS);
    expect(
      resolvePolicy(policyFromConfig({ limits: { connections: { maxTotal: 50 } } })).connections.maxTotal,
    ).toBe(50);
  });

  it('refuses a headers timeout longer than the request timeout, zero caps and unknown fields', () => {
    const refused = (connections: unknown) => LimitsConfigSchema.safeParse({ connections }).success === false;
    expect(refused({ headersTimeoutMs: 40_000 })).toBe(true); // past the default request timeout, 30 s
    expect(refused({ headersTimeoutMs: 2_000, requestTimeoutMs: 1_000 })).toBe(true);
    expect(refused({ maxPerClient: 0 })).toBe(true);
    expect(refused({ maxPerClient: true })).toBe(true);
    expect(refused({ maxTotal: 0 })).toBe(true);
    expect(refused({ stalledSocketMs: 10 })).toBe(true);
    expect(refused({ minDrainBytes: 0 })).toBe(true);
    expect(refused({ minDrainBytes: 1 })).toBe(false);
    expect(refused({ headerTimeoutMs: 1_000 })).toBe(true); // a typo is an error
    expect(refused({ headersTimeoutMs: 2_000, requestTimeoutMs: 4_000 })).toBe(false);
  });
});

describe("Node's server options", () => {
  it('carry the timeouts and check them often enough to hold the headers bound', () => {
    expect(connectionServerOptions(DEFAULT_CONNECTION_LIMITS)).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 1_000,
    });
    const tight = { ...DEFAULT_CONNECTION_LIMITS, headersTimeoutMs: 400, requestTimeoutMs: 800 };
    expect(connectionServerOptions(tight).connectionsCheckingInterval).toBe(100);
    expect(() => connectionServerOptions({ ...tight, headersTimeoutMs: 900 })).toThrow(RangeError);
  });
});

describe("Node's client errors", () => {
  it('become 431, 413, 408 or 400; a reset or broken pipe is only closed', () => {
    expect(clientErrorAnswer('HPE_HEADER_OVERFLOW')?.status).toBe(431);
    expect(clientErrorAnswer('HPE_CHUNK_EXTENSIONS_OVERFLOW')?.status).toBe(413);
    expect(clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT')?.status).toBe(408);
    expect(clientErrorAnswer('HPE_INVALID_METHOD')?.status).toBe(400);
    expect(clientErrorAnswer('HPE_INVALID_HEADER_TOKEN')).toEqual({
      status: 400,
      message: 'the request could not be parsed as HTTP',
    });
    expect(clientErrorAnswer('ECONNRESET')).toBeUndefined();
    expect(clientErrorAnswer('EPIPE')).toBeUndefined();
    expect(clientErrorAnswer(undefined)).toBeUndefined();
  });
});

describe('the drain check of queued answers', () => {
  /** A socket whose queue holds `queued` bytes after `flushed` were handed to the kernel. */
  const at = (flushed: number, queued: number) => ({
    bytesWritten: flushed + queued,
    writableLength: queued,
  });

  it('closes an answer that drains less than the minimum in a window, though it moves', () => {
    const judge = drainVerdict(1_000, 32 * 1024);
    const socket = at(0, 500_000);
    expect(judge(socket, 0)).toBe('ok'); // first seen queued: its window starts
    expect(judge(at(0, 500_000), 0)).toBe('ok'); // another socket, its own window
    expect(judge(Object.assign(socket, at(40_000, 460_000)), 999)).toBe('ok'); // within the window
    expect(judge(socket, 1_000)).toBe('ok'); // 40 kB in the window: passed, the next one starts
    expect(judge(Object.assign(socket, at(40_100, 459_900)), 2_000)).toBe('slow'); // 100 bytes in 1 s
  });

  it("calls a window with nothing drained 'stalled', and forgets a socket whose queue emptied", () => {
    const judge = drainVerdict(1_000, 1);
    const socket = at(0, 10);
    expect(judge(socket, 0)).toBe('ok');
    expect(judge(Object.assign(socket, at(10, 0)), 500)).toBe('ok'); // drained: forgotten
    expect(judge(Object.assign(socket, at(10, 10)), 900)).toBe('ok'); // a new answer: a new window
    expect(judge(socket, 1_899)).toBe('ok');
    expect(judge(socket, 1_900)).toBe('stalled');
  });
});
