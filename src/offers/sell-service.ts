/**
 * Sell (off-ramp) offers: every provider with a sell adapter asked in parallel through the same
 * fan-out as buy offers (./fanout.ts: adaptive deadlines, slow providers left out and probed, open
 * breakers left out, coalesced calls under the per-provider cap), each offer remembered in the offer
 * store under its sell key until it expires, for the sell order to be matched against.
 */
import type { SellCatalogueService } from '../catalogue/sell-service';
import { eligiblePayoutMethods, payoutOutside } from '../catalogue/sell-eligibility';
import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import { amountLimits, decimal, roundDown, roundUp, type Decimal } from '../domain/money';
import {
  sellOfferOutcomes,
  sellOfferProviderDeadline,
  sellOfferProviderSlow,
  sellOfferQuoteDuration,
  sellOffersPerRequest,
  sellProviderQuoteQueueWait,
  sellProviderQuotesCoalesced,
} from '../metrics/metrics';
import type { CallSignal } from '../providers/kit/call-signal';
import type { ProviderRegistry } from '../providers/registry';
import type { SellQuote, SellQuoteRequest } from '../providers/sell-types';
import { ProviderRejectedError, type ProviderAdapter } from '../providers/types';
import { QuoteFanout, type FanoutOptions, type Outcome as FanoutOutcome } from './fanout';
import type { QuoteCallKind, SentCalls } from './quote-calls';
import { paysOut, sellAmounts, toSellOffer, type SellOffer, type SellOfferError, type SellOfferErrorBody } from './sell-calculate';
import { REMEMBERED, type OfferStore } from './store';

export interface SellOffersQuery {
  integratorId: string;
  externalUserId: string;
  crypto: CryptoCurrency;
  fiat: FiatCurrency;
  /** The crypto amount sold, a decimal string at most the crypto currency's precision. */
  amountFrom: string;
  country: string;
  state?: string;
  ip?: string;
  payoutMethod?: string;
  providerCodes?: string[];
}

export interface SellOffersResult {
  /** By provider code, the highest payout first. */
  offers: Record<string, SellOffer>;
  errors: Record<string, SellOfferError>;
}

/** The fan-out's settings (./fanout.ts), and what the sell side needs. */
export interface SellOffersServiceOptions extends Omit<FanoutOptions<SellQuoteRequest, SellQuote>, 'kind' | 'metrics'> {
  providers: ProviderRegistry;
  catalogues: SellCatalogueService;
  store: OfferStore;
  offerTtlSeconds: number;
}

/** The fields of a sell quote request, in a key: every field counts unless the adapter's quoteKey says otherwise. */
function sellQuoteKeyOf(r: SellQuoteRequest): string {
  return JSON.stringify([r.crypto.id, r.fiat.id, r.cryptoAmount, r.payoutMethod, r.country, r.state ?? '', r.ip ?? '', r.externalUserId]);
}

/** Sell quotes (SellAdapter.getQuote), with metrics of their own (onramp_sell_*). */
export const SELL_QUOTES: QuoteCallKind<SellQuoteRequest, SellQuote> = {
  key: (adapter, request) => adapter.sell?.quoteKey?.(request) ?? sellQuoteKeyOf(request),
  call: (adapter, request, signal) => adapter.sell!.getQuote(request, signal),
  metrics: { deadline: sellOfferProviderDeadline, queueWait: sellProviderQuoteQueueWait, coalesced: sellProviderQuotesCoalesced },
};

interface Prepared {
  query: SellOffersQuery;
  amount: Decimal;
}

type Outcome = FanoutOutcome<SellOffer, SellOfferErrorBody>;

export class SellOffersService {
  private readonly fanout: QuoteFanout<SellQuoteRequest, SellQuote, Prepared, SellOffer, SellOfferErrorBody>;
  private readonly now: () => number;

  constructor(private readonly options: SellOffersServiceOptions) {
    this.now = options.now ?? Date.now;
    this.fanout = new QuoteFanout(
      {
        ...options,
        kind: SELL_QUOTES,
        metrics: {
          quoteDuration: sellOfferQuoteDuration,
          outcomes: sellOfferOutcomes,
          slow: sellOfferProviderSlow,
          perRequest: sellOffersPerRequest,
        },
      },
      (adapter, prepared, signal, sent) => this.quoteProvider(adapter, prepared, signal, sent),
    );
  }

  async getOffers(query: SellOffersQuery): Promise<SellOffersResult> {
    const { providerCodes } = query;
    // Only providers that sell take part: one without a sell adapter is neither asked nor listed.
    const adapters = this.options.providers
      .all()
      .filter((a) => a.sell !== undefined && (!providerCodes || providerCodes.includes(a.info.code)));
    const gathered = await this.fanout.collect(adapters, { query, amount: decimal(query.amountFrom) }, query.integratorId);
    const ranked = Object.entries(gathered.offers).sort(
      ([a, x], [b, y]) => decimal(y.amount_expected_to).comparedTo(x.amount_expected_to) || a.localeCompare(b),
    );
    const result: SellOffersResult = { offers: Object.fromEntries(ranked), errors: gathered.errors };
    const remembered = ranked.map(([code, offer]) => this.remember(query, code, offer)).filter((p) => p !== REMEMBERED);
    if (remembered.length > 0) await Promise.all(remembered);
    return result;
  }

  private async quoteProvider(
    adapter: ProviderAdapter,
    { query, amount }: Prepared,
    signal: CallSignal,
    sent: SentCalls,
  ): Promise<Outcome> {
    const code = adapter.info.code;
    let catalogue = this.options.catalogues.cached(code);
    if (!catalogue) {
      // Loading it spends the deadline off the provider's quote, as a wait for a slot does.
      sent.queued = true;
      catalogue = await this.options.catalogues.get(code);
    }
    if (!catalogue) return { code, asked: false, error: { code: 'unavailable', message: 'the provider sell catalogue is not available' } };
    const methods = eligiblePayoutMethods(catalogue, {
      crypto: query.crypto,
      fiat: query.fiat,
      amount,
      country: query.country,
      state: query.state,
      payoutMethod: query.payoutMethod,
    });
    if (!Array.isArray(methods)) return { code, asked: false, error: methods };
    // Its quote needs no IP, but its order does: an offer without one could not be ordered.
    if (adapter.requiresCustomerIp && query.ip === undefined) {
      return { code, asked: false, error: { code: 'ip_required', message: "this provider needs the end user's IP address: send `ip`" } };
    }
    const settled = await Promise.allSettled(
      methods.map((m) => this.fanout.calls.quote(adapter, quoteRequest(query, m.code), signal, sent)),
    );
    const crypto = catalogue.cryptoLimits?.[query.crypto.id];
    let ttlEnd: number | undefined;
    let outside: string | undefined;
    const offers: SellOffer[] = [];
    settled.forEach((s, i) => {
      if (s.status !== 'fulfilled') return;
      const amounts = sellAmounts(s.value, query.fiat);
      if (!paysOut(amounts)) return;
      const method = methods[i]!;
      const refused = payoutOutside(method, query.fiat, amounts.payout);
      if (refused) {
        outside ??= refused.message;
        return;
      }
      ttlEnd ??= this.now() + this.options.offerTtlSeconds * 1000;
      const expiresAt = new Date(Math.min(ttlEnd, s.value.expiresAt?.getTime() ?? ttlEnd));
      const offer = toSellOffer(s.value, query.crypto, query.fiat, amount, expiresAt, amounts);
      const payout = method.limits[query.fiat.id];
      if (crypto || payout) {
        offer.limits = {
          ...(crypto ? { amount_from: range(crypto, query.crypto) } : {}),
          ...(payout ? { amount_expected_to: range(payout, query.fiat) } : {}),
        };
      }
      offers.push(offer);
    });
    if (offers.length === 0) {
      if (outside !== undefined && !settled.some((s) => s.status === 'rejected' && s.reason instanceof ProviderRejectedError)) {
        return { code, error: { code: 'limits', message: outside } };
      }
      return { code, error: inCrypto(failureOf(settled), query.crypto) };
    }
    const best = offers.reduce((a, b) => (decimal(b.amount_expected_to).gt(a.amount_expected_to) ? b : a));
    if (offers.length === 1) return { code, offer: best };
    const payoutMethods = offers
      .map((o) => o.payout_methods[0]!)
      .sort((a, b) => decimal(a.fee).comparedTo(b.fee) || a.payout_method_code.localeCompare(b.payout_method_code));
    const expiresAt = offers.map((o) => o.expires_at).reduce((a, b) => (b < a ? b : a));
    return { code, offer: { ...best, payout_methods: payoutMethods, expires_at: expiresAt } };
  }

  private remember(query: SellOffersQuery, providerCode: string, offer: SellOffer): Promise<void> {
    return this.options.store.remember({
      side: 'sell',
      integratorId: query.integratorId,
      externalUserId: query.externalUserId,
      providerCode,
      fromCurrency: query.crypto.id,
      toCurrency: query.fiat.id,
      amountFrom: query.amountFrom,
      country: query.country,
      state: query.state,
      paymentMethod: query.payoutMethod,
      paymentMethods: offer.payout_methods.map((m) => m.payout_method_code),
      amountExpectedTo: offer.amount_expected_to,
      totalFeeAmount: offer.total_fee_amount,
      expiresAt: offer.expires_at,
      ip: query.ip,
    });
  }
}

/** Limits at the currency's precision: the minimum rounded up, the maximum down (amountLimits). */
function range(limit: { min: string; max: string }, currency: { ticker: string; precision: number }): { min: string; max: string } {
  const { min, max } = amountLimits(limit.min, limit.max, currency);
  return { min, max };
}

/** A provider's refusal for limits, its amounts (of the crypto sold) written at the crypto currency's precision. */
function inCrypto(error: SellOfferErrorBody, crypto: CryptoCurrency): SellOfferErrorBody {
  if (error.code === 'limits' && error.min_amount !== undefined && error.max_amount !== undefined) {
    const limits = amountLimits(error.min_amount, error.max_amount, crypto);
    return { ...error, message: limits.message, min_amount: limits.min, max_amount: limits.max };
  }
  return {
    ...error,
    ...(error.min_amount === undefined ? {} : { min_amount: roundUp(decimal(error.min_amount), crypto.precision) }),
    ...(error.max_amount === undefined ? {} : { max_amount: roundDown(decimal(error.max_amount), crypto.precision) }),
  };
}

/** What a provider's sell quote call asks for one payout method. */
function quoteRequest(query: SellOffersQuery, payoutMethod: string): SellQuoteRequest {
  return {
    crypto: query.crypto,
    fiat: query.fiat,
    cryptoAmount: query.amountFrom,
    payoutMethod,
    country: query.country,
    state: query.state,
    ip: query.ip,
    externalUserId: query.externalUserId,
  };
}

/** Why no quote made an offer: the provider's refusal in the sell vocabulary, else its failure, else nothing paid out. */
function failureOf(settled: PromiseSettledResult<SellQuote>[]): SellOfferErrorBody {
  const reasons = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  const rejection = reasons.find((r): r is ProviderRejectedError => r instanceof ProviderRejectedError);
  if (rejection) {
    const code =
      rejection.code === 'rejected' || rejection.code === 'not_found'
        ? 'unavailable'
        : rejection.code === 'payment_method'
          ? 'payout_method'
          : rejection.code;
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
