import type { z } from 'zod';
import type { ProviderRequestOptions } from '../kit/http';
import { callJson } from '../kit/json-call';
import { formQuery } from '../kit/url';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import type { BanxaConfig } from './config';
import {
  BanxaCountryListSchema,
  BanxaCreatedOrderSchema,
  BanxaCryptoListSchema,
  BanxaErrorSchema,
  BanxaFiatListSchema,
  BanxaOrderListSchema,
  BanxaOrderSchema,
  BanxaQuoteSchema,
  BanxaUsStatesSchema,
  type BanxaBuyOrderRequest,
} from './schemas';
import { z as zod } from 'zod';
import { BanxaSellOrderRequestSchema, type BanxaConfirmSellRequest, type BanxaSellOrderRequest } from './sell-schemas';
import type { ProviderOperation } from '../kit/operation';
import type { CallSignal } from '../kit/call-signal';

/** Banxa application error codes (Hosted Checkout "Error Codes", legacy error statuses) the broker can explain. */
const REJECTION_BY_CODE: Readonly<Record<string, ProviderRejectedError['code']>> = {
  '1': 'not_found',
  '4007': 'payment_method',
  '5034': 'currency',
};

/** The most orders one page of the transaction list asks for (Banxa documents no maximum for `limit`). */
export const BANXA_LIST_LIMIT = 100;

/** HTTP client for Banxa Hosted Checkout v2: `x-api-key` on every call, paths under the partner's base URL. */

/** A call's options; the client adds the timeout and its provider's label. */
type CallOptions = Omit<ProviderRequestOptions, 'timeoutMs' | 'call'> & { operation: ProviderOperation };

export class BanxaClient {
  constructor(
    private readonly config: Pick<BanxaConfig, 'baseUrl' | 'apiKey'>,
    private readonly timeoutMs = 10_000,
  ) {}

  getCrypto(signal?: CallSignal) {
    return this.call('/v2/crypto/buy', BanxaCryptoListSchema, { signal, operation: 'catalogue' });
  }

  getFiats(signal?: CallSignal) {
    return this.call('/v2/fiats/buy', BanxaFiatListSchema, { signal, operation: 'catalogue' });
  }

  getCountries(signal?: CallSignal) {
    return this.call('/v2/countries', BanxaCountryListSchema, { signal, operation: 'catalogue' });
  }

  getUsStates(signal?: CallSignal) {
    return this.call('/v2/countries/us/states', BanxaUsStatesSchema, { signal, operation: 'catalogue' });
  }

  getQuote(params: Record<string, string>, signal?: CallSignal) {
    return this.call(`/v2/quotes/buy?${formQuery(params)}`, BanxaQuoteSchema, { signal, operation: 'quote' });
  }

  createBuyOrder(body: BanxaBuyOrderRequest) {
    return this.call('/v2/buy', BanxaCreatedOrderSchema, { method: 'POST', json: body, operation: 'create' });
  }

  /** `GET /v2/crypto/sell`: the assets Banxa buys, shaped as the buy list. */
  getSellCrypto(signal?: CallSignal) {
    return this.call('/v2/crypto/sell', BanxaCryptoListSchema, { signal, operation: 'catalogue' });
  }

  /** `GET /v2/fiats/sell`: the payout currencies, each payout method's limits in that currency. */
  getSellFiats(signal?: CallSignal) {
    return this.call('/v2/fiats/sell', BanxaFiatListSchema, { signal, operation: 'catalogue' });
  }

  getSellQuote(params: Record<string, string>, signal?: CallSignal) {
    return this.call(`/v2/quotes/sell?${formQuery(params)}`, BanxaQuoteSchema, { signal, operation: 'quote' });
  }

  createSellOrder(body: BanxaSellOrderRequest) {
    return this.call('/v2/sell', BanxaCreatedOrderSchema, {
      method: 'POST',
      json: BanxaSellOrderRequestSchema.parse(body),
      operation: 'create',
    });
  }

  /** `POST /v2/orders/{orderId}/confirm`: the deposit's transaction hash, 202 Accepted (its body is not read). */
  async confirmSellOrder(id: string, body: BanxaConfirmSellRequest): Promise<void> {
    await this.call(`/v2/orders/${encodeURIComponent(id)}/confirm`, zod.unknown(), { method: 'POST', json: body, operation: 'status' });
  }

  getOrder(id: string) {
    return this.call(`/v2/orders/${encodeURIComponent(id)}`, BanxaOrderSchema, { operation: 'status' });
  }

  /** `externalCustomerId` narrows the list to one customer's orders (documented filter). */
  listOrders(params: { start: string; end: string; externalCustomerId: string; page: number; limit: number }) {
    const query = new URLSearchParams({ ...params, page: String(params.page), limit: String(params.limit) });
    return this.call(`/v2/orders?${query.toString()}`, BanxaOrderListSchema, { operation: 'status' });
  }

  /**
   * One page of Banxa's order list for the reconciliation: every order made on `start` to `end`
   * (dates), page `page` (from 1) of BANXA_LIST_LIMIT. Banxa's Hosted Checkout v2 list
   * ("Order Lookup"), authenticated like every v2 call with `x-api-key`: the legacy
   * `GET /api/orders` (`start_date`, `end_date`, `per_page` up to 200, `{ data: { orders } }`) is
   * the HMAC-signed legacy API on the partner's legacy host, which this adapter does not use.
   */
  listTransactions(start: string, end: string, page: number, signal?: CallSignal) {
    const query = new URLSearchParams({ start, end, page: String(page), limit: String(BANXA_LIST_LIMIT) });
    return this.call(`/v2/orders?${query.toString()}`, BanxaOrderListSchema, { signal, operation: 'transactions' });
  }

  private call<T extends z.ZodType>(path: string, schema: T, { operation, ...options }: CallOptions): Promise<z.output<T>> {
    return callJson(`${this.config.baseUrl}${path}`, {
      ...options,
      call: { provider: 'banxa', operation },
      timeoutMs: this.timeoutMs,
      headers: { 'x-api-key': this.config.apiKey },
      route: path.split('?')[0]!,
      schema,
      refusal,
    });
  }
}

function refusal(route: string, status: number, body: unknown): Error {
  if (status === 401 || status === 403) return new ProviderUnavailableError(`${route}: Banxa refused the API key (HTTP ${status})`);
  if (status === 429) return new ProviderUnavailableError(`${route}: Banxa rate limit reached`);
  const error = BanxaErrorSchema.safeParse(body);
  const detail = error.success ? error.data : {};
  const code = String(detail.code ?? detail.errors?.[0]?.code ?? '');
  const message = detail.message ?? detail.errors?.[0]?.title ?? `HTTP ${status}`;
  return new ProviderRejectedError(status === 404 ? 'not_found' : (REJECTION_BY_CODE[code] ?? 'rejected'), `Banxa: ${message}`);
}
