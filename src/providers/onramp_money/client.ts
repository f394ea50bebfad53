import type { z } from 'zod';
import type { ProviderRequestOptions } from '../kit/http';
import { callJson } from '../kit/json-call';
import type { ProviderOperation } from '../kit/operation';
import type { CallSignal } from '../kit/call-signal';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import type { OnrampMoneyConfig } from './config';
import {
  OnrampMoneyChainMappingSchema,
  OnrampMoneyConfigMappingSchema,
  OnrampMoneyCountryConfigSchema,
  OnrampMoneyErrorSchema,
  OnrampMoneyHistorySchema,
  OnrampMoneyLimitsSchema,
  OnrampMoneyQuoteSchema,
} from './schemas';
import { signedRequestHeaders } from './signing';

/** Transactions per merchantHistory page: the documented maximum. */
export const HISTORY_PAGE_SIZE = 500;

const HISTORY_PATH = '/onramp/api/v1/transaction/merchantHistory';

/** The body of `POST /onramp/api/v2/common/transaction/quotes`. */
export interface OnrampMoneyQuoteBody {
  coinCode: string;
  network: string;
  fiatAmount: number;
  fiatType: number;
  type: 1;
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body: Record<string, unknown>;
  operation: ProviderOperation;
  signal?: CallSignal;
}

/**
 * HTTP client of Onramp.money's merchant REST API. Every call carries `X-ONRAMP-APIKEY` and the
 * signed `X-ONRAMP-PAYLOAD` of its body (signing.ts); POST calls send the same body as JSON.
 */
export class OnrampMoneyClient {
  constructor(private readonly config: OnrampMoneyConfig) {}

  getConfigMapping(signal?: CallSignal) {
    const path = '/onramp/api/v2/common/transaction/allConfigMapping';
    return this.call({ method: 'POST', path, body: {}, operation: 'catalogue', signal }, OnrampMoneyConfigMappingSchema);
  }

  getChainMapping(signal?: CallSignal) {
    const path = '/onramp/api/v2/common/transaction/allChainMapping';
    return this.call({ method: 'POST', path, body: {}, operation: 'catalogue', signal }, OnrampMoneyChainMappingSchema);
  }

  getLimits(signal?: CallSignal) {
    const path = '/onramp/api/v2/common/transaction/limits';
    return this.call({ method: 'POST', path, body: { type: 1 }, operation: 'catalogue', signal }, OnrampMoneyLimitsSchema);
  }

  getCountryConfig(signal?: CallSignal) {
    const path = '/onramp/api/v2/common/public/fetchAllCountryConfig';
    return this.call({ method: 'GET', path, body: {}, operation: 'catalogue', signal }, OnrampMoneyCountryConfigSchema);
  }

  getQuote(body: OnrampMoneyQuoteBody, signal?: CallSignal) {
    const path = '/onramp/api/v2/common/transaction/quotes';
    return this.call({ method: 'POST', path, body: { ...body }, operation: 'quote', signal }, OnrampMoneyQuoteSchema);
  }

  /** One page of the merchant's onramp transactions, newest first. */
  getHistory(page: number) {
    const body = { page, pageSize: HISTORY_PAGE_SIZE, order: 'DESC', type: 1 };
    return this.call({ method: 'POST', path: HISTORY_PATH, body, operation: 'status' }, OnrampMoneyHistorySchema);
  }

  /**
   * One page of the merchant's onramp transactions for the reconciliation: page `page` (from 1) of
   * HISTORY_PAGE_SIZE, newest first, `since` the given instant (ISO 8601: the documented example
   * asks from 1 ms before the transaction it lists).
   */
  listHistory(page: number, since: string, signal?: CallSignal) {
    const body = { page, pageSize: HISTORY_PAGE_SIZE, since, order: 'DESC', type: 1 };
    return this.call({ method: 'POST', path: HISTORY_PATH, body, operation: 'transactions', signal }, OnrampMoneyHistorySchema);
  }

  private call<T extends z.ZodType>({ method, path, body, operation, signal }: Call, schema: T): Promise<z.output<T>> {
    const { apiKey, apiSecret } = this.config;
    const options: ProviderRequestOptions = {
      method,
      headers: { accept: 'application/json', ...signedRequestHeaders(apiKey, apiSecret, body) },
      ...(method === 'POST' ? { json: body } : {}),
      timeoutMs: this.config.timeoutMs ?? 10_000,
      signal,
      call: { provider: 'onramp_money', operation },
    };
    return callJson(`${this.config.apiUrl}${path}`, { ...options, route: path, schema, refusal });
  }
}

/** Onramp.money's error codes (Error codes page) as the broker's errors. */
function refusal(route: string, status: number, body: unknown): Error {
  if (status === 401 || status === 403) return new ProviderUnavailableError(`${route}: credentials or signature refused (HTTP ${status})`);
  if (status === 429) return new ProviderUnavailableError(`${route}: rate limited (HTTP 429)`);
  const error = OnrampMoneyErrorSchema.safeParse(body);
  const message = `Onramp.money: ${(error.success && (error.data.error ?? error.data.message)) || `HTTP ${status}`}`;
  if (status === 406) return new ProviderRejectedError('currency', message);
  if (status === 413) return new ProviderRejectedError('limits', message);
  return new ProviderRejectedError('rejected', message);
}
