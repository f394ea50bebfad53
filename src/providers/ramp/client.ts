import type { z } from 'zod';
import type { ProviderRequestOptions } from '../kit/http';
import { callJson, type Refusal } from '../kit/json-call';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import type { RampConfig } from './config';
import {
  RampAssetsSchema,
  RampCountriesSchema,
  RampCurrenciesSchema,
  RampErrorSchema,
  RampPaymentMethodsSchema,
  RampPurchaseSchema,
  RampQuoteSchema,
  type RampQuoteRequest,
} from './schemas';
import {
  RampOfframpAssetsSchema,
  RampPayoutMethodsSchema,
  RampSaleSchema,
  RampSellQuoteSchema,
  type RampSellQuoteRequest,
} from './sell-schemas';
import type { ProviderOperation } from '../kit/operation';
import type { CallSignal } from '../kit/call-signal';

/** Ramp's error codes are dot-separated (SERVICES.HOST_API.<CONDITION>); the condition says which refusal it is. */
function rejectionCode(code: string): ProviderRejectedError['code'] {
  if (/PAYMENT_METHOD/.test(code)) return 'payment_method';
  if (/CURRENC|ASSET/.test(code)) return 'currency';
  if (/COUNTRY|REGION|GEO/.test(code)) return 'country';
  if (/AMOUNT|LIMIT/.test(code)) return 'limits';
  if (/NOT_FOUND/.test(code)) return 'not_found';
  return 'rejected';
}

/**
 * HTTP client of Ramp's REST API. There is no secret: the partner is named by the `hostApiKey`
 * query parameter, and a purchase is read with its own `secret` (the purchaseViewToken).
 */

/** A call's options; the client adds the timeout and its provider's label. */
type CallOptions = Omit<ProviderRequestOptions, 'timeoutMs' | 'call'> & { operation: ProviderOperation };

export class RampClient {
  constructor(
    private readonly config: RampConfig,
    private readonly timeoutMs = 10_000,
  ) {}

  getAssets(currencyCode: string, signal?: CallSignal) {
    return this.call('/host-api/v3/assets', { currencyCode }, RampAssetsSchema, { signal, operation: 'catalogue' });
  }

  getCurrencies(signal?: CallSignal) {
    return this.call('/host-api/v3/currencies', {}, RampCurrenciesSchema, { signal, operation: 'catalogue' });
  }

  getPaymentMethods(signal?: CallSignal) {
    return this.call('/host-api/v3/payment-methods', {}, RampPaymentMethodsSchema, { signal, operation: 'catalogue' });
  }

  getCountries(signal?: CallSignal) {
    return this.call('/host-api/countries', {}, RampCountriesSchema, { signal, operation: 'catalogue' });
  }

  getQuote(body: RampQuoteRequest, signal?: CallSignal) {
    return this.call('/host-api/v3/onramp/quote/all', {}, RampQuoteSchema, { method: 'POST', json: body, signal, operation: 'quote' });
  }

  getPurchase(id: string, secret: string) {
    return this.call(`/host-api/purchase/${encodeURIComponent(id)}`, { secret }, RampPurchaseSchema, { operation: 'status' }, false);
  }

  getOfframpAssets(currencyCode: string, signal?: CallSignal) {
    return this.call('/host-api/v3/offramp/assets', { currencyCode }, RampOfframpAssetsSchema, { signal, operation: 'catalogue' });
  }

  getPayoutMethods(signal?: CallSignal) {
    return this.call('/host-api/v3/payout-methods', {}, RampPayoutMethodsSchema, { signal, operation: 'catalogue' });
  }

  getSellQuote(body: RampSellQuoteRequest, signal?: CallSignal) {
    return this.call('/host-api/v3/offramp/quote/all', {}, RampSellQuoteSchema, { method: 'POST', json: body, signal, operation: 'quote' });
  }

  /** The sale, read with its saleViewToken as `secret` (the path production integrations use; docs/providers/ramp.md). */
  getSale(id: string, secret: string) {
    return this.call(`/host-api/v3/offramp/sale/${encodeURIComponent(id)}`, { secret }, RampSaleSchema, { operation: 'status' }, false);
  }

  private call<T extends z.ZodType>(
    path: string,
    query: Record<string, string>,
    schema: T,
    { operation, ...options }: CallOptions,
    withHostKey = true,
  ): Promise<z.output<T>> {
    const params = new URLSearchParams(withHostKey ? { ...query, hostApiKey: this.config.hostApiKey } : query);
    return callJson(`${this.config.apiUrl}${path}?${params.toString()}`, {
      ...options,
      call: { provider: 'ramp', operation },
      timeoutMs: this.timeoutMs,
      route: path,
      schema,
      refusal: refusal(withHostKey),
    });
  }
}

function refusal(withHostKey: boolean): Refusal {
  return (route, status, body) => {
    if (status === 401 || status === 403) {
      // Without the host key this is a purchase or sale read: its secret does not open it.
      if (!withHostKey) return new ProviderRejectedError('not_found', `${route}: the view token was refused (HTTP ${status})`);
      return new ProviderUnavailableError(`${route}: hostApiKey refused (HTTP ${status})`);
    }
    if (status === 429) return new ProviderUnavailableError(`${route}: rate limited (HTTP 429)`);
    const error = RampErrorSchema.safeParse(body);
    if (status === 404) return new ProviderRejectedError('not_found', `${route}: ${error.success ? error.data.code : 'not found'}`);
    if (!error.success) return new ProviderUnavailableError(`${route}: HTTP ${status}`);
    return new ProviderRejectedError(rejectionCode(error.data.code), error.data.message ?? error.data.code);
  };
}
