import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import { decimal } from '../domain/money';
import type { ProviderRegistry } from '../providers/registry';
import { ProviderRejectedError, type ProviderAdapter } from '../providers/types';
import { toOffer, type Offer } from './calculate';
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

export interface OfferError {
  error: { code: string; message: string; min_amount?: string; max_amount?: string };
}

export interface OffersResult {
  offers: Record<string, Offer>;
  errors: Record<string, OfferError>;
}

export interface OffersServiceOptions {
  providers: ProviderRegistry;
  store: OfferStore;
  offerTtlSeconds: number;
  providerTimeoutMs: number;
  /** Payment method quoted when the request names none. */
  defaultPaymentMethod?: string;
  now?: () => number;
}

/** Asks every eligible provider in parallel, each under its own deadline; a slow or failing one is left out. */
export class OffersService {
  constructor(private readonly options: OffersServiceOptions) {}

  async getOffers(query: OffersQuery): Promise<OffersResult> {
    const now = this.options.now ?? Date.now;
    const adapters = this.options.providers.all().filter((a) => !query.providerCodes || query.providerCodes.includes(a.info.code));
    const settled = await Promise.all(adapters.map((adapter) => this.quoteOne(adapter, query, now)));
    const result: OffersResult = { offers: {}, errors: {} };
    for (const entry of settled) {
      if ('offer' in entry) result.offers[entry.code] = entry.offer;
      else result.errors[entry.code] = { error: entry.error };
    }
    return result;
  }

  private async quoteOne(
    adapter: ProviderAdapter,
    query: OffersQuery,
    now: () => number,
  ): Promise<{ code: string; offer: Offer } | { code: string; error: OfferError['error'] }> {
    const code = adapter.info.code;
    const deadline = AbortSignal.timeout(this.options.providerTimeoutMs);
    const paymentMethod = query.paymentMethod ?? this.options.defaultPaymentMethod ?? 'card';
    try {
      const quote = await Promise.race([
        adapter.getQuote(
          {
            fiat: query.fiat,
            crypto: query.crypto,
            fiatAmount: query.amountFrom,
            paymentMethod,
            country: query.country,
            state: query.state,
            ip: query.ip,
            externalUserId: query.externalUserId,
          },
          deadline,
        ),
        new Promise<never>((_, reject) => {
          deadline.addEventListener('abort', () => reject(new DeadlineError()), { once: true });
        }),
      ]);
      if (!decimal(quote.cryptoAmount).gt(0) || !decimal(query.amountFrom).gt(decimal(quote.processingFee).plus(quote.networkFee))) {
        return { code, error: { code: 'limits', message: 'the amount does not cover the provider fees' } };
      }
      const ttlEnd = now() + this.options.offerTtlSeconds * 1000;
      const expiresAt = new Date(Math.min(ttlEnd, quote.expiresAt?.getTime() ?? ttlEnd));
      const offer = toOffer(quote, query.fiat, query.crypto, query.amountFrom, expiresAt);
      await this.options.store.remember({
        integratorId: query.integratorId,
        externalUserId: query.externalUserId,
        providerCode: code,
        fromCurrency: query.fiat.id,
        toCurrency: query.crypto.id,
        amountFrom: query.amountFrom,
        country: query.country,
        state: query.state,
        paymentMethod: query.paymentMethod,
        paymentMethods: offer.payment_methods.map((m) => m.payment_method_code),
        amountExpectedTo: offer.amount_expected_to,
        expiresAt: offer.expires_at,
      });
      return { code, offer };
    } catch (err) {
      if (err instanceof DeadlineError) {
        return { code, error: { code: 'timeout', message: `no answer within ${this.options.providerTimeoutMs} ms` } };
      }
      if (err instanceof ProviderRejectedError) {
        const mapped = err.code === 'rejected' || err.code === 'not_found' ? 'unavailable' : err.code;
        return {
          code,
          error: {
            code: mapped,
            message: err.message,
            ...(err.details.minAmount ? { min_amount: err.details.minAmount } : {}),
            ...(err.details.maxAmount ? { max_amount: err.details.maxAmount } : {}),
          },
        };
      }
      return { code, error: { code: 'unavailable', message: (err as Error).message } };
    }
  }
}

class DeadlineError extends Error {}
