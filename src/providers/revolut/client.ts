import type { z } from 'zod';
import type { CallSignal } from '../kit/call-signal';
import { callJson } from '../kit/json-call';
import type { ProviderOperation } from '../kit/operation';
import { formQuery } from '../kit/url';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import type { RevolutConfig } from './config';
import {
  RevolutConfigSchema,
  RevolutErrorSchema,
  RevolutOrderSchema,
  RevolutQuoteSchema,
  RevolutRedirectSchema,
  type RevolutOrder,
} from './schemas';

/** Query of `/quote` (fiat, amount, crypto, payment, region) and of `/buy` (those, wallet, orderId, partnerRedirectUrl). */
export type RevolutQuery = Record<string, string>;

/** Revolut Ramp's partner API: every call is a GET with the partner key in `X-API-KEY`. */
export class RevolutClient {
  constructor(private readonly config: RevolutConfig) {}

  getConfig(signal?: CallSignal) {
    return this.get('/config', {}, RevolutConfigSchema, 'catalogue', signal);
  }

  getQuote(query: RevolutQuery, signal?: CallSignal) {
    return this.get('/quote', query, RevolutQuoteSchema, 'quote', signal);
  }

  getRedirectUrl(query: RevolutQuery) {
    return this.get('/buy', query, RevolutRedirectSchema, 'create');
  }

  /** The buy order made with our id for this wallet; undefined while Revolut has none (404). */
  async findOrder(orderId: string, wallet: string): Promise<RevolutOrder | undefined> {
    try {
      return await this.get(`/orders/${encodeURIComponent(orderId)}`, { wallet }, RevolutOrderSchema, 'status');
    } catch (err) {
      if (err instanceof ProviderRejectedError && err.code === 'not_found') return undefined;
      throw err;
    }
  }

  private get<T extends z.ZodType>(
    path: string,
    query: RevolutQuery,
    schema: T,
    operation: ProviderOperation,
    signal?: CallSignal,
  ): Promise<z.output<T>> {
    const search = formQuery(query);
    return callJson(`${this.config.apiUrl}${path}${search === '' ? '' : `?${search}`}`, {
      timeoutMs: this.config.timeoutMs ?? 10_000,
      signal,
      call: { provider: 'revolut', operation },
      headers: { 'x-api-key': this.config.apiKey },
      route: path.startsWith('/orders/') ? '/orders/{order_id}' : path,
      schema,
      refusal,
    });
  }
}

/** 401 (a refused key) and 429 are worth retrying; 400 and 404 are refusals (`{message}`); 5xx never gets here. */
function refusal(route: string, status: number, body: unknown): Error {
  if (status === 401 || status === 403) return new ProviderUnavailableError(`${route}: Revolut refused the API key (HTTP ${status})`);
  if (status === 429) return new ProviderUnavailableError(`${route}: Revolut is limiting requests (HTTP 429)`);
  const error = RevolutErrorSchema.safeParse(body);
  const message = error.success ? error.data.message : `HTTP ${status}`;
  return new ProviderRejectedError(status === 404 ? 'not_found' : 'rejected', `Revolut Ramp: ${message}`);
}
