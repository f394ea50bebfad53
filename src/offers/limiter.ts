import type { CallSignal } from '../providers/kit/call-signal';

/**
 * A cap on the calls in flight to one provider from this process, shared out fairly among the
 * integrators that ask: each one's calls go in its own lane. A call starts at once while the
 * provider has a free slot and its lane holds fewer than `laneLimit` of the calls in flight (so one
 * integrator alone can use `laneLimit` slots, and the rest are kept for the others). Over that, it
 * waits in its lane, first in, first out; each slot that frees goes to the lane with a call waiting,
 * under its own limit, that holds the fewest slots, and among those to the next in turn (round
 * robin): an integrator with one call waiting is served before another's thousandth, and the
 * integrators asking at once tend to equal shares of the cap. A waiting call leaves when its signal aborts
 * (the request's deadline, or every caller of a coalesced call gone): it is never sent, and rejects
 * with the signal's reason.
 *
 * A call waiting in one lane may be wanted by another lane too (a coalesced call of two
 * integrators): it then waits in both (`QueuedCall.join`), is sent on the first of their turns, and
 * holds a slot of that lane's share until it ends.
 *
 * Pure: no clock but the optional wait timing; the caller decides what a wait means.
 */

/** A call waiting for a slot. */
export interface QueuedCall {
  /** Another lane wants the call: it waits there too. Whether it is still waiting afterwards (the lane may have had room to send it at once). */
  join(lane: string): boolean;
}

/** Where `run` tells its caller that the call had to wait: `handle` is set to the waiting call. */
export interface QueueTicket {
  handle: QueuedCall | undefined;
}

type Task = (waited: boolean) => Promise<unknown>;

const WAITING = 0;
const STARTED = 1;
const LEFT = 2;
const ONCE = { once: true } as const;

class Lane {
  /** Its calls in flight. */
  running = 0;
  /** Its calls waiting, oldest first. */
  readonly queue: Waiter[] = [];
  /** Whether it is in the limiter's round (it may have emptied since: it leaves the round on its next turn). */
  inRound = false;
  /** Frees the lane's slot when a call ends: one function per lane, not a closure per call. */
  readonly release: () => void;

  constructor(limiter: FairShareLimiter) {
    this.release = () => limiter.released(this);
  }
}

class Waiter implements QueuedCall {
  state = WAITING;
  /** The lanes it joined after its first. */
  others: Lane[] | undefined;

  constructor(
    private readonly limiter: FairShareLimiter,
    readonly task: Task,
    readonly signal: CallSignal | undefined,
    readonly lane: Lane,
    readonly queuedAt: number,
    readonly resolve: (value: unknown) => void,
    readonly reject: (err: Error) => void,
  ) {}

  join(lane: string): boolean {
    return this.limiter.join(this, lane);
  }

  /** Its signal aborted. */
  handleEvent(): void {
    this.limiter.leave(this);
  }
}

export class FairShareLimiter {
  private running = 0;
  private waiters = 0;
  private readonly lanes = new Map<string, Lane>();
  /** The lanes with calls waiting, served in turn from `turn`. */
  private readonly round: Lane[] = [];
  private turn = 0;

  /** `onWaited` is told how long each call that had to wait waited (ms), when it starts or leaves the queue. */
  constructor(
    readonly limit: number,
    readonly laneLimit: number = limit,
    private readonly onWaited?: (ms: number) => void,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a whole number >= 1');
    if (!Number.isInteger(laneLimit) || laneLimit < 1 || laneLimit > limit) {
      throw new RangeError('laneLimit must be a whole number from 1 to limit');
    }
  }

  /** Calls in flight now. */
  get active(): number {
    return this.running;
  }

  /** Calls waiting for a slot now (each once, however many lanes it waits in). */
  get waiting(): number {
    return this.waiters;
  }

  /** Calls of `lane` in flight now. */
  activeIn(lane: string): number {
    return this.lanes.get(lane)?.running ?? 0;
  }

  /** Calls waiting in `lane` now. */
  waitingIn(lane: string): number {
    return this.lanes.get(lane)?.queue.length ?? 0;
  }

  /**
   * Runs `task` in `lane` once it may; `task` is told whether it waited. When it has to wait,
   * `ticket.handle` is set to the waiting call (before `run` returns), for other lanes to join.
   */
  run<T>(lane: string, task: (waited: boolean) => Promise<T>, signal?: CallSignal, ticket?: QueueTicket): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const own = this.laneOf(lane);
    if (this.running < this.limit && own.running < this.laneLimit && own.queue.length === 0) {
      this.running++;
      own.running++;
      return this.execute(task, own, false);
    }
    return new Promise<T>((resolve, reject) => {
      const waiter = new Waiter(
        this,
        task,
        signal,
        own,
        this.onWaited ? performance.now() : 0,
        resolve as (value: unknown) => void,
        reject,
      );
      this.waiters++;
      this.enqueue(waiter, own);
      signal?.addEventListener('abort', waiter, ONCE);
      if (ticket) ticket.handle = waiter;
    });
  }

  /** QueuedCall.join. */
  join(waiter: Waiter, id: string): boolean {
    if (waiter.state !== WAITING) return false;
    const lane = this.laneOf(id);
    if (lane !== waiter.lane && !waiter.others?.includes(lane)) {
      (waiter.others ??= []).push(lane);
      this.enqueue(waiter, lane);
      // The joining lane may have room that the call's first lane had not.
      this.dispatch();
    }
    return waiter.state === WAITING;
  }

  /** A waiting call's signal aborted: it leaves every lane it waits in, never sent. */
  leave(waiter: Waiter): void {
    if (waiter.state !== WAITING) return;
    waiter.state = LEFT;
    this.waiters--;
    this.unqueue(waiter, undefined);
    this.onWaited?.(performance.now() - waiter.queuedAt);
    waiter.reject(abortReason(waiter.signal!));
  }

  /** A call of `lane` ended: its slot goes to the next lane in turn. */
  released(lane: Lane): void {
    this.running--;
    lane.running--;
    this.dispatch();
  }

  private laneOf(id: string): Lane {
    let lane = this.lanes.get(id);
    if (!lane) this.lanes.set(id, (lane = new Lane(this)));
    return lane;
  }

  private enqueue(waiter: Waiter, lane: Lane): void {
    lane.queue.push(waiter);
    if (!lane.inRound) {
      lane.inRound = true;
      this.round.push(lane);
    }
  }

  /** Removes the waiter from each lane it waits in but `except` (whose queue it has already left). */
  private unqueue(waiter: Waiter, except: Lane | undefined): void {
    if (waiter.lane !== except) remove(waiter.lane.queue, waiter);
    const others = waiter.others;
    if (others) for (let i = 0; i < others.length; i++) if (others[i] !== except) remove(others[i]!.queue, waiter);
  }

  /** Starts waiting calls while there are free slots and lanes under their limit with calls waiting. */
  private dispatch(): void {
    while (this.running < this.limit && this.round.length > 0) {
      const lane = this.nextLane();
      if (!lane) return;
      this.start(lane.queue.shift()!, lane);
    }
  }

  /**
   * The lane with a call waiting and room for it that holds the fewest slots, the first in turn
   * among equals; lanes found empty leave the round. A scan of the round: one lane per integrator
   * asking at once, a handful.
   */
  private nextLane(): Lane | undefined {
    const round = this.round;
    for (let i = round.length - 1; i >= 0; i--) {
      if (round[i]!.queue.length > 0) continue;
      round[i]!.inRound = false;
      round.splice(i, 1);
      if (i < this.turn) this.turn--;
    }
    const n = round.length;
    let best: Lane | undefined;
    let bestAt = 0;
    for (let k = 0; k < n; k++) {
      const at = (this.turn + k) % n;
      const lane = round[at]!;
      if (lane.running < this.laneLimit && (best === undefined || lane.running < best.running)) {
        best = lane;
        bestAt = at;
      }
    }
    if (best) this.turn = bestAt + 1;
    return best;
  }

  private start(waiter: Waiter, lane: Lane): void {
    waiter.state = STARTED;
    this.waiters--;
    this.unqueue(waiter, lane);
    waiter.signal?.removeEventListener('abort', waiter);
    this.onWaited?.(performance.now() - waiter.queuedAt);
    this.running++;
    lane.running++;
    this.execute(waiter.task, lane, true).then(waiter.resolve, waiter.reject);
  }

  /** The call, and its lane's slot freed once it ends: one reaction, not an async function per call. */
  private execute<T>(task: (waited: boolean) => Promise<T>, lane: Lane, waited: boolean): Promise<T> {
    let promise: Promise<T>;
    try {
      promise = task(waited);
    } catch (err) {
      lane.release();
      const failure = err as Error;
      return Promise.reject(failure);
    }
    promise.then(lane.release, lane.release);
    return promise;
  }
}

function remove(queue: Waiter[], waiter: Waiter): void {
  const at = queue.indexOf(waiter);
  if (at >= 0) queue.splice(at, 1);
}

export function abortReason(signal: { readonly reason: unknown }): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted', 'AbortError');
}
