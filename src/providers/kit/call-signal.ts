/** A listener of a CallSignal: a function, or an object that is its own handler. */
export type AbortListener = (() => void) | { handleEvent(): void };

/**
 * What a provider call listens on to stop: the part of an AbortSignal the calls use, so that an
 * AbortSignal is one, and so is the cheaper CallAborter.
 */
export interface CallSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: AbortListener, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: AbortListener): void;
}

/**
 * A one-shot abort signal and its controller in one small object: its listeners are told once, in the
 * order they came, as an aborted AbortSignal's are, and `abort()` gives the reason an AbortController's
 * does. An AbortController with its AbortSignal (an EventTarget) and a listener cost about 2 KB; the
 * offers service makes two for every provider of every request (the request's wait and the call).
 */
export class CallAborter implements CallSignal {
  aborted = false;
  private abortReason: unknown;
  /** The first listener; most signals have no other (one call per provider and payment method). */
  private first: AbortListener | undefined;
  private others: AbortListener[] | undefined;

  get reason(): unknown {
    return this.abortReason;
  }

  get signal(): CallSignal {
    return this;
  }

  /** Every listener is told once (`once` or not): the signal aborts once. */
  addEventListener(_type: 'abort', listener: AbortListener, _options?: { once?: boolean }): void {
    if (this.aborted || this.first === listener || this.others?.includes(listener)) return;
    if (this.first === undefined) this.first = listener;
    else (this.others ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: AbortListener): void {
    // The next one moves up: listeners are told in the order they came.
    if (this.first === listener) this.first = this.others?.shift();
    else if (this.others) {
      const at = this.others.indexOf(listener);
      if (at >= 0) this.others.splice(at, 1);
    }
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abortReason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const { first, others } = this;
    this.first = undefined;
    this.others = undefined;
    if (first) tell(first);
    if (others) for (const listener of others) tell(listener);
  }
}

/** A listener is told as an EventTarget tells it: an error it throws does not stop the others. */
function tell(listener: AbortListener): void {
  try {
    if (typeof listener === 'function') listener();
    else listener.handleEvent();
  } catch (err) {
    queueMicrotask(() => {
      throw err;
    });
  }
}
