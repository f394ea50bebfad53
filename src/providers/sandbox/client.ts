import type { z } from 'zod';
import type { SandboxProviderConfig } from '../../config';
import { providerRequest, type ProviderRequestOptions } from '../http';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import {
  SandboxCountriesSchema,
  SandboxCurrenciesSchema,
  SandboxErrorSchema,
  SandboxOrderSchema,
  SandboxPaymentMethodsSchema,
  SandboxQuoteSchema,
} from './schemas';

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
export class SandboxClient {
  constructor(
    private readonly config: SandboxProviderConfig,
    private readonly timeoutMs = 10_000,
  ) {}

  getCurrencies(signal?: AbortSignal) {
    return this.call('/v1/currencies', SandboxCurrenciesSchema, { signal });
  }

  getCountries(signal?: AbortSignal) {
    return this.call('/v1/countries', SandboxCountriesSchema, { signal });
  }

  getPaymentMethods(signal?: AbortSignal) {
    return this.call('/v1/payment-methods', SandboxPaymentMethodsSchema, { signal });
  }

  getQuote(params: Record<string, string>, signal?: AbortSignal) {
    const query = new URLSearchParams(params).toString();
    return this.call(`/v1/quotes?${query}`, SandboxQuoteSchema, { signal });
  }

  createOrder(body: Record<string, string>) {
    return this.call('/v1/orders', SandboxOrderSchema, { method: 'POST', json: body });
  }

  getOrderByPartnerId(partnerOrderId: string) {
    return this.call(`/v1/orders?partner_order_id=${encodeURIComponent(partnerOrderId)}`, SandboxOrderSchema, {});
  }

  getOrder(id: string) {
    return this.call(`/v1/orders/${encodeURIComponent(id)}`, SandboxOrderSchema, {});
  }

  private async call<T extends z.ZodType>(
    path: string,
    schema: T,
    options: Omit<ProviderRequestOptions, 'timeoutMs'>,
  ): Promise<z.infer<T>> {
    const { status, body } = await providerRequest(`${this.config.baseUrl}${path}`, {
      ...options,
      timeoutMs: this.timeoutMs,
      headers: { authorization: `Bearer ${this.config.apiKey}` },
    });
    if (status >= 200 && status < 300) {
      const parsed = schema.safeParse(body);
      if (!parsed.success) throw new ProviderUnavailableError(`${path}: unexpected answer shape`);
      return parsed.data;
    }
    if (status === 401 || status === 403) throw new ProviderUnavailableError(`${path}: credentials refused (HTTP ${status})`);
    const error = SandboxErrorSchema.safeParse(body);
    if (!error.success) throw new ProviderUnavailableError(`${path}: HTTP ${status}`);
    const { code, message, min_amount, max_amount } = error.data.error;
    throw new ProviderRejectedError(REJECTION_CODES[code] ?? 'rejected', message, {
      minAmount: min_amount,
      maxAmount: max_amount,
    });
  }
}
