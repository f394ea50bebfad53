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
import type { ProviderOperation } from '../kit/operation';
import type { CallSignal } from '../kit/call-signal';

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

  /** Every operation Mercuryo linked to our order id (its `merchant_transaction_id`). */
  getTransactions(merchantTransactionId: string) {
    return this.call('/sdk-partner/transactions', { merchant_transaction_id: merchantTransactionId }, MercuryoTransactionsSchema, {
      headers: { 'sdk-partner-token': this.config.sdkPartnerToken },
      operation: 'status',
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
