// One stage of the load bench (scripts/bench-load.ts): the generator (scripts/load-generator.ts) at
// a number of connections for some seconds, with the service's CPU, event loop and CPU per request
// measured in this process over the same window; and the CPU pinning the bench measures under.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { runLoad } from './load-generator.ts';

export interface LoadStage {
  connections: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors (timeouts included) + non-2xx answers + body mismatches. */
  errors: number;
  non2xx: number;
  timeouts: number;
  /** The service's process CPU over the stage, in cores (1 = one core busy throughout). */
  serverCpu: number;
  /** The service's event loop utilization over the stage (0-1). */
  serverLoop: number;
  /** The generator process's CPU over the stage, in cores. */
  generatorCpu: number;
  /**
   * The service's CPU per answered request, in µs: what the route costs the service whichever side
   * set the pace (a route over its baseline by this figure is the capacity fraction a service-bound
   * run would read).
   */
  serverMicrosPerRequest: number;
}

export interface Target {
  route: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  bodies?: string[];
  headers?: Record<string, string>;
  okStatuses?: number[];
  describe?: string;
}

/**
 * Every request carries the Accept-Encoding a browser (and so the extension's fetch) always sends:
 * the service answers the token list with bytes it gzipped once, as a browser would receive them.
 * The no-op baselines carry the same headers. Not sent: If-None-Match, so every list answer is the
 * full body (a first load), never a 304.
 */
export const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' } as const;

/**
 * Pins every thread of this process (the service) to CPU 0; the generator is then started on
 * CPU 1. Nothing is pinned on one CPU or without `taskset`. `restore()` puts the old mask back.
 */
export function pinService(): { pins: { service: number; generator: number }; restore(): void } | undefined {
  if (availableParallelism() < 2) return undefined;
  const pid = String(process.pid);
  let mask: string;
  try {
    mask = /:\s*([0-9a-f]+)\s*$/i.exec(execFileSync('taskset', ['-p', pid], { encoding: 'utf8' }))?.[1] ?? '';
    if (!mask) return undefined;
    execFileSync('taskset', ['-a', '-p', '-c', '0', pid], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  let restored = false;
  return {
    pins: { service: 0, generator: 1 },
    restore() {
      if (restored) return;
      restored = true;
      execFileSync('taskset', ['-a', '-p', mask, pid], { stdio: 'ignore' });
    },
  };
}

export function headersOf(target: Target): Record<string, string> {
  const headers: Record<string, string> = { ...BROWSER_HEADERS, ...target.headers };
  if (target.body !== undefined || target.bodies !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

/** One answer's body bytes as the generator receives them (a mix: its first body's answer). */
export async function answerBytes(base: string, target: Target): Promise<number> {
  const body = target.bodies?.[0]?.replace('__UNIQUE__', '000000000') ?? target.body;
  const response = await fetch(`${base}${target.path}`, {
    method: target.method,
    headers: { ...headersOf(target) },
    ...(body === undefined ? {} : { body }),
  });
  // fetch decodes gzip and br: the length on the wire is the header's, when the server sent one.
  const declared = response.headers.get('content-length');
  const decoded = (await response.arrayBuffer()).byteLength;
  return declared === null ? decoded : Number(declared);
}

export async function stage(
  base: string,
  target: Target,
  connections: number,
  seconds: number,
  generatorCpu?: number,
): Promise<LoadStage> {
  const loop = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const run = await runLoad(
    base,
    {
      method: target.method,
      path: target.path,
      headers: headersOf(target),
      ...(target.body === undefined ? {} : { body: target.body }),
      ...(target.bodies === undefined ? {} : { bodies: target.bodies }),
      ...(target.okStatuses === undefined ? {} : { okStatuses: target.okStatuses }),
    },
    connections,
    seconds,
    generatorCpu === undefined ? {} : { cpu: generatorCpu },
  );
  const used = process.cpuUsage(cpu);
  // The generator's process start-up (~50 ms) is in the service's window too: a small overstatement.
  const window = performance.eventLoopUtilization(loop);
  const windowSeconds = window.idle / 1000 + window.active / 1000;
  const cpuMicros = used.user + used.system;
  return {
    connections,
    seconds: run.seconds,
    requestsPerSecond: Math.round(run.requests / run.seconds),
    p50Ms: run.p50Ms,
    p99Ms: run.p99Ms,
    errors: run.errors + run.non2xx,
    non2xx: run.non2xx,
    timeouts: run.timeouts,
    serverCpu: Math.round((cpuMicros / 1e6 / windowSeconds) * 100) / 100,
    serverMicrosPerRequest: run.requests > 0 ? Math.round((cpuMicros / run.requests) * 10) / 10 : 0,
    serverLoop: Math.round(window.utilization * 100) / 100,
    generatorCpu: run.generatorCpu,
  };
}

export function summarize(result: LoadStage): string {
  return (
    `${result.connections} conns: ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms, ` +
    `p99 ${result.p99Ms} ms, ${result.errors} errors; CPU: service ${result.serverCpu} ` +
    `(${result.serverMicrosPerRequest} µs/request) ` +
    `(loop ${result.serverLoop}), generator ${result.generatorCpu}`
  );
}
