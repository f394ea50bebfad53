import type { z } from 'zod';
import { providerRequest, type ProviderRequestOptions } from '../http';
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

/**
 * HTTP client of Mercuryo's Widget Partner API v1.6. Public calls identify the partner by the
 * `widget_id` query parameter; the transaction lookup also needs the `Sdk-Partner-Token` header.
 */
export class MercuryoClient {
  constructor(private readonly config: MercuryoConfig) {}

  getCurrencies(signal?: AbortSignal) {
    return this.call('/lib/currencies', {}, MercuryoCurrenciesSchema, { signal });
  }

  getCountries(signal?: AbortSignal) {
    return this.call('/public/card-countries', { type: 'alpha2' }, MercuryoCountriesSchema, { signal });
  }

  getLimits(fiat: string, crypto: string, signal?: AbortSignal) {
    return this.call('/public/currency-limits', { from: fiat, to: crypto, type: 'buy' }, MercuryoLimitsSchema, { signal });
  }

  getBuyRate(query: Record<string, string>, signal?: AbortSignal) {
    return this.call('/widget/buy/rate', query, MercuryoBuyRateSchema, { signal });
  }

  /** Every operation Mercuryo linked to our order id (its `merchant_transaction_id`). */
  getTransactions(merchantTransactionId: string) {
    return this.call('/sdk-partner/transactions', { merchant_transaction_id: merchantTransactionId }, MercuryoTransactionsSchema, {
      headers: { 'sdk-partner-token': this.config.sdkPartnerToken },
    });
  }

  private async call<T extends z.ZodType>(
    path: string,
    query: Record<string, string>,
    schema: T,
    options: Omit<ProviderRequestOptions, 'timeoutMs'>,
  ): Promise<z.infer<T>> {
    const search = new URLSearchParams({ widget_id: this.config.widgetId, ...query });
    const { status, body } = await providerRequest(`${this.config.apiUrl}${path}?${search.toString()}`, {
      ...options,
      timeoutMs: this.config.timeoutMs ?? 10_000,
    });
    if (status >= 200 && status < 300) {
      const parsed = schema.safeParse(body);
      if (!parsed.success) throw new ProviderUnavailableError(`${path}: unexpected answer shape`);
      return parsed.data;
    }
    if (status === 401 || status === 403) throw new ProviderUnavailableError(`${path}: credentials refused (HTTP ${status})`);
    const error = MercuryoErrorSchema.safeParse(body);
    throw new ProviderRejectedError('rejected', `Mercuryo: ${(error.success && error.data.message) || `HTTP ${status}`}`);
  }
}
