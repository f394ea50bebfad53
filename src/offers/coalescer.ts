import { CallAborter, type CallSignal } from '../providers/kit/call-signal';
import { abortReason } from './limiter';

/** A call in flight, as the function that starts it sees it. */
export interface SharedCall<H> {
  handle: H | undefined;
}

/**
 * Coalescing of identical calls in flight: a call whose key matches one already in flight waits for
 * that one's result instead of being made again. Every caller gets the same answer or the same error.
 * The shared call has its own abort signal: a caller whose signal aborts leaves (its own promise
 * rejects with the signal's reason) without touching the others; only when every caller has left is
 * the shared call aborted. A key is forgotten as soon as its call ends: nothing is cached.
 *
 * Whoever starts a call may keep something about it in its `handle` (QuoteCalls keeps its place in
 * the provider's queue there), and `onJoin` is given it with each caller that joins.
 *
 * Every quote call of an offers request goes through here, so each call costs as little as it can:
 * one reaction per shared call (not one per caller) answers its callers in the order they came, and a
 * caller is one small object that is its own abort listener (no closures per caller).
 */
class Shared<T, H> implements SharedCall<H> {
  readonly controller = new CallAborter();
  handle: H | undefined = undefined;
  /** Callers still waiting. */
  callers = 0;
  /** Every caller that joined, in order (the first, then the others: most calls have one); one that left is marked done and skipped. */
  first: Caller<T, H> | undefined;
  others: Caller<T, H>[] | undefined;
}

const ONCE = { once: true } as const;

class Caller<T, H> {
  done = false;

  constructor(
    private readonly coalescer: { forget(key: string, call: Shared<T, H>): void },
    private readonly key: string,
    private readonly call: Shared<T, H>,
    private readonly signal: CallSignal | undefined,
    readonly resolve: (value: T) => void,
    readonly reject: (err: Error) => void,
  ) {
    if (call.first === undefined) call.first = this;
    else (call.others ??= []).push(this);
    call.callers++;
    signal?.addEventListener('abort', this, ONCE);
  }

  /** The caller's signal aborted: it leaves; the last one to leave aborts the call. */
  handleEvent(): void {
    if (this.done) return;
    this.done = true;
    const reason = abortReason(this.signal!);
    this.reject(reason);
    if (--this.call.callers === 0) {
      this.coalescer.forget(this.key, this.call);
      this.call.controller.abort(reason);
    }
  }

  /** The call ended: the caller is answered, unless it left. */
  settle(value: T | undefined, err: Error | undefined, failed: boolean): void {
    if (this.done) return;
    this.done = true;
    this.call.callers--;
    this.signal?.removeEventListener('abort', this);
    if (failed) this.reject(err!);
    else this.resolve(value!);
  }
}

export class Coalescer<T, H = undefined, J = undefined> {
  private readonly inFlight = new Map<string, Shared<T, H>>();

  /** `onJoin` is told each time a caller joins a call already in flight (a call saved): the call's handle, and the caller's `joiner`. */
  constructor(private readonly onJoin?: (handle: H | undefined, joiner: J | undefined) => void) {}

  /** Calls in flight now. */
  get size(): number {
    return this.inFlight.size;
  }

  run(key: string, start: (signal: CallSignal, call: SharedCall<H>) => Promise<T>, signal?: CallSignal, joiner?: J): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    let shared = this.inFlight.get(key);
    if (shared) this.onJoin?.(shared.handle, joiner);
    else shared = this.begin(key, start);
    const call = shared;
    return new Promise<T>((resolve, reject) => {
      new Caller(this, key, call, signal, resolve, reject);
    });
  }

  /** Forgets the key's call, if it is still this one. */
  forget(key: string, call: Shared<T, H>): void {
    if (this.inFlight.get(key) === call) this.inFlight.delete(key);
  }

  private begin(key: string, start: (signal: CallSignal, call: SharedCall<H>) => Promise<T>): Shared<T, H> {
    const shared = new Shared<T, H>();
    let promise: Promise<T>;
    try {
      promise = start(shared.controller.signal, shared);
    } catch (err) {
      promise = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    this.inFlight.set(key, shared);
    // Forgotten once it ends, answered or not, then its callers answered in the order they came; an
    // error nobody waits for any more is not unhandled.
    promise.then(
      (value) => this.settled(key, shared, value, undefined, false),
      (err: Error) => this.settled(key, shared, undefined, err, true),
    );
    return shared;
  }

  private settled(key: string, shared: Shared<T, H>, value: T | undefined, err: Error | undefined, failed: boolean): void {
    this.forget(key, shared);
    const { first, others } = shared;
    shared.first = undefined;
    shared.others = undefined;
    first?.settle(value, err, failed);
    if (others) for (let i = 0; i < others.length; i++) others[i]!.settle(value, err, failed);
  }
}
