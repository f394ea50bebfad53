import { createHmac } from 'node:crypto';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { onrampMoneyCurrencyIds } from '../../../../src/providers/onramp_money/reported';
import { OnrampMoneyConfigMappingSchema } from '../../../../src/providers/onramp_money/schemas';
import {
  ONRAMP_MONEY_PAYLOAD_HEADER,
  ONRAMP_MONEY_SIGNATURE_HEADER,
  parseOnrampMoneyWebhook,
} from '../../../../src/providers/onramp_money/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import { currencyId as id } from '../../../helpers/currencies';
import mapping from './fixtures/config-mapping.json';
import data from './fixtures/webhook-data.json';

const SECRET = 'merchant_api_secret_for_tests';
const ids = onrampMoneyCurrencyIds(currencyDictionary, OnrampMoneyConfigMappingSchema.parse({ status: 1, data: mapping }).data);

/**
 * The documented scheme, computed here independently (onramp.gitbook.io, Webhook updates: the
 * Python sample's `hmac.new(secret, payload, sha512).hexdigest()`): the payload header is the
 * base64 of `{"timestamp", "body"}`, the signature the hex HMAC-SHA512 of that base64 text.
 */
const payloadOf = (body: unknown, timestamp = 1_700_000_000_000) => Buffer.from(JSON.stringify({ timestamp, body })).toString('base64');
const sign = (payload: string, secret = SECRET) => createHmac('sha512', secret).update(payload).digest('hex');

const webhook = (headers: Record<string, string | undefined>, body = JSON.stringify(data)): IncomingWebhook => ({
  headers,
  rawBody: Buffer.from(body, 'utf8'),
  query: {},
});
const signed = (payload: string, signature = sign(payload), body?: string) =>
  webhook({ [ONRAMP_MONEY_PAYLOAD_HEADER]: payload, [ONRAMP_MONEY_SIGNATURE_HEADER]: signature }, body);

const parse = (incoming: IncomingWebhook) => parseOnrampMoneyWebhook(incoming, SECRET, ids);

function refusal(incoming: IncomingWebhook): string {
  try {
    parse(incoming);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as Error).message;
  }
  throw new Error('expected a WebhookVerificationError');
}

describe('Onramp.money webhook (X-ONRAMP-PAYLOAD, X-ONRAMP-SIGNATURE)', () => {
  const payload = payloadOf(data);

  test("accepts the documented signature and reads the documented webhook's data, with the terms it states", () => {
    expect(parse(signed(payload))).toEqual({
      orderId: '13422',
      providerOrderId: '9',
      providerStatus: '4',
      status: 'complete',
      cryptoAmount: '0.88',
      transactionHash: data.transactionHash,
      reported: { walletAddress: data.walletAddress, cryptoCurrency: id('USDT', 'polygon'), fiatCurrency: id('INR'), fiatAmount: '100' },
      providerOrderCreatedAt: '2022-10-08T06:25:17.000Z',
      eventId: '9:4',
    });
  });

  test('also reads a payload that is the bare transaction, not the request envelope', () => {
    const bare = Buffer.from(JSON.stringify(data)).toString('base64');
    expect(parse(signed(bare)).orderId).toBe('13422');
  });

  test('accepts upper-case hex', () => {
    expect(parse(signed(payload, sign(payload).toUpperCase())).status).toBe('complete');
  });

  test('reads the signed payload only: a body that says otherwise changes nothing', () => {
    const tampered = JSON.stringify({ ...data, walletAddress: '0xattacker', merchantRecognitionId: 'another-order' });
    const event = parse(signed(payload, sign(payload), tampered));
    expect(event.orderId).toBe('13422');
    expect(event.reported?.walletAddress).toBe(data.walletAddress);
  });

  test('refuses a signature made with another secret (a forgery)', () => {
    expect(refusal(signed(payload, sign(payload, 'guessed')))).toBe('signature does not match');
  });

  test('refuses a payload changed after signing', () => {
    const changed = payloadOf({ ...data, walletAddress: '0xattacker' });
    expect(refusal(signed(changed, sign(payload)))).toBe('signature does not match');
  });

  test.each([
    ['no headers', {}],
    ['no signature', { [ONRAMP_MONEY_PAYLOAD_HEADER]: payloadOf(data) }],
    ['no payload', { [ONRAMP_MONEY_SIGNATURE_HEADER]: sign(payloadOf(data)) }],
    ['a short signature', { [ONRAMP_MONEY_PAYLOAD_HEADER]: payloadOf(data), [ONRAMP_MONEY_SIGNATURE_HEADER]: 'abcd' }],
    [
      'a payload that is not base64',
      { [ONRAMP_MONEY_PAYLOAD_HEADER]: '{"orderId":9}', [ONRAMP_MONEY_SIGNATURE_HEADER]: sign('{"orderId":9}') },
    ],
  ])('refuses %s', (_name, headers) => {
    expect(refusal(webhook(headers))).toMatch(/^missing or malformed/);
  });

  test('refuses a signed payload that is not JSON, or not a transaction', () => {
    const text = Buffer.from('not json').toString('base64');
    expect(refusal(signed(text))).toBe('signed payload is not JSON');
    const other = payloadOf({ hello: 'world' });
    expect(refusal(signed(other))).toBe('signed payload is not an Onramp.money transaction');
  });

  test('refuses a genuine webhook in a status code Onramp.money does not document', () => {
    const unknown = payloadOf({ ...data, status: 19 });
    expect(refusal(signed(unknown))).toMatch(/does not document \(19\)/);
  });

  test('a replay, or a retry with its count of trials, is the same event', () => {
    const retry = payloadOf({ ...data, webhookTrials: 3 }, 1_700_000_060_000);
    expect(parse(signed(retry)).eventId).toBe(parse(signed(payload)).eventId);
  });

  test('a transaction without merchantRecognitionId names no broker order', () => {
    const { merchantRecognitionId: _, ...rest } = data;
    expect(parse(signed(payloadOf(rest))).orderId).toBe('');
  });
});
