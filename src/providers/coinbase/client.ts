import type { z } from 'zod';
import type { CallSignal } from '../kit/call-signal';
import { callJson } from '../kit/json-call';
import type { ProviderOperation } from '../kit/operation';
import { formQuery } from '../kit/url';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import type { CoinbaseConfig } from './config';
import { parseCdpSecret, signCdpJwt, type CdpSigningKey } from './jwt';
import {
  CoinbaseBuyConfigSchema,
  CoinbaseBuyOptionsSchema,
  CoinbaseBuyQuoteSchema,
  CoinbaseErrorSchema,
  CoinbaseSessionTokenSchema,
  CoinbaseTransactionsSchema,
  type CoinbaseTransaction,
} from './schemas';

/** How many transactions one lookup reads: a customer rarely makes more than one per order. */
const TRANSACTIONS_PAGE_SIZE = '10';

/**
 * How many transactions one page of the list of all buy transactions asks for. Coinbase takes 1 to
 * 1000; a hundred keeps a page far below the answer's body cap (DEFAULT_MAX_BODY_BYTES, 2 MiB) and
 * its own time limit, whatever a transaction holds.
 */
export const COINBASE_LIST_PAGE_SIZE = 100;

/**
 * Coinbase's Onramp API (`<apiUrl>/onramp/v1/…`). Every call carries its own bearer JWT, signed with
 * the CDP secret API key and bound to the call's method, host and path.
 */
export class CoinbaseClient {
  private readonly key: CdpSigningKey;
  private readonly host: string;
  private readonly basePath: string;

  constructor(
    private readonly config: CoinbaseConfig,
    private readonly timeoutMs = 10_000,
  ) {
    const key = parseCdpSecret(config.apiKeySecret);
    if (!key) throw new Error('COINBASE_API_KEY_SECRET is not a CDP key');
    this.key = key;
    const url = new URL(config.apiUrl);
    this.host = url.host;
    this.basePath = url.pathname.replace(/\/+$/, '');
  }

  getBuyConfig(signal?: CallSignal) {
    return this.call('GET', '/onramp/v1/buy/config', {}, undefined, CoinbaseBuyConfigSchema, 'catalogue', signal);
  }

  getBuyOptions(country: string, subdivision: string | undefined, signal?: CallSignal) {
    const query = { country, ...(subdivision === undefined ? {} : { subdivision }) };
    return this.call('GET', '/onramp/v1/buy/options', query, undefined, CoinbaseBuyOptionsSchema, 'catalogue', signal);
  }

  getBuyQuote(body: Record<string, string>, signal?: CallSignal) {
    return this.call('POST', '/onramp/v1/buy/quote', {}, body, CoinbaseBuyQuoteSchema, 'quote', signal);
  }

  async createSessionToken(body: object): Promise<string> {
    return (await this.call('POST', '/onramp/v1/token', {}, body, CoinbaseSessionTokenSchema, 'token')).token;
  }

  /** The transactions linked to our id, newest first; none before the customer is in Coinbase's page. */
  async findTransactions(partnerUserRef: string): Promise<CoinbaseTransaction[]> {
    try {
      const path = `/onramp/v1/buy/user/${encodeURIComponent(partnerUserRef)}/transactions`;
      const answer = await this.call('GET', path, { pageSize: TRANSACTIONS_PAGE_SIZE }, undefined, CoinbaseTransactionsSchema, 'status');
      return answer.transactions;
    } catch (err) {
      if (err instanceof ProviderRejectedError && err.code === 'not_found') return [];
      throw err;
    }
  }

  /**
   * One page of the list of all buy transactions the app made between `startDate` and `endDate`
   * (RFC 3339 instants or dates), newest first; `pageKey` is the previous page's `nextPageKey`.
   * docs.cdp.coinbase.com/api-reference/rest-api/onramp-offramp/get-all-onramp-transactions
   */
  listTransactions(range: { startDate: string; endDate: string }, pageKey: string | undefined, signal?: CallSignal) {
    const query = { ...range, pageSize: String(COINBASE_LIST_PAGE_SIZE), ...(pageKey === undefined ? {} : { pageKey }) };
    return this.call('GET', '/onramp/v1/buy/transactions', query, undefined, CoinbaseTransactionsSchema, 'transactions', signal);
  }

  private async call<T extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string>,
    body: object | undefined,
    schema: T,
    operation: ProviderOperation,
    signal?: CallSignal,
  ): Promise<z.output<T>> {
    const fullPath = `${this.basePath}${path}`;
    const jwt = await signCdpJwt(this.config.apiKeyId, this.key, { method, host: this.host, path: fullPath });
    const search = formQuery(query);
    return callJson(`${this.config.apiUrl}${path}${search === '' ? '' : `?${search}`}`, {
      method,
      json: body,
      timeoutMs: this.timeoutMs,
      signal,
      call: { provider: 'coinbase', operation },
      headers: { authorization: `Bearer ${jwt}` },
      route: path,
      schema,
      refusal: (route, status, answer) => {
        if (status === 401 || status === 403)
          return new ProviderUnavailableError(`${route}: Coinbase refused the API key (HTTP ${status})`);
        if (status === 429) return new ProviderUnavailableError(`${route}: Coinbase rate limit (HTTP 429)`);
        const error = CoinbaseErrorSchema.safeParse(answer);
        const message = (error.success && (error.data.errorMessage ?? error.data.message)) || `HTTP ${status}`;
        return new ProviderRejectedError(status === 404 ? 'not_found' : 'rejected', `Coinbase: ${message}`);
      },
    });
  }
}
