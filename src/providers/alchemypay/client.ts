import type { z } from 'zod';
import type { ProviderOperation } from '../kit/operation';
import { callJson } from '../kit/json-call';
import { formQuery } from '../kit/url';
import { decimal } from '../../domain/money';
import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import type { AlchemypayConfig } from './config';
import {
  AlchemypayCryptoListSchema,
  AlchemypayFiatListSchema,
  AlchemypayMethodListSchema,
  AlchemypayOrderAnswerSchema,
  AlchemypayQuoteAnswerSchema,
  AlchemypayRefusalSchema,
  type AlchemypayOrder,
} from './schemas';
import { alchemypaySign, apiSignString, canonicalObject, sortedParams } from './signing';
import type { CallSignal } from '../kit/call-signal';

const SUCCESS = '0000';
/** "Quote amount is out of the range, The Min purchase amount is XX, The max purchase amount is XX" (Estimate Price Query). */
const OUT_OF_RANGE = '3102';
const RANGE = /min[^0-9]*([0-9]+(?:\.[0-9]+)?)[^0-9]+max[^0-9]*([0-9]+(?:\.[0-9]+)?)/i;
/** Answers about our credentials or signature: the broker's configuration, not the customer's request. */
const CONFIGURATION = /sign|appid|app id|timestamp|merchant/i;
/** How the order query says it has no such order (the message; the code is not documented). */
const NO_SUCH_ORDER = /not\s*(exist|found)/i;

type Envelope<T> = { success: boolean; returnCode: string; returnMsg?: string | null; data?: T | null };

/** A refusal in Alchemy Pay's envelope as the broker's error. */
export function refusalOf(route: string, returnCode: string, returnMsg: string | null | undefined): Error {
  const message = `Alchemy Pay: ${returnMsg ?? 'refused'} (${returnCode})`;
  if (returnCode === OUT_OF_RANGE) {
    const range = RANGE.exec(returnMsg ?? '');
    return new ProviderRejectedError(
      'limits',
      message,
      range ? { minAmount: decimal(range[1]!).toFixed(), maxAmount: decimal(range[2]!).toFixed() } : {},
    );
  }
  if (NO_SUCH_ORDER.test(returnMsg ?? '')) return new ProviderRejectedError('not_found', message);
  if (CONFIGURATION.test(returnMsg ?? '')) return new ProviderUnavailableError(`${route}: ${message}`);
  return new ProviderRejectedError('rejected', message);
}

/**
 * Alchemy Pay's Open API: every call carries `appid`, `timestamp` (13-digit milliseconds) and
 * `sign` headers, `sign` being the base64 HMAC-SHA256 of `timestamp + METHOD + path[?sorted query] + body`
 * ("API Sign"). A POST body is sent exactly as signed: fields sorted, empty ones left out.
 */
export class AlchemypayClient {
  constructor(
    private readonly config: Pick<AlchemypayConfig, 'apiUrl' | 'appId' | 'appSecret'>,
    private readonly timeoutMs = 10_000,
    private readonly now = () => Date.now(),
  ) {}

  getCryptoList(signal?: CallSignal) {
    return this.call('GET', '/open/api/v4/merchant/crypto/list', {}, undefined, AlchemypayCryptoListSchema, 'catalogue', signal);
  }

  getFiats(crypto: string, network: string, signal?: CallSignal) {
    return this.call('POST', '/open/api/v4/merchant/fiat/info', {}, { crypto, network }, AlchemypayFiatListSchema, 'catalogue', signal);
  }

  getMethods(fiat: string, crypto: string, network: string, signal?: CallSignal) {
    const body = { fiat, crypto, network, side: 'BUY' };
    return this.call('POST', '/open/api/v4/merchant/query/cryptoFiatMethod', {}, body, AlchemypayMethodListSchema, 'catalogue', signal);
  }

  getQuote(body: Record<string, string>, signal?: CallSignal) {
    return this.call('POST', '/open/api/v4/merchant/order/quote', {}, body, AlchemypayQuoteAnswerSchema, 'quote', signal);
  }

  /** The buy order carrying our id; undefined while Alchemy Pay has none (the customer has not placed it yet). */
  async findOrder(merchantOrderNo: string): Promise<AlchemypayOrder | undefined> {
    try {
      const query = { merchantOrderNo, side: 'BUY' };
      return await this.call('GET', '/open/api/v4/merchant/query/trade', query, undefined, AlchemypayOrderAnswerSchema, 'status');
    } catch (err) {
      if (err instanceof ProviderRejectedError && err.code === 'not_found') return undefined;
      throw err;
    }
  }

  private async call<S extends z.ZodType<Envelope<unknown>>>(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string>,
    body: Record<string, string> | undefined,
    schema: S,
    operation: ProviderOperation,
    signal?: CallSignal,
  ): Promise<NonNullable<z.output<S>['data']>> {
    const timestamp = String(this.now());
    const signedQuery = sortedParams(query);
    const json = body === undefined ? undefined : canonicalObject(body);
    const bodyText = json === undefined ? '' : JSON.stringify(json);
    const sign = alchemypaySign(this.config.appSecret, apiSignString(timestamp, method, path, signedQuery, bodyText));
    const urlQuery = formQuery(
      Object.fromEntries(
        Object.keys(query)
          .sort()
          .map((k) => [k, query[k]!]),
      ),
    );
    const answer = await callJson(`${this.config.apiUrl}${path}${urlQuery === '' ? '' : `?${urlQuery}`}`, {
      method,
      timeoutMs: this.timeoutMs,
      signal,
      call: { provider: 'alchemypay', operation },
      headers: { appid: this.config.appId, timestamp, sign },
      ...(json === undefined ? {} : { json }),
      route: path,
      schema,
      refusal: (route, status, answerBody) => {
        if (status >= 500 || status === 401 || status === 403) return new ProviderUnavailableError(`${route}: HTTP ${status}`);
        const refusal = AlchemypayRefusalSchema.safeParse(answerBody);
        if (refusal.success) return refusalOf(route, refusal.data.returnCode, refusal.data.returnMsg);
        return new ProviderRejectedError(status === 404 ? 'not_found' : 'rejected', `Alchemy Pay: HTTP ${status}`);
      },
    });
    const envelopeAnswer = answer as Envelope<unknown>;
    if (!envelopeAnswer.success || envelopeAnswer.returnCode !== SUCCESS) {
      throw refusalOf(path, envelopeAnswer.returnCode, envelopeAnswer.returnMsg);
    }
    if (envelopeAnswer.data === undefined || envelopeAnswer.data === null) throw new ProviderUnavailableError(`${path}: no data`);
    return envelopeAnswer.data;
  }
}
