// The load bench's capacity method (scripts/bench-load-capacity.ts) against a real node:http server:
// every connection count is stepped (no early stop on a flat stretch), the routes are confirmed in
// rounds in turn with their baseline, a route's errors are reported rather than a clean round's
// figure, and a fraction is the median of the rounds' own ratios. No timing is asserted.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capacityFraction,
  measureGroup,
  type RouteLoad,
  roundFractions,
} from '../../scripts/bench-load-capacity';
import type { LoadStage } from '../../scripts/bench-load-stage';

let server: Server;
let base: string;
let failing = false;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      // Slow as well as failing: the round with errors is the slowest, never the median by req/s.
      if (request.url === '/flaky' && failing) {
        setTimeout(() => response.writeHead(500).end('{}'), 20);
        return;
      }
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

// The same count four times: flat stages, where a rule stopping at a flat stretch would end early.
const stepping = (log: string[]) => ({
  steps: [2, 2, 2, 2],
  stepSeconds: 0.2,
  confirmSeconds: 0.2,
  rounds: 2,
  warmupSeconds: 0.1,
  log: (line: string) => log.push(line),
});

describe('the load bench capacity method', () => {
  it('walks every connection count and confirms the routes in turn with the baseline, each round', async () => {
    const log: string[] = [];
    const [baseline, route] = (await measureGroup(
      base,
      [
        { route: 'baseline', method: 'GET', path: '/a' },
        { route: 'route', method: 'GET', path: '/b' },
      ],
      stepping(log),
    )) as [RouteLoad, RouteLoad];
    for (const load of [baseline, route]) {
      expect(load.steps.map((s) => s.connections)).toEqual([2, 2, 2, 2]);
      expect(load.confirmations).toHaveLength(2);
      expect(load.capacity.errors).toBe(0);
      expect(load.confirmations).toContain(load.capacity);
    }
    const confirms = log.filter((line) => line.includes(' confirm ')).map((line) => line.split(' ')[0]);
    expect(confirms).toEqual(['baseline', 'route', 'baseline', 'route']);
  }, 60_000);

  it('reports a round with errors as the capacity, never the clean round beside it', async () => {
    failing = false;
    const target = { route: 'flaky', method: 'GET', path: '/flaky' } as const;
    // Errors in the second round only (set from the bench's own log, which it writes as each
    // confirmation ends): the first round fixes the count, the third is clean again.
    let confirmations = 0;
    const log = (line: string) => {
      if (line.includes(' confirm ')) failing = ++confirmations === 1;
    };
    const [flaky] = (await measureGroup(base, [target], {
      ...stepping([]),
      log,
      steps: [2],
      rounds: 3,
    })) as [RouteLoad];
    expect(flaky.confirmations.map((stage) => stage.errors > 0)).toEqual([false, true, false]);
    expect(flaky.capacity.errors).toBeGreaterThan(0);
  }, 60_000);

  it('takes the median of the rounds own ratios, each round against its own baseline', () => {
    const at = (requestsPerSecond: number) => ({ requestsPerSecond, errors: 0 }) as LoadStage;
    const load = (rates: number[]): RouteLoad => ({
      route: 'r',
      steps: [],
      capacity: at(rates[0] as number),
      confirmations: rates.map(at),
    });
    // The machine slows down over the rounds: each ratio is 0.8, whatever the drift.
    const baseline = load([20_000, 16_000, 12_000]);
    const route = load([16_000, 12_800, 9_600]);
    expect(roundFractions(route, baseline)).toEqual([0.8, 0.8, 0.8]);
    expect(capacityFraction(route, baseline)).toBe(0.8);
    // One disturbed round does not move the median.
    expect(capacityFraction(load([16_000, 4_000, 9_600]), baseline)).toBe(0.8);
  });
});
