import { setMaxListeners } from 'node:events';
import type { CatalogueService } from '../catalogue/service';
import { eligibleMethods } from '../catalogue/eligibility';
import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import { offerOutcomes, offerProviderSlow, offerQuoteDuration, offersPerRequest } from '../metrics/metrics';
import { amountLimits, decimal, roundDown, roundUp, type Decimal } from '../domain/money';
import type { ProviderRegistry } from '../providers/registry';
import { ProviderRejectedError, type ProviderAdapter, type ProviderQuote } from '../providers/types';
import { coversFees, quoteAmounts, toOffer, type Offer, type OfferError, type OfferErrorBody } from './calculate';
import type { OfferStore } from './store';

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
  providerTimeoutMs: number;
  /** Timeouts in a row after which a provider stops holding answers (default 2). */
  slowAfterTimeouts?: number;
  /** How often a slow provider is given its full deadline again to show it has recovered (default 30 s). */
  slowProbeIntervalMs?: number;
  now?: () => number;
}

interface ProviderHealth {
  timeoutsInARow: number;
  nextProbeAt: number;
}

/** `asked` is false when the provider was ruled out before any quote (its catalogue, or none). */
type Outcome = ({ code: string; offer: Offer } | { code: string; error: OfferErrorBody }) & { asked?: false };

/**
 * Asks every eligible provider in parallel, each under its own deadline; a slow or failing one is
 * left out. Within a provider, every payment method its catalogue allows for the request is quoted
 * at once; the offer carries the best method's amounts and every method's fee.
 */
export class OffersService {
  private readonly health = new Map<string, ProviderHealth>();
  private readonly now: () => number;
  private readonly slowAfterTimeouts: number;
  private readonly slowProbeIntervalMs: number;

  constructor(private readonly options: OffersServiceOptions) {
    this.now = options.now ?? Date.now;
    this.slowAfterTimeouts = options.slowAfterTimeouts ?? 2;
    this.slowProbeIntervalMs = options.slowProbeIntervalMs ?? 30_000;
  }

  async getOffers(query: OffersQuery): Promise<OffersResult> {
    const adapters = this.options.providers.all().filter((a) => !query.providerCodes || query.providerCodes.includes(a.info.code));
    const outcomes = await this.gather(adapters, query);
    const result: OffersResult = { offers: {}, errors: {} };
    for (const outcome of outcomes) {
      if ('offer' in outcome) result.offers[outcome.code] = outcome.offer;
      else result.errors[outcome.code] = { error: outcome.error };
      offerOutcomes.inc({ provider: outcome.code, reason: 'offer' in outcome ? 'ok' : outcome.error.code });
    }
    offersPerRequest.observe(Object.keys(result.offers).length);
    await Promise.all(Object.entries(result.offers).map(([code, offer]) => this.remember(query, code, offer)));
    return result;
  }

  /**
   * Every provider runs under the same deadline, started for all at once: one timer, which aborts
   * the calls still in flight when it fires. A provider that has been timing out ("slow") is left
   * out without being asked; now and then it is asked once in the background (a probe, which no
   * request waits for), and an answer in time makes it healthy again. When every provider is slow,
   * they are all asked and waited for, so that an answer is never empty by default.
   */
  private async gather(adapters: ProviderAdapter[], query: OffersQuery): Promise<Outcome[]> {
    const states = new Map(adapters.map((a) => [a.info.code, this.healthState(a.info.code)]));
    const allSlow = [...states.values()].every((state) => state !== 'healthy');
    const ms = this.options.providerTimeoutMs;
    const amount = decimal(query.amountFrom);
    const calls = new AbortController();
    // Every quote call in flight listens on this one signal: providers x methods may be many more than
    // the default of 10 listeners, which is no leak (each call removes its listener when it ends).
    setMaxListeners(Number.POSITIVE_INFINITY, calls.signal);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        calls.abort();
        resolve();
      }, ms);
    });
    try {
      return await Promise.all(
        adapters.map(async (adapter): Promise<Outcome> => {
          const code = adapter.info.code;
          const state = allSlow ? 'healthy' : states.get(code);
          if (state === 'probe') this.probe(adapter, query, amount);
          if (state !== 'healthy') return { code, error: { code: 'timeout', message: 'left out: timed out in recent requests' } };
          const started = performance.now();
          const outcome = await Promise.race([
            this.quoteProvider(adapter, query, amount, calls.signal),
            deadline.then((): Outcome => ({ code, error: { code: 'timeout', message: `no answer within ${ms} ms` } })),
          ]);
          this.recordOutcome(code, outcome);
          if (outcome.asked !== false) offerQuoteDuration.observe({ provider: code }, (performance.now() - started) / 1000);
          return outcome;
        }),
      );
    } finally {
      clearTimeout(timer);
    }
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
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      call.abort();
    }, this.options.providerTimeoutMs);
    timer.unref();
    this.quoteProvider(adapter, query, amount, call.signal)
      .then(
        (outcome) => this.recordOutcome(code, outcome, timedOut),
        () => this.record(code, timedOut),
      )
      .finally(() => clearTimeout(timer))
      .catch(() => undefined);
  }

  /** A provider that was asked timed out or answered (an answer, a refusal or an error all count as answers). */
  private recordOutcome(code: string, outcome: Outcome, timedOut = false): void {
    if (outcome.asked !== false) this.record(code, timedOut || ('error' in outcome && outcome.error.code === 'timeout'));
  }

  private record(code: string, timedOut: boolean): void {
    const health = this.health.get(code) ?? { timeoutsInARow: 0, nextProbeAt: 0 };
    health.timeoutsInARow = timedOut ? health.timeoutsInARow + 1 : 0;
    if (timedOut && health.nextProbeAt === 0) health.nextProbeAt = this.now() + this.slowProbeIntervalMs;
    if (!timedOut) health.nextProbeAt = 0;
    this.health.set(code, health);
    offerProviderSlow.set({ provider: code }, health.timeoutsInARow >= this.slowAfterTimeouts ? 1 : 0);
  }

  private async quoteProvider(adapter: ProviderAdapter, query: OffersQuery, amount: Decimal, signal: AbortSignal): Promise<Outcome> {
    const code = adapter.info.code;
    const catalogue = await this.options.catalogues.get(code);
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

    const settled = await Promise.allSettled(
      methods.map((method) =>
        adapter.getQuote(
          {
            fiat: query.fiat,
            crypto: query.crypto,
            fiatAmount: query.amountFrom,
            paymentMethod: method.code,
            country: query.country,
            state: query.state,
            ip: query.ip,
            externalUserId: query.externalUserId,
          },
          signal,
        ),
      ),
    );
    const quotes = settled.flatMap((s) => {
      if (s.status !== 'fulfilled') return [];
      const amounts = quoteAmounts(s.value);
      return coversFees(amounts, amount) ? [{ quote: s.value, amounts }] : [];
    });
    if (quotes.length === 0) return { code, error: inFiat(failureOf(settled), query.fiat) };

    const ttlEnd = this.now() + this.options.offerTtlSeconds * 1000;
    const offers = quotes.map(({ quote, amounts }) =>
      toOffer(quote, query.fiat, query.crypto, amount, new Date(Math.min(ttlEnd, quote.expiresAt?.getTime() ?? ttlEnd)), amounts),
    );
    const best = offers.reduce((a, b) => (decimal(b.amount_expected_to).gt(a.amount_expected_to) ? b : a));
    const paymentMethods = offers
      .map((o) => o.payment_methods[0]!)
      .sort((a, b) => decimal(a.fee).comparedTo(b.fee) || a.payment_method_code.localeCompare(b.payment_method_code));
    const expiresAt = offers.map((o) => o.expires_at).reduce((a, b) => (b < a ? b : a));
    return { code, offer: { ...best, payment_methods: paymentMethods, expires_at: expiresAt } };
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
