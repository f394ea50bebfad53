import type { CatalogueService } from '../catalogue/service';
import { eligibleMethods } from '../catalogue/eligibility';
import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import { offerOutcomes, offerProviderSlow, offerQuoteDuration, offersPerRequest } from '../metrics/metrics';
import { PairCache } from '../metrics/label-cache';
import { CounterSeries, HistogramSeries } from '../metrics/series';
import { amountLimits, decimal, roundDown, roundUp, type Decimal } from '../domain/money';
import { CallAborter, type CallSignal } from '../providers/kit/call-signal';
import type { ProviderRegistry } from '../providers/registry';
import type { ProviderBreakers } from '../ranking/provider-breakers';
import { ProviderRejectedError, type ProviderAdapter, type ProviderQuote, type QuoteRequest } from '../providers/types';
import { coversFees, quoteAmounts, toOffer, type Offer, type OfferError, type OfferErrorBody, type QuoteAmounts } from './calculate';
import { PROBE_LANE, QuoteCalls, type SentCalls } from './quote-calls';
import { REMEMBERED, type OfferStore } from './store';

export interface OffersQuery {
  integratorId: string;
  externalUserId: string;
  fiat: FiatCurrency;
  crypto: CryptoCurrency;
  amountFrom: string;
  country: string;
  state?: string;
  ip?: string;
  paymentMethod?: string;
  providerCodes?: string[];
}

export interface OffersResult {
  offers: Record<string, Offer>;
  errors: Record<string, OfferError>;
}

export interface OffersServiceOptions {
  providers: ProviderRegistry;
  catalogues: CatalogueService;
  store: OfferStore;
  offerTtlSeconds: number;
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

interface ProviderHealth {
  timeoutsInARow: number;
  nextProbeAt: number;
}

/** The error of a provider left out for timing out in recent requests. */
export const LEFT_OUT_SLOW: OfferErrorBody = { code: 'timeout', message: 'left out: timed out in recent requests' };

/** The error of a provider left out because its breaker is open (its order creations have been failing). */
export function leftOutUnavailable(openUntil: number, now: number): OfferErrorBody {
  const seconds = Math.max(1, Math.ceil((openUntil - now) / 1000));
  return { code: 'provider_unavailable', message: `left out: order creation failing, next probe in ${seconds} s` };
}

/**
 * `asked` is false when the provider was ruled out before any quote (its catalogue, or none), or
 * was left out while waiting because it turned slow: such outcomes do not count for its health.
 */
type Outcome = ({ code: string; offer: Offer } | { code: string; error: OfferErrorBody }) & { asked?: false };

/**
 * One request waiting for one provider, settled by whichever comes first: the answer, the deadline,
 * or the provider turning slow (one object and its timer, not a race of three promises: there is one
 * for every provider of every request). Giving up aborts the request's calls to the provider.
 */
class ProviderWait {
  /** What the request's calls to the provider listen on (one per payment method, MoonPay has 11). */
  readonly calls = new CallAborter();
  readonly started = performance.now();
  private open = true;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly code: string,
    readonly ms: number,
    readonly sent: SentCalls,
    private readonly waiting: Set<ProviderWait>,
    /** Records the outcome (the provider's health, its duration) before the request has it. */
    private readonly ended: (wait: ProviderWait, outcome: Outcome) => void,
    private readonly resolve: (outcome: Outcome) => void,
    private readonly reject: (err: Error) => void,
  ) {
    waiting.add(this);
    this.timer = setTimeout(deadlinePassed, ms, this);
  }

  giveUp(outcome: Outcome): void {
    if (this.end(false)) this.settle(outcome);
  }

  answered(outcome: Outcome): void {
    if (this.end(true)) this.settle(outcome);
  }

  /** The request has the outcome once it is recorded; a recording that fails fails this request, not the process. */
  private settle(outcome: Outcome): void {
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
function deadlinePassed(wait: ProviderWait): void {
  setImmediate(timedOut, wait);
}

function timedOut(wait: ProviderWait): void {
  wait.giveUp({ code: wait.code, error: { code: 'timeout', message: `no answer within ${wait.ms} ms` } });
}

/**
 * Asks every eligible provider in parallel, each under its own deadline; a slow or failing one is
 * left out. Within a provider, every payment method its catalogue allows for the request is quoted
 * at once; the offer carries the best method's amounts and every method's fee.
 */
export class OffersService {
  private readonly health = new Map<string, ProviderHealth>();
  /** The requests waiting for each provider: released at once (left out) when it turns slow. */
  private readonly waiting = new Map<string, Set<ProviderWait>>();
  private readonly calls: QuoteCalls;
  /** Metric series, made once per provider (and outcome) and recorded in place by every request (src/metrics/series.ts). */
  private readonly quoteDurations = new Map<string, HistogramSeries>();
  private readonly outcomeCounts = new PairCache((provider, reason) => new CounterSeries(offerOutcomes, { provider, reason }));
  private readonly offeredCounts = new HistogramSeries(offersPerRequest);
  private readonly now: () => number;
  private readonly slowAfterTimeouts: number;
  private readonly slowProbeIntervalMs: number;

  constructor(private readonly options: OffersServiceOptions) {
    this.now = options.now ?? Date.now;
    this.slowAfterTimeouts = options.slowAfterTimeouts ?? 2;
    this.slowProbeIntervalMs = options.slowProbeIntervalMs ?? 30_000;
    const maxMs = options.providerTimeoutMs;
    const concurrency = options.quoteConcurrency ?? 64;
    this.calls = new QuoteCalls({
      concurrency,
      integratorConcurrency: Math.max(1, Math.floor(concurrency * (options.quoteIntegratorShare ?? 1))),
      deadline: { maxMs, floorMs: Math.min(options.deadlineFloorMs ?? 250, maxMs), multiplier: options.deadlineMultiplier ?? 2 },
    });
  }

  async getOffers(query: OffersQuery): Promise<OffersResult> {
    const { providerCodes } = query;
    const all = this.options.providers.all();
    const adapters = providerCodes ? all.filter((a) => providerCodes.includes(a.info.code)) : all;
    const outcomes = await this.gather(adapters, query);
    const result: OffersResult = { offers: {}, errors: {} };
    let offered = 0;
    for (const outcome of outcomes) {
      if ('offer' in outcome) {
        if (!Object.hasOwn(result.offers, outcome.code)) offered++;
        result.offers[outcome.code] = outcome.offer;
      } else result.errors[outcome.code] = { error: outcome.error };
      this.outcomeCounts.get(outcome.code, 'offer' in outcome ? 'ok' : outcome.error.code).inc();
    }
    this.offeredCounts.observe(offered);
    // Only a store that has something to wait for (Redis) is waited for: the memory store's answer is
    // REMEMBERED, already resolved, and waiting for it would cost a Promise.all per request.
    let remembered: Promise<void>[] | undefined;
    for (const code in result.offers) {
      const stored = this.remember(query, code, result.offers[code]!);
      if (stored !== REMEMBERED) (remembered ??= []).push(stored);
    }
    if (remembered) await Promise.all(remembered);
    return result;
  }

  private quoteDurationOf(code: string): HistogramSeries {
    let series = this.quoteDurations.get(code);
    if (!series) this.quoteDurations.set(code, (series = new HistogramSeries(offerQuoteDuration, { provider: code })));
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
  private gather(all: ProviderAdapter[], query: OffersQuery): Promise<Outcome[]> {
    // A provider whose orders would be refused (its breaker open) is neither asked nor offered.
    const outOfService: Promise<Outcome>[] = [];
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
    const amount = decimal(query.amountFrom);
    const asked = adapters.map((adapter, i): Promise<Outcome> => {
      const state = allSlow ? 'healthy' : states[i];
      if (state === 'probe') this.probe(adapter, query, amount);
      if (state !== 'healthy') return Promise.resolve({ code: adapter.info.code, error: LEFT_OUT_SLOW });
      return this.askWithin(adapter, query, amount);
    });
    return Promise.all(outOfService.length === 0 ? asked : [...outOfService, ...asked]);
  }

  /**
   * The provider's outcome within its deadline, or `timeout`; or left out as soon as it turns slow.
   * A quote given up on is aborted, unless another request shares it (QuoteCalls).
   */
  private askWithin(adapter: ProviderAdapter, query: OffersQuery, amount: Decimal): Promise<Outcome> {
    const code = adapter.info.code;
    const ms = this.calls.deadlineMs(code);
    const sent = this.calls.sentCalls(code, query.integratorId);
    return new Promise<Outcome>((resolve, reject) => {
      const wait = new ProviderWait(code, ms, sent, this.waitingFor(code), this.waitEnded, resolve, reject);
      this.quoteProvider(adapter, query, amount, wait.calls, sent).then(
        (outcome) => wait.answered(outcome),
        (err: Error) => wait.failed(err),
      );
    });
  }

  /** A provider's outcome for a request, recorded: its health and the time the request waited for it. */
  private readonly waitEnded = (wait: ProviderWait, outcome: Outcome): void => {
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

  private waitingFor(code: string): Set<ProviderWait> {
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
  private probe(adapter: ProviderAdapter, query: OffersQuery, amount: Decimal): void {
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
    this.quoteProvider(adapter, query, amount, call.signal, sent)
      .then(
        (outcome) => (timedOut && sent.queued ? undefined : this.recordOutcome(code, outcome, timedOut)),
        () => (timedOut && sent.queued ? undefined : this.record(code, timedOut)),
      )
      .finally(() => clearTimeout(timer))
      .catch(() => undefined);
  }

  /** A provider that was asked timed out or answered (an answer, a refusal or an error all count as answers). */
  private recordOutcome(code: string, outcome: Outcome, timedOut = false, deadlineMs = this.options.providerTimeoutMs): void {
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
    if (slow !== wasSlow || !known) offerProviderSlow.set({ provider: code }, slow ? 1 : 0);
  }

  /** The provider has just turned slow: the requests still waiting for it leave it out now rather than at their deadline. */
  private releaseWaiting(code: string): void {
    const waiting = this.waiting.get(code);
    if (!waiting) return;
    for (const wait of [...waiting]) wait.giveUp({ code, asked: false, error: LEFT_OUT_SLOW });
    waiting.clear();
  }

  private async quoteProvider(
    adapter: ProviderAdapter,
    query: OffersQuery,
    amount: Decimal,
    signal: CallSignal,
    sent: SentCalls,
  ): Promise<Outcome> {
    const code = adapter.info.code;
    // A catalogue in the cache is read without a promise (every provider of every request reads one).
    let catalogue = this.options.catalogues.cached(code);
    if (!catalogue) {
      // Loading it (up to CATALOGUE_TIMEOUT_MS) spends the deadline off the provider's quote, as a wait for a slot does.
      sent.queued = true;
      catalogue = await this.options.catalogues.get(code);
    }
    if (!catalogue) return { code, asked: false, error: { code: 'unavailable', message: 'the provider catalogue is not available' } };
    const methods = eligibleMethods(catalogue, {
      fiat: query.fiat,
      crypto: query.crypto.id,
      amount,
      country: query.country,
      state: query.state,
      paymentMethod: query.paymentMethod,
    });
    if (!Array.isArray(methods)) return { code, asked: false, error: methods };
    // Its quote needs no IP, but its order does: an offer without one could not be ordered.
    if (adapter.requiresCustomerIp && query.ip === undefined) {
      return { code, asked: false, error: { code: 'ip_required', message: "this provider needs the end user's IP address: send `ip`" } };
    }

    // One method (the common case): one call, and its offer is the provider's as it is.
    if (methods.length === 1) {
      let quote: ProviderQuote;
      try {
        quote = await this.calls.quote(adapter, quoteRequest(query, methods[0]!.code), signal, sent);
      } catch (reason) {
        return { code, error: inFiat(failureOf([{ status: 'rejected', reason }]), query.fiat) };
      }
      return this.oneMethodOutcome(code, quote, query, amount);
    }
    const settled = await Promise.allSettled(
      methods.map((method) => this.calls.quote(adapter, quoteRequest(query, method.code), signal, sent)),
    );
    let ttlEnd: number | undefined;
    const offers: Offer[] = [];
    for (const s of settled) {
      if (s.status !== 'fulfilled') continue;
      const quote = s.value;
      const amounts = quoteAmounts(quote, query.amountFrom);
      if (!coversFees(amounts, amount)) continue;
      ttlEnd ??= this.ttlEnd();
      offers.push(offerOf(quote, amounts, query, amount, ttlEnd));
    }
    if (offers.length === 0) return { code, error: inFiat(failureOf(settled), query.fiat) };

    const best = offers.reduce((a, b) => (decimal(b.amount_expected_to).gt(a.amount_expected_to) ? b : a));
    if (offers.length === 1) return { code, offer: best };
    const paymentMethods = offers
      .map((o) => o.payment_methods[0]!)
      .sort((a, b) => decimal(a.fee).comparedTo(b.fee) || a.payment_method_code.localeCompare(b.payment_method_code));
    const expiresAt = offers.map((o) => o.expires_at).reduce((a, b) => (b < a ? b : a));
    return { code, offer: { ...best, payment_methods: paymentMethods, expires_at: expiresAt } };
  }

  /** quoteProvider's outcome for a provider with one eligible method, without the arrays of several. */
  private oneMethodOutcome(code: string, quote: ProviderQuote, query: OffersQuery, amount: Decimal): Outcome {
    const amounts = quoteAmounts(quote, query.amountFrom);
    if (!coversFees(amounts, amount)) return { code, error: inFiat(failureOf([]), query.fiat) };
    return { code, offer: offerOf(quote, amounts, query, amount, this.ttlEnd()) };
  }

  /** When an offer made now expires at the latest (OFFER_TTL_SECONDS). */
  private ttlEnd(): number {
    return this.now() + this.options.offerTtlSeconds * 1000;
  }

  private remember(query: OffersQuery, providerCode: string, offer: Offer): Promise<void> {
    return this.options.store.remember({
      integratorId: query.integratorId,
      externalUserId: query.externalUserId,
      providerCode,
      fromCurrency: query.fiat.id,
      toCurrency: query.crypto.id,
      amountFrom: query.amountFrom,
      country: query.country,
      state: query.state,
      paymentMethod: query.paymentMethod,
      paymentMethods: offer.payment_methods.map((m) => m.payment_method_code),
      amountExpectedTo: offer.amount_expected_to,
      totalFeeAmount: offer.total_fee_amount,
      expiresAt: offer.expires_at,
      ip: query.ip,
    });
  }
}

/**
 * A provider's refusal for limits, restated in the fiat currency (amountLimits) where it gave both
 * ends; a single end is still written at the currency's precision.
 */
function inFiat(error: OfferErrorBody, fiat: FiatCurrency): OfferErrorBody {
  if (error.code === 'limits' && error.min_amount !== undefined && error.max_amount !== undefined) {
    const range = amountLimits(error.min_amount, error.max_amount, fiat);
    return { ...error, message: range.message, min_amount: range.min, max_amount: range.max };
  }
  return {
    ...error,
    ...(error.min_amount === undefined ? {} : { min_amount: roundUp(decimal(error.min_amount), fiat.precision) }),
    ...(error.max_amount === undefined ? {} : { max_amount: roundDown(decimal(error.max_amount), fiat.precision) }),
  };
}

/** A quote's offer (its fees covered), expiring at `ttlEnd` or sooner where the provider's quote expires sooner. */
function offerOf(quote: ProviderQuote, amounts: QuoteAmounts, query: OffersQuery, amount: Decimal, ttlEnd: number): Offer {
  const expiresAt = new Date(Math.min(ttlEnd, quote.expiresAt?.getTime() ?? ttlEnd));
  return toOffer(quote, query.fiat, query.crypto, amount, expiresAt, amounts);
}

/** What a provider's quote call asks for one payment method. */
function quoteRequest(query: OffersQuery, paymentMethod: string): QuoteRequest {
  return {
    fiat: query.fiat,
    crypto: query.crypto,
    fiatAmount: query.amountFrom,
    paymentMethod,
    country: query.country,
    state: query.state,
    ip: query.ip,
    externalUserId: query.externalUserId,
  };
}

function failureOf(settled: PromiseSettledResult<ProviderQuote>[]): OfferErrorBody {
  const reasons = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  const rejection = reasons.find((r): r is ProviderRejectedError => r instanceof ProviderRejectedError);
  if (rejection) {
    const code = rejection.code === 'rejected' || rejection.code === 'not_found' ? 'unavailable' : rejection.code;
    return {
      code,
      message: rejection.message,
      ...(rejection.details.minAmount ? { min_amount: rejection.details.minAmount } : {}),
      ...(rejection.details.maxAmount ? { max_amount: rejection.details.maxAmount } : {}),
    };
  }
  if (reasons.length === 0) return { code: 'limits', message: 'the amount does not cover the provider fees' };
  return { code: 'unavailable', message: (reasons[0] as Error).message };
}
