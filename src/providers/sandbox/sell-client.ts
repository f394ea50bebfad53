import type { z } from 'zod';
import type { CallSignal } from '../kit/call-signal';
import { callJson } from '../kit/json-call';
import type { ProviderOperation } from '../kit/operation';
import { refusal } from './client';
import type { SandboxProviderConfig } from './config';
import {
  SandboxPayoutMethodsSchema,
  SandboxSellCountriesSchema,
  SandboxSellCurrenciesSchema,
  SandboxSellOrderSchema,
  SandboxSellQuoteSchema,
} from './sell-schemas';

/** HTTP client for Sandbox Pay's sell API under /v1/sell (the same Bearer API key as its buy API). */
export class SandboxSellClient {
  private readonly headers: Record<string, string>;

  constructor(
    private readonly config: SandboxProviderConfig,
    private readonly timeoutMs = 10_000,
    /** The provider code its calls are counted under. */
    private readonly code = 'sandbox',
  ) {
    this.headers = { authorization: `Bearer ${config.apiKey}` };
  }

  getCurrencies(signal?: CallSignal) {
    return this.call('/v1/sell/currencies', SandboxSellCurrenciesSchema, 'catalogue', { signal });
  }

  getCountries(signal?: CallSignal) {
    return this.call('/v1/sell/countries', SandboxSellCountriesSchema, 'catalogue', { signal });
  }

  getPayoutMethods(signal?: CallSignal) {
    return this.call('/v1/sell/payout-methods', SandboxPayoutMethodsSchema, 'catalogue', { signal });
  }

  /** `query`: the quote's query string (toSellQuoteQuery). */
  getQuote(query: string, signal?: CallSignal) {
    return this.call(`/v1/sell/quotes?${query}`, SandboxSellQuoteSchema, 'quote', { signal });
  }

  createOrder(body: Record<string, string>) {
    return this.call('/v1/sell/orders', SandboxSellOrderSchema, 'create', { method: 'POST', json: body });
  }

  getOrderByPartnerId(partnerOrderId: string) {
    return this.call(`/v1/sell/orders?partner_order_id=${encodeURIComponent(partnerOrderId)}`, SandboxSellOrderSchema, 'status', {});
  }

  getOrder(id: string) {
    return this.call(`/v1/sell/orders/${encodeURIComponent(id)}`, SandboxSellOrderSchema, 'status', {});
  }

  private call<T extends z.ZodType>(
    path: string,
    schema: T,
    operation: ProviderOperation,
    options: { signal?: CallSignal; method?: 'POST'; json?: unknown },
  ): Promise<z.output<T>> {
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
