import { currencyDictionary } from '../../../../src/domain/currencies';
import { parseAlchemypayWebhook } from '../../../../src/providers/alchemypay/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import { webhookNewSignature } from '../../../../src/simulators/alchemypay/signing';
import { cryptoOf, fiatOf } from '../../../helpers/currencies';

const SECRET = 'app-secret';
const PATH = '/api/webhooks/alchemypay';
const NOW = 1_760_000_000_000;

const FIELDS = {
  appId: 'app',
  orderNo: '1418493255000000368',
  merchantOrderNo: 'order-1',
  status: 'FINISHED',
  crypto: 'USDT',
  network: 'TRX',
  address: 'TGNMkik3nPaioVJdkE7qEixWr9cUvsyT5g',
  fiat: 'GBP',
  amount: '100.00000000',
  cryptoQuantity: '123.45',
  rampFee: '3.75',
  networkFee: '0.95',
  txHash: '0xabc',
  signature: 'f13fb8137f2c999c5932261de9bc8668b0a7b014',
  message: '',
};

function webhook(fields: Record<string, unknown> = FIELDS, timestamp = String(NOW), secret = SECRET, path = PATH): IncomingWebhook {
  const body = { ...fields, newSignature: webhookNewSignature(secret, timestamp, path, fields) };
  return { headers: { timestamp }, rawBody: Buffer.from(JSON.stringify(body)), query: {} };
}

const parse = (w: IncomingWebhook) => parseAlchemypayWebhook(w, SECRET, PATH, currencyDictionary, NOW);

test('a genuine webhook is parsed with its reported terms', () => {
  const event = parse(webhook());
  expect(event).toMatchObject({
    orderId: 'order-1',
    providerOrderId: '1418493255000000368',
    providerStatus: 'FINISHED',
    status: 'complete',
    cryptoAmount: '123.45',
    transactionHash: '0xabc',
    reported: {
      walletAddress: FIELDS.address,
      cryptoCurrency: cryptoOf('USDT', 'tron').id,
      fiatCurrency: fiatOf('GBP').id,
      fiatAmount: '100',
    },
  });
  expect(event.eventId).toMatch(/^[0-9a-f]{64}$/);
});

test('a webhook signed with another secret is refused', () => {
  expect(() => parse(webhook(FIELDS, String(NOW), 'guessed'))).toThrow(WebhookVerificationError);
});

test('a webhook signed for another path is refused', () => {
  expect(() => parse(webhook(FIELDS, String(NOW), SECRET, '/other'))).toThrow(WebhookVerificationError);
});

test('a changed field breaks the signature', () => {
  const w = webhook();
  const body = JSON.parse(w.rawBody.toString()) as Record<string, unknown>;
  body.address = 'attacker';
  expect(() => parse({ ...w, rawBody: Buffer.from(JSON.stringify(body)) })).toThrow(WebhookVerificationError);
});

test('a replayed webhook (timestamp more than five minutes away) is refused', () => {
  expect(() => parse(webhook(FIELDS, String(NOW - 301_000)))).toThrow(/timestamp/);
  expect(() => parse(webhook(FIELDS, String(NOW + 301_000)))).toThrow(/timestamp/);
});

test.each([
  ['no timestamp header', { headers: {}, rawBody: Buffer.from('{}'), query: {} }],
  ['a body that is not JSON', { headers: { timestamp: String(NOW) }, rawBody: Buffer.from('nope'), query: {} }],
  ['a JSON array', { headers: { timestamp: String(NOW) }, rawBody: Buffer.from('[]'), query: {} }],
  ['no newSignature', { headers: { timestamp: String(NOW) }, rawBody: Buffer.from(JSON.stringify(FIELDS)), query: {} }],
])('%s is refused', (_name, w) => {
  expect(() => parse(w as IncomingWebhook)).toThrow(WebhookVerificationError);
});

test('a value nested deeper than the body can be written out again is refused, not a crash', () => {
  const depth = 5000;
  const deep = `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
  const rawBody = Buffer.from(`{"merchantOrderNo":"order-1","status":"FINISHED","orderNo":"1","extra":${deep},"newSignature":"x"}`);
  expect(() => parse({ headers: { timestamp: String(NOW) }, rawBody, query: {} })).toThrow(WebhookVerificationError);
});

test('a genuine webhook with an undocumented status is refused', () => {
  expect(() => parse(webhook({ ...FIELDS, status: 'Paying' }))).toThrow(WebhookVerificationError);
});

describe('one signed body, however it is written out', () => {
  const genuine = webhook();
  const body = JSON.parse(genuine.rawBody.toString()) as Record<string, unknown>;
  const rewritten = (rawBody: string): IncomingWebhook => ({ ...genuine, rawBody: Buffer.from(rawBody) });
  /** The refusal a bad body gets (WebhookVerificationError: 401 at the route). */
  const refusalOf = (w: IncomingWebhook) => {
    try {
      parse(w);
    } catch (err) {
      expect(err).toBeInstanceOf(WebhookVerificationError);
      return (err as Error).message;
    }
    throw new Error('accepted');
  };

  test('re-spaced and key-reordered copies, and one with an empty field added, verify and are one event', () => {
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const copies = [
      JSON.stringify(body, null, 2),
      JSON.stringify(reordered),
      ` ${JSON.stringify(body).replace(/,/g, ' ,\n')} `,
      JSON.stringify(body).replace('"message":""', '"message":"","note":""'),
    ];
    const ids = new Set([genuine, ...copies.map(rewritten)].map((w) => parse(w).eventId));
    expect(ids.size).toBe(1);
  });

  test('a retry of the same event under a new timestamp is the same event', () => {
    expect(parse(webhook(FIELDS, String(NOW + 1000))).eventId).toBe(parse(genuine).eventId);
  });

  test('another status is another event', () => {
    expect(parse(webhook({ ...FIELDS, status: 'PAY_SUCCESS' })).eventId).not.toBe(parse(genuine).eventId);
  });

  test('a duplicate key is refused: the signature covers one value, the parse would read another', () => {
    const text = JSON.stringify(body);
    const duplicated = text.replace('"address":', `"address":"attacker","address":`);
    expect(refusalOf(rewritten(duplicated))).toMatch(/duplicate key/);
    const nested = text.replace('"message":""', '"message":"","extra":{"a":1,"a":2}');
    expect(refusalOf(rewritten(nested))).toMatch(/duplicate key/);
  });

  test('a __proto__ key is refused, however it is spelled', () => {
    const text = JSON.stringify(body);
    expect(refusalOf(rewritten(text.replace('{', '{"__proto__":{"address":"attacker"},')))).toMatch(/__proto__/);
    expect(refusalOf(rewritten(text.replace('{', '{"\\u005f_proto__":{"status":"FINISHED"},')))).toMatch(/__proto__/);
  });

  test('keys that only look alike, and key-like text inside strings, are not refused', () => {
    expect(parse(webhook({ ...FIELDS, message: 'a "b" \\ ,"address":"x"' })).orderId).toBe('order-1');
    expect(() => parse(webhook({ ...FIELDS, extra: [{ a: 1 }, { a: 2 }], Address: 'same' }))).not.toThrow();
  });
});

describe('the creation time', () => {
  test('createTime, a time with no zone, is read as UTC', () => {
    expect(parse(webhook({ ...FIELDS, createTime: '2025-10-09 08:53:20' })).providerOrderCreatedAt).toBe('2025-10-09T08:53:20.000Z');
  });

  test.each([['not a time'], ['2025-13-09 08:53:20'], [1760000000000], ['']])(
    '%j is left out, and the webhook is still read',
    (createTime) => {
      const event = parse(webhook({ ...FIELDS, createTime }));
      expect(event).not.toHaveProperty('providerOrderCreatedAt');
      expect(event.status).toBe('complete');
    },
  );
});
