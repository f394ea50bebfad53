import type { CatalogueService } from '../catalogue/service';
import { eligibleMethods } from '../catalogue/eligibility';
import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import { offerOutcomes, offerProviderSlow, offerQuoteDuration, offersPerRequest } from '../metrics/metrics';
import { amountLimits, decimal, roundDown, roundUp, type Decimal } from '../domain/money';
import type { CallSignal } from '../providers/kit/call-signal';
import type { ProviderRegistry } from '../providers/registry';
import { ProviderRejectedError, type ProviderAdapter, type ProviderQuote, type QuoteRequest } from '../providers/types';
import { coversFees, quoteAmounts, toOffer, type Offer, type OfferError, type OfferErrorBody, type QuoteAmounts } from './calculate';
import { QuoteFanout, type FanoutMetrics, type FanoutOptions, type Outcome as FanoutOutcome } from './fanout';
import { BUY_QUOTES, type ProviderQuoteCalls, type SentCalls } from './quote-calls';
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

/** The fan-out's settings (deadlines, concurrency, slow providers, breakers: ./fanout.ts), and what the buy side needs. */
export interface OffersServiceOptions extends Omit<FanoutOptions<QuoteRequest, ProviderQuote>, 'kind' | 'metrics'> {
  providers: ProviderRegistry;
  catalogues: CatalogueService;
  store: OfferStore;
  offerTtlSeconds: number;
}

export { LEFT_OUT_SLOW, leftOutUnavailable } from './fanout';

/** The on-ramp offers' metrics (docs/operations.md, "The metrics"). */
const BUY_OFFER_METRICS: FanoutMetrics = {
  quoteDuration: offerQuoteDuration,
  outcomes: offerOutcomes,
  slow: offerProviderSlow,
  perRequest: offersPerRequest,
};

/** A buy request as the fan-out hands it to each provider: the query, and its amount parsed once. */
interface Prepared {
  query: OffersQuery;
  amount: Decimal;
}

type Outcome = FanoutOutcome<Offer, OfferErrorBody>;

/**
 * Asks every eligible provider in parallel, each under its own deadline; a slow or failing one is
 * left out (the fan-out: ./fanout.ts). Within a provider, every payment method its catalogue allows
 * for the request is quoted at once; the offer carries the best method's amounts and every method's fee.
 */
export class OffersService {
  private readonly fanout: QuoteFanout<QuoteRequest, ProviderQuote, Prepared, Offer, OfferErrorBody>;
  private readonly calls: ProviderQuoteCalls<QuoteRequest, ProviderQuote>;
  private readonly now: () => number;

  constructor(private readonly options: OffersServiceOptions) {
    this.now = options.now ?? Date.now;
    this.fanout = new QuoteFanout({ ...options, kind: BUY_QUOTES, metrics: BUY_OFFER_METRICS }, (adapter, prepared, signal, sent) =>
      this.quoteProvider(adapter, prepared.query, prepared.amount, signal, sent),
    );
    this.calls = this.fanout.calls;
  }

  async getOffers(query: OffersQuery): Promise<OffersResult> {
    const { providerCodes } = query;
    const all = this.options.providers.all();
    const adapters = providerCodes ? all.filter((a) => providerCodes.includes(a.info.code)) : all;
    const result: OffersResult = await this.fanout.collect(adapters, { query, amount: decimal(query.amountFrom) }, query.integratorId);
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
