import { Coalescer } from '../../../../src/offers/coalescer';
import { CallAborter, type CallSignal } from '../../../../src/providers/kit/call-signal';

const listener = (log: string[], name: string) => ({ handleEvent: () => log.push(name) });

describe('CallAborter', () => {
  test('tells its listeners once, in the order they came, with the reason an AbortController gives', () => {
    const signal = new CallAborter();
    const log: string[] = [];
    const [a, b, c] = [listener(log, 'a'), listener(log, 'b'), listener(log, 'c')];
    signal.addEventListener('abort', a);
    signal.addEventListener('abort', b);
    signal.addEventListener('abort', c);
    signal.addEventListener('abort', b);
    signal.removeEventListener('abort', a);
    expect(signal.aborted).toBe(false);
    expect(signal.reason).toBeUndefined();
    signal.abort();
    signal.abort();
    expect(log).toEqual(['b', 'c']);
    expect(signal.aborted).toBe(true);
    const controller = new AbortController();
    controller.abort();
    const reason = signal.reason as DOMException;
    const expected = controller.signal.reason as DOMException;
    expect([reason.name, reason.message]).toEqual([expected.name, expected.message]);
  });

  test('function listeners too, and the reason given', () => {
    const signal = new CallAborter();
    const log: string[] = [];
    const told = () => log.push('told');
    signal.addEventListener('abort', told, { once: true });
    signal.addEventListener('abort', () => log.push('other'));
    signal.abort(new Error('why'));
    expect(log).toEqual(['told', 'other']);
    expect((signal.reason as Error).message).toBe('why');
  });

  test('a listener added after the abort is not told', () => {
    const signal = new CallAborter();
    const log: string[] = [];
    signal.abort();
    signal.addEventListener('abort', listener(log, 'late'));
    expect(log).toEqual([]);
  });

  test('a coalescer caller leaves on it as on an AbortSignal, and the last to leave aborts the call', async () => {
    const coalescer = new Coalescer<string>();
    let callSignal: CallSignal | undefined;
    const hanging = (signal: CallSignal) => ((callSignal = signal), new Promise<string>(() => undefined));
    const first = new CallAborter();
    const second = new CallAborter();
    const a = coalescer.run('k', hanging, first);
    const b = coalescer.run('k', hanging, second);
    first.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect(callSignal?.aborted).toBe(false);
    second.abort();
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    expect(callSignal?.aborted).toBe(true);
    await expect(coalescer.run('k', hanging, first)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
