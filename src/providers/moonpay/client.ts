import type { z } from 'zod';
import type { ProviderOperation } from '../kit/operation';
import { callJson } from '../kit/json-call';
import { formQuery } from '../kit/url';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import type { MoonpayConfig } from './config';
import {
  MoonpayBuyQuoteSchema,
  MoonpayCountriesSchema,
  MoonpayCurrenciesSchema,
  MoonpayErrorSchema,
  MoonpayTransactionsSchema,
  type MoonpayTransaction,
} from './schemas';
import type { CallSignal } from '../kit/call-signal';
import {
  MoonpaySellQuoteSchema,
  MoonpaySellTransactionSchema,
  MoonpaySellTransactionsSchema,
  type MoonpaySellTransaction,
} from './sell-schemas';

/** `both`: the sell lookups, whose page shows the publishable `apiKey` while the buy lookups take the secret key; both are sent. */
type Auth = 'publishable' | 'secret' | 'both';

/** The most transactions one page of MoonPay's list holds. */
export const MOONPAY_LIST_LIMIT = 50;

/**
 * MoonPay's REST API. Public calls carry the publishable key as `apiKey` in the query; calls about
 * transactions carry the secret key as `Authorization: Api-Key <key>`.
 */
export class MoonpayClient {
  constructor(
    private readonly config: MoonpayConfig,
    private readonly timeoutMs = 10_000,
  ) {}

  getCurrencies(signal?: CallSignal) {
    return this.get('/v3/currencies', {}, MoonpayCurrenciesSchema, 'publishable', 'catalogue', signal);
  }

  getCountries(signal?: CallSignal) {
    return this.get('/v3/countries', {}, MoonpayCountriesSchema, 'publishable', 'catalogue', signal);
  }

  getBuyQuote(currencyCode: string, params: Record<string, string>, signal?: CallSignal) {
    return this.get(
      `/v3/currencies/${encodeURIComponent(currencyCode)}/buy_quote`,
      params,
      MoonpayBuyQuoteSchema,
      'publishable',
      'quote',
      signal,
    );
  }

  getSellQuote(currencyCode: string, params: Record<string, string>, signal?: CallSignal) {
    return this.get(
      `/v3/currencies/${encodeURIComponent(currencyCode)}/sell_quote`,
      params,
      MoonpaySellQuoteSchema,
      'publishable',
      'quote',
      signal,
    );
  }

  /** One sell transaction by MoonPay's id. */
  getSellTransaction(id: string): Promise<MoonpaySellTransaction> {
    return this.get(`/v3/sell_transactions/${encodeURIComponent(id)}`, {}, MoonpaySellTransactionSchema, 'both', 'status');
  }

  /** Every sell transaction carrying our id; none before the customer has confirmed the sale in the widget. */
  async findSellTransactions(externalTransactionId: string): Promise<MoonpaySellTransaction[]> {
    try {
      return await this.get(
        `/v3/sell_transactions/ext/${encodeURIComponent(externalTransactionId)}`,
        {},
        MoonpaySellTransactionsSchema,
        'both',
        'status',
      );
    } catch (err) {
      if (err instanceof ProviderRejectedError && err.code === 'not_found') return [];
      throw err;
    }
  }

  /** Every buy transaction carrying our id; none before the customer has submitted the widget. */
  async findTransactions(externalTransactionId: string): Promise<MoonpayTransaction[]> {
    try {
      return await this.get(
        `/v1/transactions/ext/${encodeURIComponent(externalTransactionId)}`,
        {},
        MoonpayTransactionsSchema,
        'secret',
        'status',
      );
    } catch (err) {
      if (err instanceof ProviderRejectedError && err.code === 'not_found') return [];
      throw err;
    }
  }

  /** One page of MoonPay's transaction list, newest first: created on `startDate` to `endDate` (dates, both included). */
  listTransactions(startDate: string, endDate: string, offset: number, signal?: CallSignal): Promise<MoonpayTransaction[]> {
    const params = { startDate, endDate, limit: String(MOONPAY_LIST_LIMIT), offset: String(offset) };
    return this.get('/v1/transactions', params, MoonpayTransactionsSchema, 'secret', 'transactions', signal);
  }

  private get<T extends z.ZodType>(
    path: string,
    params: Record<string, string>,
    schema: T,
    auth: Auth,
    operation: ProviderOperation,
    signal?: CallSignal,
  ): Promise<z.output<T>> {
    const query = formQuery(auth === 'secret' ? params : { ...params, apiKey: this.config.publishableKey });
    return callJson(`${this.config.apiUrl}${path}${query === '' ? '' : `?${query}`}`, {
      timeoutMs: this.timeoutMs,
      signal,
      call: { provider: 'moonpay', operation },
      headers: auth !== 'publishable' ? { authorization: `Api-Key ${this.config.secretKey}` } : {},
      route: path,
      schema,
      refusal: (route, status, body) => {
        if (status === 401 || status === 403)
          return new ProviderUnavailableError(`${route}: MoonPay refused the ${auth} key (HTTP ${status})`);
        const error = MoonpayErrorSchema.safeParse(body);
        const message = error.success ? error.data.message : `HTTP ${status}`;
        return new ProviderRejectedError(status === 404 ? 'not_found' : 'rejected', `MoonPay: ${message}`);
      },
    });
  }
}
