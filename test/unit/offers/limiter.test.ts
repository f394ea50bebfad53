import { ConcurrencyLimiter } from '../../../src/offers/limiter';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimiter', () => {
  test('the cap holds under a burst: never more than `limit` in flight, every call made in arrival order', async () => {
    const limiter = new ConcurrencyLimiter(3);
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const burst = Array.from({ length: 20 }, (_, i) =>
      limiter.run(async () => {
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

  test('a failed call frees its slot, and its error is its caller’s', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const failing = limiter.run(() => Promise.reject(new Error('boom')));
    const next = limiter.run(() => Promise.resolve('ok'));
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
    expect(limiter.active).toBe(0);
  });

  test('a call over the cap waits; aborted while waiting, it is dropped from the queue and never made', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const first = deferred<string>();
    const running = limiter.run(() => first.promise);
    const queued = new AbortController();
    let made = false;
    let toldQueued = 0;
    const waiting = limiter.run(
      () => ((made = true), Promise.resolve('late')),
      queued.signal,
      () => toldQueued++,
    );
    const after = limiter.run(() => Promise.resolve('after'));
    expect(toldQueued).toBe(1);
    expect(limiter.waiting).toBe(2);
    queued.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    expect(limiter.waiting).toBe(1);
    first.resolve('first');
    await expect(running).resolves.toBe('first');
    await expect(after).resolves.toBe('after');
    expect(made).toBe(false);
    expect(limiter.active).toBe(0);
  });

  test('a call whose signal has already aborted is refused at once', async () => {
    const limiter = new ConcurrencyLimiter(1);
    let made = false;
    const aborted = AbortSignal.abort();
    await expect(limiter.run(() => ((made = true), Promise.resolve(1)), aborted)).rejects.toThrow();
    expect(made).toBe(false);
    expect(limiter.active).toBe(0);
  });

  test('a call under the cap is not told it was queued', async () => {
    const limiter = new ConcurrencyLimiter(2);
    let told = 0;
    await limiter.run(
      () => Promise.resolve(1),
      undefined,
      () => told++,
    );
    expect(told).toBe(0);
    await tick();
  });

  test('onWaited is told how long each call that waited waited, once, when it starts or leaves the queue; not for calls under the cap', async () => {
    const waits: number[] = [];
    const limiter = new ConcurrencyLimiter(1, (ms) => waits.push(ms));
    const first = deferred<string>();
    const running = limiter.run(() => first.promise);
    const leaving = new AbortController();
    const left = limiter.run(() => Promise.resolve('never'), leaving.signal);
    const served = limiter.run(() => Promise.resolve('served'));
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

  test('a limit below 1 is refused', () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(RangeError);
    expect(() => new ConcurrencyLimiter(1.5)).toThrow(RangeError);
  });
});
