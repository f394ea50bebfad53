import type { CallSignal } from '../providers/kit/call-signal';

/**
 * A cap on the calls in flight to one provider from this process. A call over the cap waits in a
 * first-in, first-out queue until a call ends and hands it the slot, or until its own signal aborts
 * (the request's deadline, or every caller of a coalesced call gone): then it is dropped from the
 * queue, never sent, and rejects with the signal's reason. Pure: no clock; the caller may time waits.
 */
interface Waiter {
  start: () => void;
}

export class ConcurrencyLimiter {
  private running = 0;
  private readonly queue: Waiter[] = [];

  /** `onWaited` is told how long each call that had to wait waited (ms), when it starts or leaves the queue. */
  constructor(
    readonly limit: number,
    private readonly onWaited?: (ms: number) => void,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a whole number >= 1');
  }

  /** Calls in flight now. */
  get active(): number {
    return this.running;
  }

  /** Calls waiting for a slot now. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Runs `task` once a slot is free; `onQueued` is told when the call has to wait (before it waits),
   * so that only waits are measured.
   */
  run<T>(task: () => Promise<T>, signal?: CallSignal, onQueued?: () => void): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.running < this.limit) {
      this.running++;
      return this.execute(task);
    }
    onQueued?.();
    const queuedAt = this.onWaited ? performance.now() : 0;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        this.onWaited?.(performance.now() - queuedAt);
        reject(abortReason(signal!));
      };
      const waiter: Waiter = {
        // The slot is handed over by the call that ended: `running` already counts this one.
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.onWaited?.(performance.now() - queuedAt);
          this.execute(task).then(resolve, reject);
        },
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The call, and its slot handed on (or freed) once it ends: one reaction, not an async function per call. */
  private execute<T>(task: () => Promise<T>): Promise<T> {
    let promise: Promise<T>;
    try {
      promise = task();
    } catch (err) {
      this.release();
      const failure = err as Error;
      return Promise.reject(failure);
    }
    promise.then(this.release, this.release);
    return promise;
  }

  private readonly release = (): void => {
    const next = this.queue.shift();
    if (next) next.start();
    else this.running--;
  };
}

export function abortReason(signal: { readonly reason: unknown }): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted', 'AbortError');
}
