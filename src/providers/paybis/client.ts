import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { z } from 'zod';
import type { CallSignal } from '../kit/call-signal';
import type { ProviderRequestOptions } from '../kit/http';
import { callJson } from '../kit/json-call';
import type { ProviderOperation } from '../kit/operation';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import type { PaybisConfig } from './config';
import {
  PaybisErrorSchema,
  PaybisPairsSchema,
  PaybisPaymentMethodsSchema,
  PaybisQuoteSchema,
  PaybisRequestCreatedSchema,
  PaybisTransactionListSchema,
  type PaybisQuoteRequest,
  type PaybisRequestBody,
} from './schemas';
import { PAYBIS_SIGNATURE_HEADER, signPaybisBody } from './signature';

/** Paybis error codes (as its simulator and integrations name them) the broker can explain. */
const REJECTION_BY_CODE: Readonly<Record<string, ProviderRejectedError['code']>> = {
  AMOUNT_OUT_OF_LIMITS: 'limits',
  UNSUPPORTED_CURRENCY: 'currency',
  UNSUPPORTED_PAYMENT_METHOD: 'payment_method',
  UNSUPPORTED_COUNTRY: 'country',
};

type CallOptions = Omit<ProviderRequestOptions, 'timeoutMs' | 'call' | 'json'> & { operation: ProviderOperation; body?: object };

/**
 * How many transactions one page of the transaction list asks for, for the status lookup and the
 * reconciliation alike. Paybis's reference names the `limit` parameter; no maximum was found
 * documented (EdgeApp's reader asks for 50), and the simulator takes 1 to 100.
 */
export const PAYBIS_LIST_LIMIT = 100;

/**
 * HTTP client for Paybis's Widget API: the API key in `Authorization` on every call, and each body
 * signed with the partner's private key in `X-Request-Signature` (GET calls have none to sign).
 */
export class PaybisClient {
  private readonly privateKey: KeyObject;

  constructor(
    private readonly config: Pick<PaybisConfig, 'apiUrl' | 'apiKey' | 'privateKey'>,
    private readonly timeoutMs = 10_000,
  ) {
    this.privateKey = createPrivateKey(config.privateKey);
  }

  getPairs(signal?: CallSignal) {
    return this.call('/v2/public/currency/pairs/buy-crypto', PaybisPairsSchema, { signal, operation: 'catalogue' });
  }

  getPaymentMethods(signal?: CallSignal) {
    return this.call('/v2/public/payment-method-list-with-limits', PaybisPaymentMethodsSchema, { signal, operation: 'catalogue' });
  }

  getQuote(body: PaybisQuoteRequest, signal?: CallSignal) {
    return this.call('/v2/quote', PaybisQuoteSchema, { method: 'POST', body, signal, operation: 'quote' });
  }

  createRequest(body: PaybisRequestBody) {
    return this.call('/v2/request', PaybisRequestCreatedSchema, { method: 'POST', body, operation: 'create' });
  }

  /**
   * One page of the partner's transactions made from `from` to `to` (ISO 8601 instants), oldest
   * first; `cursor` is the previous page's `meta.nextCursor`. The status lookup (`status`) and the
   * reconciliation (`transactions`) both read it.
   */
  listTransactions(
    params: { from: string; to: string; limit: number; cursor?: string },
    operation: Extract<ProviderOperation, 'status' | 'transactions'> = 'status',
    signal?: CallSignal,
  ) {
    const query = new URLSearchParams({ from: params.from, to: params.to, limit: String(params.limit) });
    if (params.cursor) query.set('cursor', params.cursor);
    return this.call(`/v2/transactions?${query.toString()}`, PaybisTransactionListSchema, { operation, signal });
  }

  private call<T extends z.ZodType>(path: string, schema: T, { operation, body, ...options }: CallOptions): Promise<z.output<T>> {
    const headers: Record<string, string> = { authorization: this.config.apiKey };
    // providerRequest sends JSON.stringify(json): the same bytes as signed here.
    if (body !== undefined) headers[PAYBIS_SIGNATURE_HEADER] = signPaybisBody(JSON.stringify(body), this.privateKey);
    return callJson(`${this.config.apiUrl}${path}`, {
      ...options,
      ...(body !== undefined ? { json: body } : {}),
      call: { provider: 'paybis', operation },
      timeoutMs: this.timeoutMs,
      headers,
      route: path.split('?')[0]!,
      schema,
      refusal,
    });
  }
}

function refusal(route: string, status: number, body: unknown): Error {
  if (status === 401 || status === 403)
    return new ProviderUnavailableError(`${route}: Paybis refused the API key or the request signature (HTTP ${status})`);
  if (status === 429) return new ProviderUnavailableError(`${route}: Paybis rate limit reached`);
  const error = PaybisErrorSchema.safeParse(body);
  const code = error.success ? String(error.data.code ?? '') : '';
  const message = (error.success ? error.data.message : undefined) ?? `HTTP ${status}`;
  return new ProviderRejectedError(status === 404 ? 'not_found' : (REJECTION_BY_CODE[code] ?? 'rejected'), `Paybis: ${message}`);
}
