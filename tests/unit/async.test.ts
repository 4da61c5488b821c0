import { describe, expect, it } from 'vitest';
import { createSerialQueue, sleep } from '@/lib/async';

describe('sleep', () => {
  it('resolves after the delay, and at once when the signal aborts (before or during)', async () => {
    const order: string[] = [];
    await Promise.all([sleep(30).then(() => order.push('30')), sleep(1).then(() => order.push('1'))]);
    expect(order).toEqual(['1', '30']);

    const aborted = new AbortController();
    aborted.abort();
    const controller = new AbortController();
    const long = sleep(60_000, controller.signal).then(() => 'ended');
    controller.abort();
    await expect(Promise.race([long, sleep(1_000).then(() => 'timer')])).resolves.toBe('ended');
    await expect(
      Promise.race([sleep(60_000, aborted.signal).then(() => 'ended'), sleep(1_000)]),
    ).resolves.toBe('ended');
  });
});

describe('createSerialQueue', () => {
  it('runs tasks one at a time in order, answers each result, and goes on after a failure', async () => {
    const enqueue = createSerialQueue();
    const log: string[] = [];
    const task =
      (name: string, ms: number, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await sleep(ms);
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      enqueue(task('a', 20)),
      enqueue(task('b', 1, true)),
      enqueue(task('c', 1)),
    ]);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
