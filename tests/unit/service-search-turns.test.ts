// Route searches in turns (service/search-turns.ts): searches asked together run back to back in
// one task, each gets its own result or error, and a turn hands the event loop back after its
// budget so a run of slow searches cannot hold other work behind it.
import { describe, expect, it } from 'vitest';
import { SearchTurns } from '../../service/search-turns';

describe('SearchTurns', () => {
  it('runs the searches asked together in one turn, in order, each with its own result', async () => {
    const turns = new SearchTurns();
    const ran: number[] = [];
    const answers = await Promise.all(
      [1, 2, 3].map((n) =>
        turns.run(() => {
          ran.push(n);
          return n * 10;
        }),
      ),
    );
    expect(answers).toEqual([10, 20, 30]);
    expect(ran).toEqual([1, 2, 3]);
    expect(turns.turns).toBe(1);
    expect(turns.searches).toBe(3);
  });

  it('not before the requests read with it: a search asked now runs after the current task', async () => {
    const turns = new SearchTurns();
    const order: string[] = [];
    const searched = turns.run(() => order.push('search'));
    order.push('rest of the task');
    await searched;
    expect(order).toEqual(['rest of the task', 'search']);
  });

  it("a search's error is its own: the others in the turn still answer", async () => {
    const turns = new SearchTurns();
    const failing = turns.run(() => {
      throw new Error('no route');
    });
    const fine = turns.run(() => 'route');
    await expect(failing).rejects.toThrow('no route');
    await expect(fine).resolves.toBe('route');
    expect(turns.turns).toBe(1);
  });

  it('hands the event loop back once a turn has searched for its budget', async () => {
    let now = 0;
    const turns = new SearchTurns(4, () => now);
    const slow = () =>
      turns.run(() => {
        now += 3;
      });
    const between: number[] = [];
    const all = Promise.all([slow(), slow(), slow(), slow(), slow()]);
    // Work queued behind the first turn runs before the searches left over.
    setImmediate(() => between.push(turns.searches));
    await all;
    expect(turns.searches).toBe(5);
    // 3 ms each against a 4 ms budget: two searches per turn.
    expect(turns.turns).toBe(3);
    expect(between).toEqual([2]);
  });
});
