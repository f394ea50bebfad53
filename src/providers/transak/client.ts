import type { z } from 'zod';
import { pathOf, providerRequest, type ProviderRequestOptions, type ProviderResponse } from '../kit/http';
import type { ProviderOperation } from '../kit/operation';
import { parseAnswer, readAnswer } from '../kit/json-call';
import { formQuery } from '../kit/url';
import { ProviderUnavailableError } from '../types';
import type { SharedValues } from '../shared-values';
import { TransakAccessTokens } from './access-token';
import type { TransakConfig } from './config';
import { refusalError } from './errors';
import {
  TransakAccessTokenSchema,
  TransakCountriesSchema,
  TransakCryptoCurrenciesSchema,
  TransakFiatCurrenciesSchema,
  TransakOrderResponseSchema,
  TransakOrdersResponseSchema,
  TransakQuoteSchema,
  TransakWidgetSessionSchema,
  type TransakWidgetParams,
} from './schemas';
import { TransakSellOrderResponseSchema, TransakSellOrdersResponseSchema, type TransakSellWidgetParams } from './sell-schemas';
import type { CallSignal } from '../kit/call-signal';

type CallOptions = Omit<ProviderRequestOptions, 'timeoutMs' | 'call'> & { operation: ProviderOperation };

/**
 * The most orders one page of Transak's order list is asked for: `limit`'s documented default
 * (docs.transak.com/api/public/get-orders documents no maximum).
 */
export const TRANSAK_LIST_LIMIT = 100;

/**
 * HTTP client for Transak: public lists and quotes (the quote by `partnerApiKey`), and the partner
 * APIs behind the `access-token` header, refreshed once and retried when Transak answers 401.
 */
export class TransakClient {
  readonly tokens: TransakAccessTokens;

  constructor(
    private readonly config: TransakConfig,
    shared?: SharedValues,
    private readonly timeoutMs = 10_000,
  ) {
    this.tokens = new TransakAccessTokens(() => this.issueAccessToken(), Date.now, shared);
  }

  getCountries(signal?: CallSignal) {
    return this.publicCall(`${this.config.apiUrl}/api/v2/countries`, TransakCountriesSchema, { signal, operation: 'catalogue' });
  }

  getCryptoCurrencies(signal?: CallSignal) {
    return this.publicCall(`${this.config.apiUrl}/cryptocoverage/api/v1/public/crypto-currencies`, TransakCryptoCurrenciesSchema, {
      signal,
      operation: 'catalogue',
    });
  }

  getFiatCurrencies(signal?: CallSignal) {
    return this.publicCall(`${this.config.apiUrl}/fiat/public/v1/currencies/fiat-currencies`, TransakFiatCurrenciesSchema, {
      signal,
      operation: 'catalogue',
    });
  }

  async getQuote(params: Record<string, string>, signal?: CallSignal) {
    const query = formQuery({ partnerApiKey: this.config.apiKey, ...params });
    const quote = await this.publicCall(`${this.config.apiUrl}/api/v1/pricing/public/quotes?${query}`, TransakQuoteSchema, {
      signal,
      operation: 'quote',
    });
    return quote.response;
  }

  async createWidgetUrl(widgetParams: TransakWidgetParams | TransakSellWidgetParams): Promise<string> {
    const session = await this.partnerCall(`${this.config.gatewayUrl}/api/v2/auth/session`, TransakWidgetSessionSchema, {
      method: 'POST',
      json: { widgetParams },
      operation: 'create',
    });
    return session.data.widgetUrl;
  }

  async getOrdersByPartnerOrderId(partnerOrderId: string) {
    const query = new URLSearchParams({ 'filter[partnerOrderId]': partnerOrderId, limit: '10' }).toString();
    const orders = await this.partnerCall(`${this.config.apiUrl}/partners/api/v2/orders?${query}`, TransakOrdersResponseSchema, {
      operation: 'status',
    });
    return orders.data;
  }

  /**
   * One page of Transak's order list: the BUY orders in `status` made on `startDate` to `endDate`
   * (dates, both included), newest first, `skip` rows in. Transak filters by COMPLETED when no
   * status is named (docs.transak.com/api/public/get-orders), so the list names one each call.
   */
  async listOrders(startDate: string, endDate: string, status: string, skip: number, signal?: CallSignal) {
    const query = new URLSearchParams({
      startDate,
      endDate,
      limit: String(TRANSAK_LIST_LIMIT),
      skip: String(skip),
      'filter[status]': status,
      'filter[sortOrder]': 'desc',
    }).toString();
    const orders = await this.partnerCall(`${this.config.apiUrl}/partners/api/v2/orders?${query}`, TransakOrdersResponseSchema, {
      signal,
      operation: 'transactions',
    });
    return orders.data;
  }

  /** The SELL orders Transak holds under `partnerOrderId` (`filter[productsAvailed]`, whose default is BUY alone). */
  async getSellOrdersByPartnerOrderId(partnerOrderId: string) {
    const query = new URLSearchParams({
      'filter[partnerOrderId]': partnerOrderId,
      'filter[productsAvailed]': '["SELL"]',
      limit: '10',
    }).toString();
    const orders = await this.partnerCall(`${this.config.apiUrl}/partners/api/v2/orders?${query}`, TransakSellOrdersResponseSchema, {
      operation: 'status',
    });
    return orders.data;
  }

  async getSellOrder(orderId: string) {
    const order = await this.partnerCall(
      `${this.config.apiUrl}/partners/api/v2/order/${encodeURIComponent(orderId)}`,
      TransakSellOrderResponseSchema,
      { operation: 'status' },
    );
    return order.data;
  }

  async getOrder(orderId: string) {
    const order = await this.partnerCall(
      `${this.config.apiUrl}/partners/api/v2/order/${encodeURIComponent(orderId)}`,
      TransakOrderResponseSchema,
      { operation: 'status' },
    );
    return order.data;
  }

  private async issueAccessToken() {
    const url = `${this.config.apiUrl}/partners/api/v2/refresh-token`;
    const { status, body } = await providerRequest(url, {
      method: 'POST',
      headers: { 'api-secret': this.config.apiSecret },
      json: { apiKey: this.config.apiKey },
      timeoutMs: this.timeoutMs,
      call: { provider: 'transak', operation: 'token' },
    });
    if (status !== 200) throw new ProviderUnavailableError(`${pathOf(url)}: credentials refused (HTTP ${status})`);
    return parseAnswer(pathOf(url), TransakAccessTokenSchema, body).data;
  }

  private async partnerCall<T extends z.ZodType>(url: string, schema: T, options: CallOptions): Promise<z.output<T>> {
    const token = await this.tokens.get();
    const first = await this.send(url, { ...options, headers: { 'access-token': token } });
    if (first.status !== 401) return this.result(url, schema, first);
    // Another holder of these credentials may have refreshed the token, which invalidates ours.
    this.tokens.invalidate(token);
    const retried = await this.send(url, { ...options, headers: { 'access-token': await this.tokens.get() } });
    if (retried.status === 401) throw new ProviderUnavailableError(`${pathOf(url)}: access token refused (HTTP 401)`);
    return this.result(url, schema, retried);
  }

  private async publicCall<T extends z.ZodType>(url: string, schema: T, options: CallOptions): Promise<z.output<T>> {
    const response = await this.send(url, options);
    if (response.status === 401) throw new ProviderUnavailableError(`${pathOf(url)}: API key refused (HTTP 401)`);
    return this.result(url, schema, response);
  }

  private send(url: string, { operation, ...options }: CallOptions) {
    return providerRequest(url, { ...options, timeoutMs: this.timeoutMs, call: { provider: 'transak', operation } });
  }

  private result<T extends z.ZodType>(url: string, schema: T, response: ProviderResponse): z.output<T> {
    return readAnswer(response, { route: pathOf(url), schema, refusal: refusalError });
  }
}
