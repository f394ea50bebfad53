import type { z } from 'zod';
import type { ProviderRequestOptions } from '../kit/http';
import { callJson } from '../kit/json-call';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import type { MercuryoConfig } from './config';
import {
  MercuryoBuyRateSchema,
  MercuryoCountriesSchema,
  MercuryoCurrenciesSchema,
  MercuryoErrorSchema,
  MercuryoLimitsSchema,
  MercuryoTransactionsSchema,
} from './schemas';
import { MercuryoSellConvertSchema, MercuryoSellCurrenciesSchema, MercuryoSellLimitsSchema } from './sell-schemas';
import type { ProviderOperation } from '../kit/operation';
import type { CallSignal } from '../kit/call-signal';

/**
 * The most items one page of Mercuryo's transaction list holds: `limit` is "max: 50, default: 50"
 * (github.com/mercuryoio/api-migration-docs, Widget_API_Mercuryo_v1.6.md, 4.2).
 */
export const MERCURYO_LIST_LIMIT = 50;

/**
 * HTTP client of Mercuryo's Widget Partner API v1.6. Public calls identify the partner by the
 * `widget_id` query parameter; the transaction lookup also needs the `Sdk-Partner-Token` header.
 */

/** A call's options; the client adds the timeout and its provider's label. */
type CallOptions = Omit<ProviderRequestOptions, 'timeoutMs' | 'call'> & { operation: ProviderOperation };

export class MercuryoClient {
  constructor(private readonly config: MercuryoConfig) {}

  getCurrencies(signal?: CallSignal) {
    return this.call('/lib/currencies', {}, MercuryoCurrenciesSchema, { signal, operation: 'catalogue' });
  }

  getCountries(signal?: CallSignal) {
    return this.call('/public/card-countries', { type: 'alpha2' }, MercuryoCountriesSchema, { signal, operation: 'catalogue' });
  }

  getLimits(fiat: string, crypto: string, signal?: CallSignal) {
    return this.call('/public/currency-limits', { from: fiat, to: crypto, type: 'buy' }, MercuryoLimitsSchema, {
      signal,
      operation: 'quote',
    });
  }

  getBuyRate(query: Record<string, string>, signal?: CallSignal) {
    return this.call('/widget/buy/rate', query, MercuryoBuyRateSchema, { signal, operation: 'quote' });
  }

  /** `lib/currencies` read for its off-ramp flags. */
  getSellCurrencies(signal?: CallSignal) {
    return this.call('/lib/currencies', {}, MercuryoSellCurrenciesSchema, { signal, operation: 'catalogue' });
  }

  /** Limits of every enabled sell pair. */
  getSellLimitsList(signal?: CallSignal) {
    return this.call('/lib/limits/sell', {}, MercuryoSellLimitsSchema, { signal, operation: 'catalogue' });
  }

  /** One sell pair's limits, keyed by currency code (the documented request names the fiat `from`, as for buys). */
  getSellLimits(fiat: string, crypto: string, signal?: CallSignal) {
    return this.call('/public/currency-limits', { from: fiat, to: crypto, type: 'sell' }, MercuryoLimitsSchema, {
      signal,
      operation: 'quote',
    });
  }

  /** The sell quote for a crypto amount: `query` is `from` (crypto), `to` (fiat), `type=sell`, `amount`, `network`. */
  getSellConvert(query: Record<string, string>, signal?: CallSignal) {
    return this.call('/public/convert', query, MercuryoSellConvertSchema, { signal, operation: 'quote' });
  }

  /** Every operation Mercuryo linked to our order id (its `merchant_transaction_id`). */
  getTransactions(merchantTransactionId: string) {
    return this.call('/sdk-partner/transactions', { merchant_transaction_id: merchantTransactionId }, MercuryoTransactionsSchema, {
      headers: { 'sdk-partner-token': this.config.sdkPartnerToken },
      operation: 'status',
    });
  }

  /**
   * One page of the widget's transactions, newest first: those made on `dateStart` to `dateEnd`
   * (YYYY-MM-DD, both included), `offset` items in. Each item is one purchase's linked operations
   * keyed by type, as in the lookup; `limit` and `offset` count items.
   */
  listTransactions(dateStart: string, dateEnd: string, offset: number, signal?: CallSignal) {
    const query = { date_start: dateStart, date_end: dateEnd, offset: String(offset), limit: String(MERCURYO_LIST_LIMIT) };
    return this.call('/sdk-partner/transactions', query, MercuryoTransactionsSchema, {
      headers: { 'sdk-partner-token': this.config.sdkPartnerToken },
      signal,
      operation: 'transactions',
    });
  }

  private call<T extends z.ZodType>(
    path: string,
    query: Record<string, string>,
    schema: T,
    { operation, ...options }: CallOptions,
  ): Promise<z.output<T>> {
    const search = new URLSearchParams({ widget_id: this.config.widgetId, ...query });
    return callJson(`${this.config.apiUrl}${path}?${search.toString()}`, {
      ...options,
      call: { provider: 'mercuryo', operation },
      timeoutMs: this.config.timeoutMs ?? 10_000,
      route: path,
      schema,
      refusal,
    });
  }
}

function refusal(route: string, status: number, body: unknown): Error {
  if (status === 401 || status === 403) return new ProviderUnavailableError(`${route}: credentials refused (HTTP ${status})`);
  const error = MercuryoErrorSchema.safeParse(body);
  return new ProviderRejectedError('rejected', `Mercuryo: ${(error.success && error.data.message) || `HTTP ${status}`}`);
}
