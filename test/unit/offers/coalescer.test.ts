import { Coalescer } from '../../../src/offers/coalescer';
import type { CallSignal } from '../../../src/providers/kit/call-signal';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('Coalescer', () => {
  test('identical calls in flight are made once and every caller gets the answer', async () => {
    let joined = 0;
    const coalescer = new Coalescer<string>(() => joined++);
    const answer = deferred<string>();
    let made = 0;
    const start = () => (made++, answer.promise);
    const callers = [coalescer.run('k', start), coalescer.run('k', start), coalescer.run('k', start)];
    expect(made).toBe(1);
    expect(joined).toBe(2);
    answer.resolve('quote');
    expect(await Promise.all(callers)).toEqual(['quote', 'quote', 'quote']);
  });

  test('different keys are different calls', async () => {
    const coalescer = new Coalescer<string>();
    let made = 0;
    const results = await Promise.all(['a', 'b', 'a'].map((key) => coalescer.run(key, () => (made++, Promise.resolve(key)))));
    expect(results).toEqual(['a', 'b', 'a']);
    expect(made).toBe(2);
  });

  test('nothing is cached: once a call has ended, the next identical one is made again', async () => {
    const coalescer = new Coalescer<number>();
    let made = 0;
    await coalescer.run('k', () => Promise.resolve(++made));
    expect(coalescer.size).toBe(0);
    await expect(coalescer.run('k', () => Promise.resolve(++made))).resolves.toBe(2);
    // A failed call is forgotten too.
    await expect(coalescer.run('k', () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(coalescer.run('k', () => Promise.resolve(++made))).resolves.toBe(3);
  });

  test('an error reaches every coalesced caller', async () => {
    const coalescer = new Coalescer<string>();
    const answer = deferred<string>();
    const callers = [coalescer.run('k', () => answer.promise), coalescer.run('k', () => answer.promise)];
    answer.reject(new Error('HTTP 503'));
    const settled = await Promise.allSettled(callers);
    expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as Error).message : 'ok'))).toEqual(['HTTP 503', 'HTTP 503']);
  });

  test('a start that throws synchronously is an error of every caller, not of the coalescer', async () => {
    const coalescer = new Coalescer<string>();
    await expect(
      coalescer.run('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(coalescer.size).toBe(0);
  });

  test('a caller that aborts stops waiting, without aborting the call the others wait for', async () => {
    const coalescer = new Coalescer<string>();
    const answer = deferred<string>();
    let callSignal: CallSignal | undefined;
    const start = (signal: CallSignal) => ((callSignal = signal), answer.promise);
    const impatient = new AbortController();
    const patient = new AbortController();
    const first = coalescer.run('k', start, impatient.signal);
    const second = coalescer.run('k', start, patient.signal);
    impatient.abort(new Error('deadline of the first request'));
    await expect(first).rejects.toThrow('deadline of the first request');
    expect(callSignal?.aborted).toBe(false);
    answer.resolve('quote');
    await expect(second).resolves.toBe('quote');
  });

  test('the call is aborted once every caller has left, and the next identical call is made afresh', async () => {
    const coalescer = new Coalescer<string>();
    let callSignal: CallSignal | undefined;
    const hanging = (signal: CallSignal) => ((callSignal = signal), new Promise<string>(() => undefined));
    const a = new AbortController();
    const b = new AbortController();
    const first = coalescer.run('k', hanging, a.signal);
    const second = coalescer.run('k', hanging, b.signal);
    a.abort();
    await expect(first).rejects.toThrow();
    expect(callSignal?.aborted).toBe(false);
    b.abort();
    await expect(second).rejects.toThrow();
    expect(callSignal?.aborted).toBe(true);
    expect(coalescer.size).toBe(0);
    let made = false;
    await expect(coalescer.run('k', () => ((made = true), Promise.resolve('fresh')))).resolves.toBe('fresh');
    expect(made).toBe(true);
  });

  test('a caller whose signal has already aborted is refused and joins nothing', async () => {
    const coalescer = new Coalescer<string>();
    let made = false;
    await expect(coalescer.run('k', () => ((made = true), Promise.resolve('x')), AbortSignal.abort())).rejects.toThrow();
    expect(made).toBe(false);
  });

  test('a shared call that fails after every caller has left raises no unhandled rejection', async () => {
    const coalescer = new Coalescer<string>();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const answer = deferred<string>();
      const caller = new AbortController();
      const waiting = coalescer.run('k', () => answer.promise, caller.signal);
      caller.abort();
      await expect(waiting).rejects.toThrow();
      answer.reject(new Error('late failure'));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
