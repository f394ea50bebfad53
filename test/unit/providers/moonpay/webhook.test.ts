import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currencyDictionary } from '../../../../src/domain/currencies';
import {
  MOONPAY_SIGNATURE_HEADER,
  MOONPAY_SIGNATURE_MAX_AGE_SECONDS,
  parseMoonpayWebhook,
} from '../../../../src/providers/moonpay/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

const WEBHOOK_KEY = 'wk_test_documented_example_key';
const NOW = 1_708_194_400;
const ORDER_ID = '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90';

/** What every fixture's transaction states: GBP 45.5 + 1.7 + 0.43 + 2.37 charged for USDC on Ethereum. */
const ORDERED = {
  walletAddress: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
  cryptoCurrency: crypto('USDC', 'ethereum').id,
  fiatCurrency: fiat('GBP').id,
  fiatAmount: '50',
};

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

/** The documented scheme, written out: t=<timestamp>,s=<hex HMAC-SHA256(webhook key, "<t>.<raw body>")>. */
function header(body: string, key = WEBHOOK_KEY, at = NOW): string {
  return `t=${at},s=${createHmac('sha256', key).update(`${at}.${body}`).digest('hex')}`;
}

function webhook(body: string, signature = header(body)): IncomingWebhook {
  return {
    headers: { [MOONPAY_SIGNATURE_HEADER]: signature, 'content-type': 'application/json' },
    rawBody: Buffer.from(body, 'utf8'),
    query: {},
  };
}

function refused(incoming: IncomingWebhook, now = NOW): string {
  try {
    parseMoonpayWebhook(incoming, WEBHOOK_KEY, currencyDictionary, now);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as Error).message;
  }
  throw new Error('expected the webhook to be refused');
}

describe('parseMoonpayWebhook', () => {
  test('accepts a correctly signed transaction_created and reads the documented fields', () => {
    const body = fixture('webhook-transaction-created.json');
    const event = parseMoonpayWebhook(webhook(body), WEBHOOK_KEY, currencyDictionary, NOW);
    expect(event).toEqual({
      orderId: ORDER_ID,
      providerOrderId: 'defb7c52-7bd3-422b-9052-374df50cc51a',
      providerStatus: 'waitingPayment',
      status: 'pending',
      reported: ORDERED,
      providerOrderCreatedAt: '2024-02-17T18:24:45.206Z',
      eventId: createHash('sha256').update(body).digest('hex'),
    });
  });

  test('a createdAt that is not a time is left out; the webhook is still read', () => {
    const documented = JSON.parse(fixture('webhook-transaction-created.json')) as { data: Record<string, unknown> };
    const body = JSON.stringify({ ...documented, data: { ...documented.data, createdAt: '17/02/2024' } });
    const event = parseMoonpayWebhook(webhook(body), WEBHOOK_KEY, currencyDictionary, NOW);
    expect(event.providerOrderCreatedAt).toBeUndefined();
    expect(event.status).toBe('pending');
  });

  test.each([
    'webhook-transaction-created.json',
    'webhook-transaction-waiting-authorization.json',
    'webhook-transaction-updated.json',
    'webhook-transaction-failed.json',
    'webhook-transaction-expired.json',
  ])('%s is about our order and reports its terms: the charge is base + fee + extra fee + network fee', (file) => {
    const event = parseMoonpayWebhook(webhook(fixture(file)), WEBHOOK_KEY, currencyDictionary, NOW);
    expect(event.orderId).toBe(ORDER_ID);
    expect(event.reported).toEqual(ORDERED);
  });

  test('an asset on a network the dictionary lacks is reported as null, an unknown fiat too', () => {
    const body = JSON.parse(fixture('webhook-transaction-updated.json')) as { data: Record<string, Record<string, unknown>> };
    body.data.currency = {
      ...body.data.currency,
      code: 'usdc_glmr',
      metadata: { networkCode: 'moonbeam', contractAddress: '0x818ec0a7fe18ff94269904fced6ae3dae6d6dc0b' },
    };
    body.data.baseCurrency = { ...body.data.baseCurrency, code: 'xaf' };
    const event = parseMoonpayWebhook(webhook(JSON.stringify(body)), WEBHOOK_KEY, currencyDictionary, NOW);
    expect(event.reported).toMatchObject({ cryptoCurrency: null, fiatCurrency: null });
  });

  test("the order named is the transaction's own externalTransactionId", () => {
    const body = JSON.parse(fixture('webhook-transaction-updated.json')) as { data: Record<string, unknown> };
    body.data.externalTransactionId = 'another-order';
    expect(parseMoonpayWebhook(webhook(JSON.stringify(body)), WEBHOOK_KEY, currencyDictionary, NOW).orderId).toBe('another-order');
  });

  test.each([
    ['webhook-transaction-waiting-authorization.json', 'waitingAuthorization', 'hold', undefined],
    ['webhook-transaction-updated.json', 'pending', 'processing', undefined],
    ['webhook-transaction-failed.json', 'failed', 'failed', 'paypal_payment_failed'],
    ['webhook-transaction-expired.json', 'failed', 'expired', undefined],
  ])('%s -> %s / %s', (file, providerStatus, status, failureReason) => {
    const event = parseMoonpayWebhook(webhook(fixture(file)), WEBHOOK_KEY, currencyDictionary, NOW);
    expect(event.providerStatus).toBe(providerStatus);
    expect(event.status).toBe(status);
    expect(event.failureReason).toBe(failureReason);
  });

  test('a completed transaction carries the crypto amount and hash', () => {
    const body = JSON.stringify({ type: 'transaction_updated', data: JSON.parse(fixture('transaction-completed.json')) });
    const event = parseMoonpayWebhook(webhook(body), WEBHOOK_KEY, currencyDictionary, NOW);
    expect(event.status).toBe('complete');
    expect(event.cryptoAmount).toBe('0.0154');
    expect(event.transactionHash).toBe('0x6751c8fce2e0fb5d57bb4801b31b35a7160fa362e0c5703d44cfd508317ee2f8');
  });

  test('the same body delivered twice has the same event id; another body another', () => {
    const created = fixture('webhook-transaction-created.json');
    const updated = fixture('webhook-transaction-updated.json');
    const first = parseMoonpayWebhook(webhook(created, header(created, WEBHOOK_KEY, NOW)), WEBHOOK_KEY, currencyDictionary, NOW);
    const again = parseMoonpayWebhook(webhook(created, header(created, WEBHOOK_KEY, NOW + 30)), WEBHOOK_KEY, currencyDictionary, NOW + 30);
    expect(again.eventId).toBe(first.eventId);
    expect(parseMoonpayWebhook(webhook(updated), WEBHOOK_KEY, currencyDictionary, NOW).eventId).not.toBe(first.eventId);
  });

  test('refuses a tampered body', () => {
    const body = fixture('webhook-transaction-updated.json');
    expect(refused(webhook(body.replace('"pending"', '"completed"'), header(body)))).toMatch(/does not match/);
  });

  test('refuses a signature made with another key', () => {
    const body = fixture('webhook-transaction-updated.json');
    expect(refused(webhook(body, header(body, 'wk_test_someone_else')))).toMatch(/does not match/);
  });

  test('refuses a stale or future timestamp, accepts one within the window', () => {
    const body = fixture('webhook-transaction-updated.json');
    const old = NOW - MOONPAY_SIGNATURE_MAX_AGE_SECONDS - 1;
    expect(refused(webhook(body, header(body, WEBHOOK_KEY, old)))).toMatch(/timestamp/);
    expect(refused(webhook(body, header(body, WEBHOOK_KEY, NOW + MOONPAY_SIGNATURE_MAX_AGE_SECONDS + 1)))).toMatch(/timestamp/);
    const edge = NOW - MOONPAY_SIGNATURE_MAX_AGE_SECONDS;
    expect(parseMoonpayWebhook(webhook(body, header(body, WEBHOOK_KEY, edge)), WEBHOOK_KEY, currencyDictionary, NOW).status).toBe(
      'processing',
    );
  });

  test('refuses a missing or malformed header and an unsigned timestamp swap', () => {
    const body = fixture('webhook-transaction-updated.json');
    expect(refused({ headers: {}, rawBody: Buffer.from(body), query: {} })).toMatch(/no moonpay-signature-v2/);
    expect(refused(webhook(body, 's=abc'))).toMatch(/malformed/);
    const signature = header(body).split(',s=')[1]!;
    expect(refused(webhook(body, `t=${NOW + 1},s=${signature}`), NOW + 1)).toMatch(/does not match/);
  });

  test('refuses a signed body that is not a buy transaction event', () => {
    const body = JSON.stringify({ type: 'transaction_updated', data: { id: 'x' } });
    expect(refused(webhook(body))).toMatch(/not a MoonPay buy transaction event/);
    expect(refused(webhook('not json', header('not json')))).toMatch(/not JSON/);
  });

  test('refuses a genuinely signed event in a status MoonPay does not document (docs/decisions.md, Unknown provider statuses)', () => {
    const json = JSON.parse(fixture('webhook-transaction-updated.json')) as { data: { status: string } };
    json.data.status = 'someFutureStatus';
    const body = JSON.stringify(json);
    expect(refused(webhook(body))).toBe('signed body reports a status MoonPay does not document (someFutureStatus)');
  });
});
