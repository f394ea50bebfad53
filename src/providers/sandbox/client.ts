import type { z } from 'zod';
import type { SandboxProviderConfig } from './config';
import type { ProviderRequestOptions } from '../kit/http';
import { callChecked, callJson } from '../kit/json-call';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import {
  SandboxCountriesSchema,
  SandboxCurrenciesSchema,
  SandboxErrorSchema,
  SandboxOrderSchema,
  SandboxPaymentMethodsSchema,
  sandboxQuoteShape,
} from './schemas';
import type { ProviderCall, ProviderOperation } from '../kit/operation';
import type { CallSignal } from '../kit/call-signal';

const REJECTION_CODES: Record<string, ProviderRejectedError['code']> = {
  amount_out_of_range: 'limits',
  payout_out_of_range: 'limits',
  unsupported_country: 'country',
  unsupported_state: 'state',
  unsupported_fiat: 'currency',
  unsupported_asset: 'currency',
  unsupported_payment_method: 'payment_method',
  unsupported_payout_method: 'payment_method',
  not_found: 'not_found',
};

/** HTTP client for the sandbox provider's REST API (Bearer API key). */

/** A call's options; the client adds the timeout and its provider's label. */
type CallOptions = Omit<ProviderRequestOptions, 'timeoutMs' | 'call'> & { operation: ProviderOperation };

export class SandboxClient {
  /** A quote call's labels and headers, made once: every offers request asks for a quote. */
  private readonly quoteCall: ProviderCall;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly config: SandboxProviderConfig,
    private readonly timeoutMs = 10_000,
    /** The provider code its calls are counted under (the generic sandbox's, or a simulated provider's of its own). */
    private readonly code = 'sandbox',
  ) {
    this.quoteCall = { provider: code, operation: 'quote' };
    this.headers = { authorization: `Bearer ${config.apiKey}` };
  }

  getCurrencies(signal?: CallSignal) {
    return this.call('/v1/currencies', SandboxCurrenciesSchema, { signal, operation: 'catalogue' });
  }

  getCountries(signal?: CallSignal) {
    return this.call('/v1/countries', SandboxCountriesSchema, { signal, operation: 'catalogue' });
  }

  getPaymentMethods(signal?: CallSignal) {
    return this.call('/v1/payment-methods', SandboxPaymentMethodsSchema, { signal, operation: 'catalogue' });
  }

  /** `query`: the quote's query string (toQuoteQuery). */
  getQuote(query: string, signal?: CallSignal) {
    const route = `/v1/quotes?${query}`;
    return callChecked(`${this.config.baseUrl}${route}`, {
      signal,
      call: this.quoteCall,
      timeoutMs: this.timeoutMs,
      headers: this.headers,
      route,
      check: sandboxQuoteShape,
      refusal,
    });
  }

  createOrder(body: Record<string, string>) {
    return this.call('/v1/orders', SandboxOrderSchema, { method: 'POST', json: body, operation: 'create' });
  }

  getOrderByPartnerId(partnerOrderId: string, signal?: CallSignal) {
    return this.call(`/v1/orders?partner_order_id=${encodeURIComponent(partnerOrderId)}`, SandboxOrderSchema, {
      signal,
      operation: 'status',
    });
  }

  getOrder(id: string) {
    return this.call(`/v1/orders/${encodeURIComponent(id)}`, SandboxOrderSchema, { operation: 'status' });
  }

  /** The partner's cancel of an unpaid order: 409 `not_cancellable` (paid or ended) and 404 `not_found` are refusals. */
  cancelOrder(id: string, signal?: CallSignal) {
    return this.call(`/v1/orders/${encodeURIComponent(id)}/cancel`, SandboxOrderSchema, { method: 'POST', signal, operation: 'cancel' });
  }

  private call<T extends z.ZodType>(path: string, schema: T, { operation, ...options }: CallOptions): Promise<z.output<T>> {
    return callJson(`${this.config.baseUrl}${path}`, {
      ...options,
      call: { provider: this.code, operation },
      timeoutMs: this.timeoutMs,
      headers: this.headers,
      route: path,
      schema,
      refusal,
    });
  }
}

/** The error a sandbox answer other than 2xx stands for (its buy and sell APIs alike). */
export function refusal(route: string, status: number, body: unknown): Error {
  if (status === 401 || status === 403) return new ProviderUnavailableError(`${route}: credentials refused (HTTP ${status})`);
  const error = SandboxErrorSchema.safeParse(body);
  if (!error.success) return new ProviderUnavailableError(`${route}: HTTP ${status}`);
  const { code, message, min_amount, max_amount } = error.data.error;
  return new ProviderRejectedError(REJECTION_CODES[code] ?? 'rejected', message, {
    minAmount: min_amount,
    maxAmount: max_amount,
  });
}
