import type { z } from 'zod';
import type { SandboxProviderConfig } from './config';
import type { ProviderRequestOptions } from '../kit/http';
import { callJson } from '../kit/json-call';
import { formQuery } from '../kit/url';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import {
  SandboxCountriesSchema,
  SandboxCurrenciesSchema,
  SandboxErrorSchema,
  SandboxOrderSchema,
  SandboxPaymentMethodsSchema,
  SandboxQuoteSchema,
} from './schemas';
import type { ProviderOperation } from '../kit/operation';

const REJECTION_CODES: Record<string, ProviderRejectedError['code']> = {
  amount_out_of_range: 'limits',
  unsupported_country: 'country',
  unsupported_state: 'state',
  unsupported_fiat: 'currency',
  unsupported_asset: 'currency',
  unsupported_payment_method: 'payment_method',
  not_found: 'not_found',
};

/** HTTP client for the sandbox provider's REST API (Bearer API key). */

/** A call's options; the client adds the timeout and its provider's label. */
type CallOptions = Omit<ProviderRequestOptions, 'timeoutMs' | 'call'> & { operation: ProviderOperation };

export class SandboxClient {
  constructor(
    private readonly config: SandboxProviderConfig,
    private readonly timeoutMs = 10_000,
    /** The provider code its calls are counted under (the generic sandbox's, or a simulated provider's of its own). */
    private readonly code = 'sandbox',
  ) {}

  getCurrencies(signal?: AbortSignal) {
    return this.call('/v1/currencies', SandboxCurrenciesSchema, { signal, operation: 'catalogue' });
  }

  getCountries(signal?: AbortSignal) {
    return this.call('/v1/countries', SandboxCountriesSchema, { signal, operation: 'catalogue' });
  }

  getPaymentMethods(signal?: AbortSignal) {
    return this.call('/v1/payment-methods', SandboxPaymentMethodsSchema, { signal, operation: 'catalogue' });
  }

  getQuote(params: Record<string, string>, signal?: AbortSignal) {
    const query = formQuery(params);
    return this.call(`/v1/quotes?${query}`, SandboxQuoteSchema, { signal, operation: 'quote' });
  }

  createOrder(body: Record<string, string>) {
    return this.call('/v1/orders', SandboxOrderSchema, { method: 'POST', json: body, operation: 'create' });
  }

  getOrderByPartnerId(partnerOrderId: string) {
    return this.call(`/v1/orders?partner_order_id=${encodeURIComponent(partnerOrderId)}`, SandboxOrderSchema, { operation: 'status' });
  }

  getOrder(id: string) {
    return this.call(`/v1/orders/${encodeURIComponent(id)}`, SandboxOrderSchema, { operation: 'status' });
  }

  private call<T extends z.ZodType>(path: string, schema: T, { operation, ...options }: CallOptions): Promise<z.output<T>> {
    return callJson(`${this.config.baseUrl}${path}`, {
      ...options,
      call: { provider: this.code, operation },
      timeoutMs: this.timeoutMs,
      headers: { authorization: `Bearer ${this.config.apiKey}` },
      route: path,
      schema,
      refusal,
    });
  }
}

function refusal(route: string, status: number, body: unknown): Error {
  if (status === 401 || status === 403) return new ProviderUnavailableError(`${route}: credentials refused (HTTP ${status})`);
  const error = SandboxErrorSchema.safeParse(body);
  if (!error.success) return new ProviderUnavailableError(`${route}: HTTP ${status}`);
  const { code, message, min_amount, max_amount } = error.data.error;
  return new ProviderRejectedError(REJECTION_CODES[code] ?? 'rejected', message, {
    minAmount: min_amount,
    maxAmount: max_amount,
  });
}
