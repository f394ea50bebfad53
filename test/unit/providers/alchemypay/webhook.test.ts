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
