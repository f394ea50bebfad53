import { FairShareLimiter, type QueueTicket } from '../../../src/offers/limiter';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A limiter whose calls end when the test says: `started` lists the calls started, by name, in order. */
function harness(limit: number, laneLimit?: number) {
  const limiter = new FairShareLimiter(limit, laneLimit);
  const started: string[] = [];
  const ends = new Map<string, ReturnType<typeof deferred<string>>>();
  const waitedBy = new Map<string, boolean>();
  const call = (lane: string, name: string, signal?: AbortSignal, ticket?: QueueTicket) => {
    const end = deferred<string>();
    ends.set(name, end);
    return limiter.run(
      lane,
      (waited) => {
        started.push(name);
        waitedBy.set(name, waited);
        return end.promise;
      },
      signal,
      ticket,
    );
  };
  const finish = async (name: string) => {
    ends.get(name)!.resolve(name);
    await tick();
  };
  return { limiter, started, call, finish, waitedBy };
}

describe('FairShareLimiter: the cap', () => {
  test('never more than `limit` in flight; one lane alone may use the whole cap; its calls start in arrival order', async () => {
    const limiter = new FairShareLimiter(3);
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const burst = Array.from({ length: 20 }, (_, i) =>
      limiter.run('a', async () => {
        started.push(i);
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1 + (i % 3)));
        inFlight--;
        return i;
      }),
    );
    expect(limiter.active).toBe(3);
    expect(limiter.waiting).toBe(17);
    expect(await Promise.all(burst)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(most).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(limiter.active).toBe(0);
    expect(limiter.waiting).toBe(0);
  });

  test('a failed call frees its slot, and its error is its caller’s; so does a task that throws before its promise', async () => {
    const limiter = new FairShareLimiter(1);
    const failing = limiter.run('a', () => Promise.reject(new Error('boom')));
    const throwing = limiter.run('a', () => {
      throw new Error('sync');
    });
    const next = limiter.run('b', () => Promise.resolve('ok'));
    await expect(failing).rejects.toThrow('boom');
    await expect(throwing).rejects.toThrow('sync');
    await expect(next).resolves.toBe('ok');
    expect(limiter.active).toBe(0);
    expect(limiter.activeIn('a')).toBe(0);
  });

  test('the task is told whether it waited for its slot', async () => {
    const { call, finish, waitedBy } = harness(1);
    const first = call('a', 'first');
    const second = call('a', 'second');
    await finish('first');
    await finish('second');
    await Promise.all([first, second]);
    expect(Object.fromEntries(waitedBy)).toEqual({ first: false, second: true });
  });

  test('the ticket is given the waiting call only when the call has to wait', async () => {
    const { call, finish } = harness(1);
    const free: QueueTicket = { handle: undefined };
    const full: QueueTicket = { handle: undefined };
    const first = call('a', 'first', undefined, free);
    const second = call('a', 'second', undefined, full);
    expect(free.handle).toBeUndefined();
    expect(full.handle).toBeDefined();
    await finish('first');
    await finish('second');
    await Promise.all([first, second]);
  });

  test('limits are whole numbers, the lane limit from 1 to the limit', () => {
    expect(() => new FairShareLimiter(0)).toThrow(RangeError);
    expect(() => new FairShareLimiter(1.5)).toThrow(RangeError);
    expect(() => new FairShareLimiter(4, 0)).toThrow(RangeError);
    expect(() => new FairShareLimiter(4, 5)).toThrow(RangeError);
    expect(() => new FairShareLimiter(4, 2.5)).toThrow(RangeError);
    expect(new FairShareLimiter(4).laneLimit).toBe(4);
  });
});

describe('FairShareLimiter: fair shares', () => {
  test('slots that free go round the lanes with calls waiting, one each in turn, first in first out within a lane', async () => {
    const { limiter, started, call, finish } = harness(1);
    const all = [call('a', 'a0')];
    for (let i = 1; i <= 4; i++) all.push(call('a', `a${i}`));
    for (let i = 1; i <= 2; i++) all.push(call('b', `b${i}`));
    all.push(call('c', 'c1'));
    expect(limiter.waiting).toBe(7);
    expect([limiter.waitingIn('a'), limiter.waitingIn('b'), limiter.waitingIn('c')]).toEqual([4, 2, 1]);
    for (let i = 0; i < 8; i++) await finish(started[i]!);
    await Promise.all(all);
    // B's and C's calls do not wait behind all of A's.
    expect(started).toEqual(['a0', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  test('a lane that comes later joins the end of the round: it has its turn within the round', async () => {
    const { started, call, finish } = harness(1);
    const all = [call('a', 'a0'), call('a', 'a1'), call('a', 'a2'), call('a', 'a3'), call('b', 'b1'), call('b', 'b2')];
    await finish('a0');
    await finish('a1');
    // b1 runs: the round a, b is over, and c joins it at its end, before a's next turn.
    all.push(call('c', 'c1'));
    for (const name of ['b1', 'c1', 'a2', 'b2', 'a3']) await finish(name);
    await Promise.all(all);
    expect(started).toEqual(['a0', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  test('a free slot goes first to the lane holding the fewest, whatever the turn', async () => {
    const { limiter, started, call, finish } = harness(3);
    const all = [call('a', 'a0'), call('a', 'a1'), call('b', 'b0'), call('a', 'a2'), call('b', 'b1')];
    // It is A's turn, but B's b0 ending leaves A holding two and B none: the slot is B's.
    await finish('b0');
    expect(started.at(-1)).toBe('b1');
    // Then each holds one, and it is A's turn.
    await finish('a0');
    expect(started.at(-1)).toBe('a2');
    for (const name of ['a1', 'a2', 'b1']) await finish(name);
    await Promise.all(all);
    expect(limiter.active).toBe(0);
  });

  test('one lane alone holds at most `laneLimit`: the rest of the cap is kept for the other lanes, which start at once', async () => {
    const { limiter, started, call, finish } = harness(4, 3);
    const all = Array.from({ length: 6 }, (_, i) => call('a', `a${i}`));
    expect(limiter.activeIn('a')).toBe(3);
    expect(limiter.active).toBe(3);
    expect(limiter.waitingIn('a')).toBe(3);
    all.push(call('b', 'b0'));
    expect(started).toEqual(['a0', 'a1', 'a2', 'b0']);
    // The cap is full: another of B's waits, and gets the next free slot before A's queue.
    all.push(call('b', 'b1'));
    await finish('a0');
    expect(started.at(-1)).toBe('b1');
    expect([limiter.activeIn('a'), limiter.activeIn('b')]).toEqual([2, 2]);
    // B's calls end: A may go back up to its limit, never over.
    await finish('b0');
    await finish('b1');
    expect(limiter.activeIn('a')).toBe(3);
    expect(limiter.active).toBe(3);
    for (const name of ['a1', 'a2', 'a3', 'a4', 'a5']) await finish(name);
    await Promise.all(all);
    expect(limiter.active).toBe(0);
  });

  test('a lane at its limit is passed over in its turn: a free slot goes to the next lane', async () => {
    const { limiter, started, call, finish } = harness(3, 2);
    const all = [call('a', 'a0'), call('a', 'a1'), call('b', 'b0'), call('a', 'a2'), call('b', 'b1')];
    expect(started).toEqual(['a0', 'a1', 'b0']);
    await finish('b0');
    // A waits first but holds two, its limit: B's call takes the slot.
    expect(started).toEqual(['a0', 'a1', 'b0', 'b1']);
    expect(limiter.waitingIn('a')).toBe(1);
    await finish('a0');
    expect(started.at(-1)).toBe('a2');
    for (const name of ['a1', 'a2', 'b1']) await finish(name);
    await Promise.all(all);
  });
});

describe('FairShareLimiter: leaving the queue', () => {
  test('a call whose signal aborts while it waits leaves its lane, is never made, and rejects with the reason', async () => {
    const { limiter, started, call, finish } = harness(1);
    const first = call('a', 'first');
    const leaving = new AbortController();
    const left = call('b', 'left', leaving.signal);
    const after = call('b', 'after');
    expect(limiter.waitingIn('b')).toBe(2);
    leaving.abort(new Error('deadline'));
    await expect(left).rejects.toThrow('deadline');
    expect(limiter.waiting).toBe(1);
    expect(limiter.waitingIn('b')).toBe(1);
    await finish('first');
    await finish('after');
    await Promise.all([first, after]);
    expect(started).toEqual(['first', 'after']);
  });

  test('a call whose signal has already aborted is refused at once', async () => {
    const limiter = new FairShareLimiter(1);
    let made = false;
    await expect(limiter.run('a', () => ((made = true), Promise.resolve(1)), AbortSignal.abort())).rejects.toThrow();
    expect(made).toBe(false);
    expect(limiter.active).toBe(0);
  });

  test('onWaited is told how long each call that waited waited, once, when it starts or leaves; not for calls that did not wait', async () => {
    const waits: number[] = [];
    const limiter = new FairShareLimiter(1, 1, (ms) => waits.push(ms));
    const first = deferred<string>();
    const running = limiter.run('a', () => first.promise);
    const leaving = new AbortController();
    const left = limiter.run('a', () => Promise.resolve('never'), leaving.signal);
    const served = limiter.run('b', () => Promise.resolve('served'));
    expect(waits).toEqual([]);
    leaving.abort(new Error('deadline'));
    await expect(left).rejects.toThrow('deadline');
    expect(waits).toHaveLength(1);
    first.resolve('first');
    await expect(running).resolves.toBe('first');
    await expect(served).resolves.toBe('served');
    expect(waits).toHaveLength(2);
    expect(waits.every((ms) => ms >= 0)).toBe(true);
  });
});

describe('FairShareLimiter: a call wanted by several lanes', () => {
  test('joined by a lane with room, a waiting call is sent at once in that lane’s share, and leaves the first lane’s queue', async () => {
    const { limiter, started, call, finish, waitedBy } = harness(4, 2);
    const all = [call('a', 'a0'), call('a', 'a1')];
    const ticket: QueueTicket = { handle: undefined };
    all.push(call('a', 'shared', undefined, ticket));
    expect(limiter.waitingIn('a')).toBe(1);
    expect(ticket.handle!.join('b')).toBe(false);
    expect(started).toEqual(['a0', 'a1', 'shared']);
    expect(waitedBy.get('shared')).toBe(true);
    expect([limiter.activeIn('a'), limiter.activeIn('b'), limiter.waiting, limiter.waitingIn('a')]).toEqual([2, 1, 0, 0]);
    // Joining once it has started changes nothing.
    expect(ticket.handle!.join('c')).toBe(false);
    expect(limiter.activeIn('c')).toBe(0);
    for (const name of [...started]) await finish(name);
    await Promise.all(all);
    expect(limiter.active).toBe(0);
  });

  test('joined by a lane that must wait too, it waits in both and is sent once, on the first of their turns, in that lane', async () => {
    const { limiter, started, call, finish } = harness(1);
    const all = [call('a', 'a0'), call('b', 'b1')];
    const ticket: QueueTicket = { handle: undefined };
    all.push(call('a', 'a1'), call('a', 'shared', undefined, ticket));
    expect(ticket.handle!.join('b')).toBe(true);
    // The same lane joining again, or the first lane, adds nothing.
    expect(ticket.handle!.join('b')).toBe(true);
    expect(ticket.handle!.join('a')).toBe(true);
    expect(limiter.waiting).toBe(3);
    expect([limiter.waitingIn('a'), limiter.waitingIn('b')]).toEqual([2, 2]);
    await finish('a0');
    await finish('b1');
    // Next turns: a (a1), then b, whose next call is the shared one: sent in B's share, out of A's queue.
    await finish('a1');
    expect(started).toEqual(['a0', 'b1', 'a1', 'shared']);
    expect([limiter.activeIn('a'), limiter.activeIn('b'), limiter.waiting]).toEqual([0, 1, 0]);
    await finish('shared');
    await Promise.all(all);
    expect(started.filter((name) => name === 'shared')).toHaveLength(1);
    expect(limiter.active).toBe(0);
  });

  test('a joined call whose signal aborts leaves every lane it waits in', async () => {
    const { limiter, started, call, finish } = harness(1);
    const first = call('a', 'first');
    const leaving = new AbortController();
    const ticket: QueueTicket = { handle: undefined };
    const left = call('a', 'left', leaving.signal, ticket);
    ticket.handle!.join('b');
    ticket.handle!.join('c');
    expect([limiter.waitingIn('a'), limiter.waitingIn('b'), limiter.waitingIn('c'), limiter.waiting]).toEqual([1, 1, 1, 1]);
    leaving.abort(new Error('everyone left'));
    await expect(left).rejects.toThrow('everyone left');
    expect([limiter.waitingIn('a'), limiter.waitingIn('b'), limiter.waitingIn('c'), limiter.waiting]).toEqual([0, 0, 0, 0]);
    expect(ticket.handle!.join('d')).toBe(false);
    await finish('first');
    await first;
    expect(started).toEqual(['first']);
    expect(limiter.active).toBe(0);
  });
});

/** A small deterministic generator (mulberry32), so that a failing seed can be run again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('FairShareLimiter: random schedules', () => {
  test.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'seed %i: within the cap and the lane limit, no slot idle while a lane with room waits, FIFO per lane, every call settled',
    async (seed) => {
      const next = random(seed);
      const limit = 1 + Math.floor(next() * 6);
      const laneLimit = 1 + Math.floor(next() * limit);
      const lanes = ['a', 'b', 'c', 'd'].slice(0, 1 + Math.floor(next() * 4));
      const limiter = new FairShareLimiter(limit, laneLimit);
      const running = new Map<string, ReturnType<typeof deferred<string>>>();
      const aborters = new Map<string, AbortController>();
      const tickets = new Map<string, QueueTicket>();
      const arrived = new Map<string, string[]>(lanes.map((lane) => [lane, []]));
      const startedIn = new Map<string, string[]>(lanes.map((lane) => [lane, []]));
      const left = new Set<string>();
      const joined = new Set<string>();
      const outcomes: Promise<unknown>[] = [];
      let made = 0;

      const check = () => {
        expect(limiter.active).toBe(running.size);
        expect(running.size).toBeLessThanOrEqual(limit);
        expect(lanes.reduce((sum, lane) => sum + limiter.activeIn(lane), 0)).toBe(running.size);
        for (const lane of lanes) {
          expect(limiter.activeIn(lane)).toBeLessThanOrEqual(laneLimit);
          // Work-conserving: a lane with calls waiting is at its limit, or the cap is full.
          if (limiter.waitingIn(lane) > 0) expect(limiter.active === limit || limiter.activeIn(lane) === laneLimit).toBe(true);
        }
      };

      for (let step = 0; step < 400; step++) {
        const roll = next();
        if (roll < 0.45) {
          const lane = lanes[Math.floor(next() * lanes.length)]!;
          const name = `${lane}${step}`;
          const aborter = new AbortController();
          const ticket: QueueTicket = { handle: undefined };
          aborters.set(name, aborter);
          tickets.set(name, ticket);
          arrived.get(lane)!.push(name);
          outcomes.push(
            limiter
              .run(
                lane,
                () => {
                  made++;
                  const end = deferred<string>();
                  running.set(name, end);
                  startedIn.get(lane)!.push(name);
                  return end.promise;
                },
                aborter.signal,
                ticket,
              )
              .catch((err: Error) => (err.message === 'deadline' ? left.add(name) : undefined)),
          );
        } else if (roll < 0.75 && running.size > 0) {
          const names = [...running.keys()];
          const name = names[Math.floor(next() * names.length)]!;
          const end = running.get(name)!;
          running.delete(name);
          if (next() < 0.2) end.reject(new Error('failed'));
          else end.resolve(name);
        } else if (roll < 0.9) {
          const waiting = [...tickets.entries()].filter(([, t]) => t.handle !== undefined);
          if (waiting.length > 0) aborters.get(waiting[Math.floor(next() * waiting.length)]![0])!.abort(new Error('deadline'));
        } else {
          const waiting = [...tickets.entries()].filter(([, t]) => t.handle !== undefined);
          if (waiting.length > 0) {
            const [name, ticket] = waiting[Math.floor(next() * waiting.length)]!;
            joined.add(name);
            ticket.handle!.join(lanes[Math.floor(next() * lanes.length)]!);
          }
        }
        await tick();
        check();
      }

      // Drain: end everything until nothing waits.
      while (running.size > 0) {
        for (const [name, end] of [...running]) {
          running.delete(name);
          end.resolve(name);
        }
        await tick();
        check();
      }
      await Promise.all(outcomes);
      expect(limiter.waiting).toBe(0);
      expect(limiter.active).toBe(0);
      // Every call either ran exactly once or left while waiting, and a lane's calls no other lane
      // joined started in the order they came.
      expect(made + left.size).toBe(outcomes.length);
      for (const lane of lanes) {
        const ran = startedIn.get(lane)!.filter((name) => !joined.has(name));
        expect(ran).toEqual(arrived.get(lane)!.filter((name) => ran.includes(name)));
      }
    },
  );
});
