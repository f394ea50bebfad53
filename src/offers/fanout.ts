/**
 * The fan-out of an offers request, whichever side it quotes (buy offers: ./service.ts; sell offers:
 * ./sell-service.ts): every eligible provider asked in parallel, each under its own adaptive
 * deadline, a slow one left out (and probed now and then), one whose breaker is open left out
 * unasked. What a provider's outcome is (its eligibility, its quote calls, its offer) is the side's.
 */
import type { Counter, Gauge, Histogram } from 'prom-client';
import { PairCache } from '../metrics/label-cache';
import { CounterSeries, HistogramSeries } from '../metrics/series';
import { CallAborter, type CallSignal } from '../providers/kit/call-signal';
import type { ProviderAdapter } from '../providers/types';
import type { ProviderBreakers } from '../ranking/provider-breakers';
import { PROBE_LANE, ProviderQuoteCalls, type QuoteCallKind, type SentCalls } from './quote-calls';

/** Why the fan-out itself left a provider out: it timed out, or its breaker is open. */
export interface LeftOut {
  code: 'timeout' | 'provider_unavailable';
  message: string;
}

/** The error of a provider left out for timing out in recent requests. */
export const LEFT_OUT_SLOW: LeftOut = { code: 'timeout', message: 'left out: timed out in recent requests' };

/** The error of a provider left out because its breaker is open (its order creations have been failing). */
export function leftOutUnavailable(openUntil: number, now: number): LeftOut {
  const seconds = Math.max(1, Math.ceil((openUntil - now) / 1000));
  return { code: 'provider_unavailable', message: `left out: order creation failing, next probe in ${seconds} s` };
}

/**
 * One provider's part of a request: its offer or why it has none. `asked` is false when the provider
 * was ruled out before any quote (its catalogue, or none), or was left out while waiting because it
 * turned slow: such outcomes do not count for its health.
 */
export type Outcome<O, E> = ({ code: string; offer: O } | { code: string; error: E | LeftOut }) & { asked?: false };

/** What one request gathered: offers and the reasons of the providers left out, by provider code. */
export interface Gathered<O, E> {
  offers: Record<string, O>;
  errors: Record<string, { error: E | LeftOut }>;
}

/** The metrics of one side's offers, each labelled by provider (outcomes by reason too). */
export interface FanoutMetrics {
  quoteDuration: Histogram<'provider'>;
  outcomes: Counter<'provider' | 'reason'>;
  slow: Gauge<'provider'>;
  perRequest: Histogram<string>;
}

export interface FanoutOptions<Req, Quote> {
  kind: QuoteCallKind<Req, Quote>;
  metrics: FanoutMetrics;
  /** The longest a provider's quote is waited for: the deadline of a provider with no recent answers, and of a probe. */
  providerTimeoutMs: number;
  /** A provider's deadline is this many times the p99 of its recent answers (default 2)... */
  deadlineMultiplier?: number;
  /** ...and never below this (default 250 ms; at most providerTimeoutMs). */
  deadlineFloorMs?: number;
  /** Quote calls in flight to one provider from this process; more wait their turn within their deadline (default 64). */
  quoteConcurrency?: number;
  /** The share of those one integrator's calls may hold, 0 < share <= 1 (default 1: all; at least one call). */
  quoteIntegratorShare?: number;
  /** Timeouts in a row after which a provider stops holding answers (default 2). */
  slowAfterTimeouts?: number;
  /** How often a slow provider is given its full deadline again to show it has recovered (default 30 s). */
  slowProbeIntervalMs?: number;
  /** The providers' order-creation breakers: a provider whose breaker is open is left out, unasked. Absent: none. */
  breakers?: Pick<ProviderBreakers, 'openUntil'>;
  now?: () => number;
}

/** A side's outcome for one provider of a request (`prepared`), its calls listening on `signal`. */
export type QuoteProvider<P, O, E> = (adapter: ProviderAdapter, prepared: P, signal: CallSignal, sent: SentCalls) => Promise<Outcome<O, E>>;

interface ProviderHealth {
  timeoutsInARow: number;
  nextProbeAt: number;
}

/**
 * One request waiting for one provider, settled by whichever comes first: the answer, the deadline,
 * or the provider turning slow (one object and its timer, not a race of three promises: there is one
 * for every provider of every request). Giving up aborts the request's calls to the provider.
 */
class ProviderWait<O, E> {
  /** What the request's calls to the provider listen on (one per payment method, MoonPay has 11). */
  readonly calls = new CallAborter();
  readonly started = performance.now();
  private open = true;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly code: string,
    readonly ms: number,
    readonly sent: SentCalls,
    private readonly waiting: Set<ProviderWait<O, E>>,
    /** Records the outcome (the provider's health, its duration) before the request has it. */
    private readonly ended: (wait: ProviderWait<O, E>, outcome: Outcome<O, E>) => void,
    private readonly resolve: (outcome: Outcome<O, E>) => void,
    private readonly reject: (err: Error) => void,
  ) {
    waiting.add(this);
    this.timer = setTimeout(deadlinePassed, ms, this);
  }

  giveUp(outcome: Outcome<O, E>): void {
    if (this.end(false)) this.settle(outcome);
  }

  answered(outcome: Outcome<O, E>): void {
    if (this.end(true)) this.settle(outcome);
  }

  /** The request has the outcome once it is recorded; a recording that fails fails this request, not the process. */
  private settle(outcome: Outcome<O, E>): void {
    try {
      this.ended(this, outcome);
      this.resolve(outcome);
    } catch (err) {
      this.reject(err as Error);
    }
  }

  failed(err: Error): void {
    if (!this.end(false)) return;
    this.reject(err);
  }

  /** Whether it was still open: only the first of the three settles it. */
  private end(answered: boolean): boolean {
    if (!this.open) return false;
    this.open = false;
    clearTimeout(this.timer);
    this.waiting.delete(this);
    if (!answered) this.calls.abort();
    return true;
  }
}

/**
 * The deadline's timer fires in the timers phase, before the poll phase reads the sockets: an answer
 * that arrived during a stall of the event loop is read first (setImmediate runs after).
 */
function deadlinePassed<O, E>(wait: ProviderWait<O, E>): void {
  setImmediate(timedOut, wait);
}

function timedOut<O, E>(wait: ProviderWait<O, E>): void {
  wait.giveUp({ code: wait.code, error: { code: 'timeout', message: `no answer within ${wait.ms} ms` } });
}

/**
 * Asks every given provider in parallel, each under its own deadline; a slow or failing one is left
 * out. `quoteProvider` is the side's outcome for one provider; its quote calls go through `calls`.
 */
export class QuoteFanout<Req, Quote, P, O, E extends { code: string }> {
  readonly calls: ProviderQuoteCalls<Req, Quote>;
  private readonly health = new Map<string, ProviderHealth>();
  /** The requests waiting for each provider: released at once (left out) when it turns slow. */
  private readonly waiting = new Map<string, Set<ProviderWait<O, E>>>();
  /** Metric series, made once per provider (and outcome) and recorded in place by every request (src/metrics/series.ts). */
  private readonly quoteDurations = new Map<string, HistogramSeries>();
  private readonly outcomeCounts: PairCache<CounterSeries>;
  private readonly offeredCounts: HistogramSeries;
  private readonly now: () => number;
  private readonly slowAfterTimeouts: number;
  private readonly slowProbeIntervalMs: number;

  constructor(
    private readonly options: FanoutOptions<Req, Quote>,
    private readonly quoteProvider: QuoteProvider<P, O, E>,
  ) {
    this.now = options.now ?? Date.now;
    this.slowAfterTimeouts = options.slowAfterTimeouts ?? 2;
    this.slowProbeIntervalMs = options.slowProbeIntervalMs ?? 30_000;
    const maxMs = options.providerTimeoutMs;
    const concurrency = options.quoteConcurrency ?? 64;
    this.calls = new ProviderQuoteCalls(
      {
        concurrency,
        integratorConcurrency: Math.max(1, Math.floor(concurrency * (options.quoteIntegratorShare ?? 1))),
        deadline: { maxMs, floorMs: Math.min(options.deadlineFloorMs ?? 250, maxMs), multiplier: options.deadlineMultiplier ?? 2 },
      },
      options.kind,
    );
    const { outcomes } = options.metrics;
    this.outcomeCounts = new PairCache((provider, reason) => new CounterSeries(outcomes, { provider, reason }));
    this.offeredCounts = new HistogramSeries(options.metrics.perRequest);
  }

  /** Every provider's outcome for the request, in the order asked, as offers and errors; `lane` is the integrator's. */
  async collect(adapters: ProviderAdapter[], prepared: P, lane: string): Promise<Gathered<O, E>> {
    const outcomes = await this.gather(adapters, prepared, lane);
    const result: Gathered<O, E> = { offers: {}, errors: {} };
    let offered = 0;
    for (const outcome of outcomes) {
      if ('offer' in outcome) {
        if (!Object.hasOwn(result.offers, outcome.code)) offered++;
        result.offers[outcome.code] = outcome.offer;
      } else result.errors[outcome.code] = { error: outcome.error };
      this.outcomeCounts.get(outcome.code, 'offer' in outcome ? 'ok' : outcome.error.code).inc();
    }
    this.offeredCounts.observe(offered);
    return result;
  }

  private quoteDurationOf(code: string): HistogramSeries {
    let series = this.quoteDurations.get(code);
    if (!series) this.quoteDurations.set(code, (series = new HistogramSeries(this.options.metrics.quoteDuration, { provider: code })));
    return series;
  }

  /**
   * Each provider runs under its own deadline, which follows its recent latency (QuoteCalls,
   * AdaptiveDeadline): a provider turning slow costs a request a small multiple of its usual
   * latency, not the configured maximum. A provider that has been timing out ("slow") is left out
   * without being asked; now and then it is asked once in the background under the full maximum (a
   * probe, which no request waits for), and an answer in time makes it healthy again. When a
   * provider turns slow, every request still waiting for it stops waiting at once. When every
   * provider is slow, they are all asked, each under its own deadline, so that an answer is never
   * empty by default (and a provider that answers is healthy again).
   */
  private gather(all: ProviderAdapter[], prepared: P, lane: string): Promise<Outcome<O, E>[]> {
    // A provider whose orders would be refused (its breaker open) is neither asked nor offered.
    const outOfService: Promise<Outcome<O, E>>[] = [];
    const breakers = this.options.breakers;
    let adapters = all;
    if (breakers) {
      for (const adapter of all) {
        const code = adapter.info.code;
        const until = breakers.openUntil(code);
        if (until !== undefined) outOfService.push(Promise.resolve({ code, asked: false, error: leftOutUnavailable(until, this.now()) }));
      }
      if (outOfService.length > 0) adapters = all.filter((adapter) => breakers.openUntil(adapter.info.code) === undefined);
    }
    const states = adapters.map((a) => this.healthState(a.info.code));
    const allSlow = states.every((state) => state !== 'healthy');
    const asked = adapters.map((adapter, i): Promise<Outcome<O, E>> => {
      const state = allSlow ? 'healthy' : states[i];
      if (state === 'probe') this.probe(adapter, prepared);
      if (state !== 'healthy') return Promise.resolve({ code: adapter.info.code, error: LEFT_OUT_SLOW });
      return this.askWithin(adapter, prepared, lane);
    });
    return Promise.all(outOfService.length === 0 ? asked : [...outOfService, ...asked]);
  }

  /**
   * The provider's outcome within its deadline, or `timeout`; or left out as soon as it turns slow.
   * A quote given up on is aborted, unless another request shares it (QuoteCalls).
   */
  private askWithin(adapter: ProviderAdapter, prepared: P, lane: string): Promise<Outcome<O, E>> {
    const code = adapter.info.code;
    const ms = this.calls.deadlineMs(code);
    const sent = this.calls.sentCalls(code, lane);
    return new Promise<Outcome<O, E>>((resolve, reject) => {
      const wait = new ProviderWait<O, E>(code, ms, sent, this.waitingFor(code), this.waitEnded, resolve, reject);
      this.quoteProvider(adapter, prepared, wait.calls, sent).then(
        (outcome) => wait.answered(outcome),
        (err: Error) => wait.failed(err),
      );
    });
  }

  /** A provider's outcome for a request, recorded: its health and the time the request waited for it. */
  private readonly waitEnded = (wait: ProviderWait<O, E>, outcome: Outcome<O, E>): void => {
    const { code } = wait;
    // A timeout says nothing of the provider when the request's deadline was partly spent waiting
    // for a slot (behind the cap, not at the provider) or for its catalogue to load, or when the
    // provider answers calls sent after the request's (a straggler, a busy moment): none of these
    // counts towards its being slow.
    const excused =
      'error' in outcome && outcome.error.code === 'timeout' && (wait.sent.queued || this.calls.answeredAfter(code, wait.sent));
    if (!excused) this.recordOutcome(code, outcome, false, wait.ms);
    if (outcome.asked !== false) this.quoteDurationOf(code).observe((performance.now() - wait.started) / 1000);
  };

  private waitingFor(code: string): Set<ProviderWait<O, E>> {
    let waiting = this.waiting.get(code);
    if (!waiting) this.waiting.set(code, (waiting = new Set()));
    return waiting;
  }

  /** Healthy; slow; or slow and due for a probe, which moves its next probe on by the interval. */
  private healthState(code: string): 'healthy' | 'slow' | 'probe' {
    const health = this.health.get(code);
    if (!health || health.timeoutsInARow < this.slowAfterTimeouts) return 'healthy';
    if (this.now() < health.nextProbeAt) return 'slow';
    health.nextProbeAt = this.now() + this.slowProbeIntervalMs;
    return 'probe';
  }

  /**
   * Asks a slow provider once, under its own deadline and off the request's path; the quote is
   * thrown away, and whether it came in time is recorded as any request's would be.
   */
  private probe(adapter: ProviderAdapter, prepared: P): void {
    const code = adapter.info.code;
    const call = new AbortController();
    // In a lane of their own: a probe waits behind no integrator's queue.
    const sent = this.calls.sentCalls(code, PROBE_LANE);
    let timedOut = false;
    // Under the full maximum, whatever its recent deadline: a recovering provider can show it.
    const timer = setTimeout(() => {
      timedOut = true;
      call.abort();
    }, this.options.providerTimeoutMs);
    timer.unref();
    // A probe whose time ran out while it waited for a slot showed nothing either way.
    this.quoteProvider(adapter, prepared, call.signal, sent)
      .then(
        (outcome) => (timedOut && sent.queued ? undefined : this.recordOutcome(code, outcome, timedOut)),
        () => (timedOut && sent.queued ? undefined : this.record(code, timedOut)),
      )
      .finally(() => clearTimeout(timer))
      .catch(() => undefined);
  }

  /** A provider that was asked timed out or answered (an answer, a refusal or an error all count as answers). */
  private recordOutcome(code: string, outcome: Outcome<O, E>, timedOut = false, deadlineMs = this.options.providerTimeoutMs): void {
    if (outcome.asked !== false) this.record(code, timedOut || ('error' in outcome && outcome.error.code === 'timeout'), deadlineMs);
  }

  /**
   * A timeout under a deadline shorter than the maximum (an adaptive one) may be a moment of load
   * rather than a hung provider (a burst of requests on a busy machine): the first probe then comes
   * after the maximum deadline, not the whole probe interval, so a provider wrongly left out is back
   * within seconds. Timeouts under the maximum keep the interval.
   */
  private record(code: string, timedOut: boolean, deadlineMs = this.options.providerTimeoutMs): void {
    const known = this.health.get(code);
    const health = known ?? { timeoutsInARow: 0, nextProbeAt: 0 };
    const wasSlow = health.timeoutsInARow >= this.slowAfterTimeouts;
    health.timeoutsInARow = timedOut ? health.timeoutsInARow + 1 : 0;
    if (timedOut && health.nextProbeAt === 0) {
      const max = this.options.providerTimeoutMs;
      health.nextProbeAt = this.now() + (deadlineMs < max ? Math.min(max, this.slowProbeIntervalMs) : this.slowProbeIntervalMs);
    }
    if (!timedOut) health.nextProbeAt = 0;
    this.health.set(code, health);
    const slow = health.timeoutsInARow >= this.slowAfterTimeouts;
    if (slow && !wasSlow) this.releaseWaiting(code);
    // Back from being slow, perhaps at another speed: its deadline is learnt again from the maximum.
    if (wasSlow && !slow) this.calls.forgetLatency(code);
    if (slow !== wasSlow || !known) this.options.metrics.slow.set({ provider: code }, slow ? 1 : 0);
  }

  /** The provider has just turned slow: the requests still waiting for it leave it out now rather than at their deadline. */
  private releaseWaiting(code: string): void {
    const waiting = this.waiting.get(code);
    if (!waiting) return;
    for (const wait of [...waiting]) wait.giveUp({ code, asked: false, error: LEFT_OUT_SLOW });
    waiting.clear();
  }
}
