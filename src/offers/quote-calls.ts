import type { Counter, Gauge, Histogram } from 'prom-client';
import { offerProviderDeadline, providerQuoteQueueWait, providerQuotesCoalesced } from '../metrics/metrics';
import { ALL_QUOTE_FIELDS, quoteKeyOf } from '../providers/kit/quote-key';
import type { ProviderAdapter, ProviderQuote, QuoteRequest } from '../providers/types';
import { Coalescer, type SharedCall } from './coalescer';
import type { CallSignal } from '../providers/kit/call-signal';
import { AdaptiveDeadline, type DeadlineSettings } from './deadline';
import { FairShareLimiter, type QueuedCall } from './limiter';

export interface QuoteCallSettings {
  /** Quote calls in flight to one provider from this process (PROVIDER_QUOTE_CONCURRENCY). */
  concurrency: number;
  /** The most of them one integrator's calls may hold (PROVIDER_QUOTE_INTEGRATOR_SHARE of the cap, at least one; default all). */
  integratorConcurrency?: number;
  deadline: DeadlineSettings;
}

/** The metrics of one kind of quote call, each labelled by provider. */
export interface QuoteCallMetrics {
  deadline: Gauge<'provider'>;
  queueWait: Histogram<'provider'>;
  coalesced: Counter<'provider'>;
}

/**
 * One kind of quote call (a buy quote, a sell quote): what makes two calls identical, the call
 * itself, and the metrics it is counted in.
 */
export interface QuoteCallKind<Req, Quote> {
  key(adapter: ProviderAdapter, request: Req): string;
  call(adapter: ProviderAdapter, request: Req, signal: CallSignal): Promise<Quote>;
  metrics: QuoteCallMetrics;
}

/** Buy quotes (ProviderAdapter.getQuote), keyed by the adapter's quoteKey, or every field without one. */
export const BUY_QUOTES: QuoteCallKind<QuoteRequest, ProviderQuote> = {
  key: (adapter, request) => (adapter.quoteKey ? adapter.quoteKey(request) : quoteKeyOf(request, ALL_QUOTE_FIELDS)),
  call: (adapter, request, signal) => adapter.getQuote(request, signal),
  metrics: { deadline: offerProviderDeadline, queueWait: providerQuoteQueueWait, coalesced: providerQuotesCoalesced },
};

interface ProviderCalls<Quote> {
  labels: { provider: string };
  deadline: AdaptiveDeadline;
  limiter: FairShareLimiter;
  /** Each call's handle is its place in the limiter's queue while it waits; a joiner is the request joining. */
  coalescer: Coalescer<Quote, QueuedCall, SentCalls>;
  /** The deadline last exported, so that the gauge is set only when it changes. */
  exportedMs: number;
  /** The number the next call sent gets: calls are numbered in the order they are sent. */
  nextSeq: number;
  /** The number of the latest-sent call answered. */
  answeredSeq: number;
}

/**
 * One request's view of its calls to a provider: the number of the latest call it sent (or, before
 * it sent any, of the latest call sent before it asked), and whether any of them had to wait for a
 * slot. QuoteCalls.quote moves it on.
 */
export interface SentCalls {
  /** Whose share of the provider's cap its calls use: its integrator's id (or PROBE_LANE). */
  readonly lane: string;
  lastSeq: number;
  /**
   * One of its calls waited for a slot (its own, or another's it joined while that one waited), or
   * the request waited for the provider's catalogue to load (OffersService): its deadline was partly
   * spent elsewhere than at the provider, so its timing out says nothing of the provider.
   */
  queued: boolean;
}

/** The lane of the probes of slow providers: no integrator's (not a valid integrator id). */
export const PROBE_LANE = '(probe)';

/**
 * Every quote call the offers services make goes through here, per provider and kind of quote (buy
 * quotes: QuoteCalls; sell quotes: src/offers/sell-service.ts): identical calls in
 * flight are made once (the adapter's quoteKey says what is identical on the wire), at most
 * `concurrency` calls are in flight, shared out fairly among integrators (the rest wait their turn
 * in their integrator's lane within their caller's deadline: FairShareLimiter), and each sent
 * call's own time (never its wait for a slot) feeds the provider's adaptive deadline.
 *
 * A call shared by several integrators' requests waits in the lane of each of them that joined it
 * while it waited, and is sent on the first of their turns, using that integrator's share: a burst
 * of one integrator cannot hold back another's identical quote behind its own queue.
 */
export class ProviderQuoteCalls<Req, Quote> {
  private readonly providers = new Map<string, ProviderCalls<Quote>>();

  constructor(
    private readonly settings: QuoteCallSettings,
    private readonly kind: QuoteCallKind<Req, Quote>,
  ) {}

  /** The deadline of the provider's next request, in milliseconds. */
  deadlineMs(code: string): number {
    const calls = this.of(code);
    const ms = calls.deadline.deadlineMs();
    if (ms !== calls.exportedMs) {
      calls.exportedMs = ms;
      this.kind.metrics.deadline.set(calls.labels, ms / 1000);
    }
    return ms;
  }

  /** A request's record of its calls to the provider, before it makes any: calls sent until now are not its own. */
  sentCalls(code: string, lane: string): SentCalls {
    return { lane, lastSeq: this.of(code).nextSeq - 1, queued: false };
  }

  /**
   * Whether the provider has answered a call sent after every call of `sent`: it is answering fresh
   * calls, so a request whose own calls timed out met a straggler, not a hung provider. The request's
   * own answered calls never count (a provider quoting one method fast and hanging on another is slow).
   */
  answeredAfter(code: string, sent: SentCalls): boolean {
    return this.of(code).answeredSeq > sent.lastSeq;
  }

  /** Forgets the provider's latencies (it is back from being slow, perhaps at another speed): its deadline is the maximum again. */
  forgetLatency(code: string): void {
    this.of(code).deadline.reset();
  }

  /**
   * One quote, made or shared. `signal` is the caller's: when it aborts, the caller stops waiting,
   * and the call itself is aborted only if no other caller waits for it.
   */
  quote(adapter: ProviderAdapter, request: Req, signal: CallSignal, sent: SentCalls): Promise<Quote> {
    const code = adapter.info.code;
    const calls = this.of(code);
    const key = this.kind.key(adapter, request);
    return calls.coalescer.run(key, (shared, call) => this.send(adapter, calls, request, shared, call, sent), signal, sent);
  }

  /** The call made in its first caller's lane; `call.handle` is its place in the queue if it has to wait. */
  private send(
    adapter: ProviderAdapter,
    calls: ProviderCalls<Quote>,
    request: Req,
    signal: CallSignal,
    call: SharedCall<QueuedCall>,
    sent: SentCalls,
  ): Promise<Quote> {
    // Only calls that wait are timed, by the limiter (when they start or leave the queue): the common case costs nothing.
    const answer = calls.limiter.run(sent.lane, (waited) => this.make(adapter, calls, request, signal, sent, waited), signal, call);
    if (call.handle !== undefined) sent.queued = true;
    return answer;
  }

  private async make(
    adapter: ProviderAdapter,
    calls: ProviderCalls<Quote>,
    request: Req,
    signal: CallSignal,
    sent: SentCalls,
    waited: boolean,
  ): Promise<Quote> {
    const seq = calls.nextSeq++;
    if (seq > sent.lastSeq) sent.lastSeq = seq;
    const started = performance.now();
    let quote: Quote;
    try {
      quote = await this.kind.call(adapter, request, signal);
    } catch (err) {
      // A call cut short by its deadline took at least that long: counted, so that a slow mode the
      // deadline cuts off raises the deadline instead of staying unseen below it. Not a call that
      // waited for its slot: its deadline was partly spent in the queue, and the time it ran is no
      // measure of the provider.
      if (signal.aborted && !waited) calls.deadline.record(performance.now() - started);
      throw err;
    }
    calls.deadline.record(performance.now() - started);
    if (seq > calls.answeredSeq) calls.answeredSeq = seq;
    return quote;
  }

  private of(code: string): ProviderCalls<Quote> {
    let calls = this.providers.get(code);
    if (!calls) {
      // One label object per provider, reused by every observation.
      const labels = { provider: code };
      const { concurrency, integratorConcurrency } = this.settings;
      const { queueWait, coalesced } = this.kind.metrics;
      calls = {
        labels,
        deadline: new AdaptiveDeadline(this.settings.deadline),
        limiter: new FairShareLimiter(concurrency, Math.min(concurrency, integratorConcurrency ?? concurrency), (ms) =>
          queueWait.observe(labels, ms / 1000),
        ),
        coalescer: new Coalescer<Quote, QueuedCall, SentCalls>((queued, joiner) => {
          coalesced.inc(labels);
          // Joining a call that still waits: it waits in the joiner's lane too, and the joiner waited.
          if (queued !== undefined && joiner !== undefined && queued.join(joiner.lane)) joiner.queued = true;
        }),
        exportedMs: NaN,
        nextSeq: 0,
        answeredSeq: -1,
      };
      this.providers.set(code, calls);
    }
    return calls;
  }
}

/** The buy quotes' calls (QuoteCalls of the on-ramp offers). */
export class QuoteCalls extends ProviderQuoteCalls<QuoteRequest, ProviderQuote> {
  constructor(settings: QuoteCallSettings) {
    super(settings, BUY_QUOTES);
  }
}
