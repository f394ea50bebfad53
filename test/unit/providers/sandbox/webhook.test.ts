import { createHmac } from 'node:crypto';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { ORDER_STATUSES, isOrderStatus } from '../../../../src/domain/order-status';
import {
  parseSandboxWebhook,
  SANDBOX_SIGNATURE_HEADER,
  SANDBOX_SIGNATURE_TOLERANCE_SECONDS,
} from '../../../../src/providers/sandbox/webhook';
import { SANDBOX_STATUS_MAP, SANDBOX_STATUSES, type SandboxStatus } from '../../../../src/providers/sandbox/status-map';
import { WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import { signSandboxPayload } from '../../../../src/simulators/sandbox/signing';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

const SECRET = 'sandbox_test_webhook_secret';
const NOW = 1_900_000_000;
const ORDER_ID = '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90';
const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

function event(status: SandboxStatus = 'PAYMENT_RECEIVED', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_id: 'evt_123',
    event_type: 'order.status_changed',
    order: {
      id: 'sbx_order_42',
      partner_order_id: ORDER_ID,
      status,
      fiat_currency: 'USD',
      fiat_amount: '100.00',
      crypto_currency: 'BTC',
      network: 'bitcoin',
      wallet_address: WALLET,
      crypto_amount: '0.00097992',
      checkout_url: 'http://127.0.0.1:4010/checkout/sbx_order_42',
      updated_at: '2030-01-01T12:00:00.000Z',
      ...extra,
    },
  };
}

function signed(body: string, options: { secret?: string; at?: number; header?: string } = {}): IncomingWebhook {
  const header = options.header ?? signSandboxPayload(options.secret ?? SECRET, body, options.at ?? NOW);
  return { headers: { [SANDBOX_SIGNATURE_HEADER]: header }, rawBody: Buffer.from(body, 'utf8'), query: {} };
}

function refusal(webhook: IncomingWebhook, now = NOW): WebhookVerificationError {
  try {
    parseSandboxWebhook(webhook, SECRET, currencyDictionary, now);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return err as WebhookVerificationError;
  }
  throw new Error('expected a WebhookVerificationError');
}

describe('signSandboxPayload', () => {
  test('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const expected = createHmac('sha256', SECRET).update(`${NOW}.{"a":1}`).digest('hex');
    expect(signSandboxPayload(SECRET, '{"a":1}', NOW)).toBe(`t=${NOW},v1=${expected}`);
  });

  test('depends on secret, body and time', () => {
    const base = signSandboxPayload(SECRET, 'x', NOW);
    expect(signSandboxPayload('other', 'x', NOW)).not.toBe(base);
    expect(signSandboxPayload(SECRET, 'y', NOW)).not.toBe(base);
    expect(signSandboxPayload(SECRET, 'x', NOW + 1)).not.toBe(base);
  });
});

describe('parseSandboxWebhook accepts', () => {
  test('a good payload, mapping the order onto the broker model', () => {
    const body = JSON.stringify(event('PAYMENT_RECEIVED', { tx_hash: '0xabc' }));
    expect(parseSandboxWebhook(signed(body), SECRET, currencyDictionary, NOW)).toEqual({
      orderId: ORDER_ID,
      providerOrderId: 'sbx_order_42',
      providerStatus: 'PAYMENT_RECEIVED',
      status: 'processing',
      failureReason: undefined,
      cryptoAmount: '0.00097992',
      transactionHash: '0xabc',
      reported: { walletAddress: WALLET, cryptoCurrency: crypto('BTC', 'bitcoin').id, fiatCurrency: fiat('USD').id, fiatAmount: '100.00' },
      eventId: 'evt_123',
    });
  });

  test('an asset or fiat currency the dictionary does not know is reported as null', () => {
    const body = JSON.stringify(event('PAYMENT_RECEIVED', { crypto_currency: 'SHIB', network: 'ethereum', fiat_currency: 'XAF' }));
    expect(parseSandboxWebhook(signed(body), SECRET, currencyDictionary, NOW).reported).toMatchObject({
      cryptoCurrency: null,
      fiatCurrency: null,
    });
  });

  test('an order without its terms reports none', () => {
    const { order, ...rest } = event() as { order: Record<string, unknown> };
    const bare = Object.fromEntries(
      Object.entries(order).filter(
        ([key]) => !['fiat_currency', 'fiat_amount', 'crypto_currency', 'network', 'wallet_address'].includes(key),
      ),
    );
    expect(parseSandboxWebhook(signed(JSON.stringify({ ...rest, order: bare })), SECRET, currencyDictionary, NOW)).not.toHaveProperty(
      'reported',
    );
  });

  test.each(Object.entries(SANDBOX_STATUS_MAP))('status %s maps to %s', (sandboxStatus, brokerStatus) => {
    const body = JSON.stringify(event(sandboxStatus as SandboxStatus));
    const parsed = parseSandboxWebhook(signed(body), SECRET, currencyDictionary, NOW);
    expect(parsed.status).toBe(brokerStatus);
    expect(parsed.providerStatus).toBe(sandboxStatus);
  });

  test('FAILED carries the failure reason, or a default', () => {
    const withReason = JSON.stringify(event('FAILED', { failure_reason: 'card_declined' }));
    expect(parseSandboxWebhook(signed(withReason), SECRET, currencyDictionary, NOW).failureReason).toBe('card_declined');
    const without = JSON.stringify(event('FAILED'));
    expect(parseSandboxWebhook(signed(without), SECRET, currencyDictionary, NOW).failureReason).toBe('failed_at_provider');
  });

  test('a failure_reason on a non-failed status is not passed on', () => {
    const body = JSON.stringify(event('COMPLETED', { failure_reason: 'stale' }));
    expect(parseSandboxWebhook(signed(body), SECRET, currencyDictionary, NOW).failureReason).toBeUndefined();
  });

  test.each([
    ['exactly at the tolerance in the past', -SANDBOX_SIGNATURE_TOLERANCE_SECONDS],
    ['exactly at the tolerance in the future', SANDBOX_SIGNATURE_TOLERANCE_SECONDS],
    ['one second old', -1],
    ['now', 0],
  ])('a timestamp %s', (_label, offset) => {
    const body = JSON.stringify(event());
    expect(parseSandboxWebhook(signed(body, { at: NOW + offset }), SECRET, currencyDictionary, NOW).status).toBe('processing');
  });

  test('a non-ASCII body, verified over its raw bytes', () => {
    const body = JSON.stringify(event('COMPLETED', { failure_reason: 'café ✓' }));
    expect(parseSandboxWebhook(signed(body), SECRET, currencyDictionary, NOW).status).toBe('complete');
  });

  test('spaces around the header parts', () => {
    const body = JSON.stringify(event());
    const header = signSandboxPayload(SECRET, body, NOW).replace(',', ' , ');
    expect(parseSandboxWebhook(signed(body, { header }), SECRET, currencyDictionary, NOW).eventId).toBe('evt_123');
  });

  test('the header parts in either order', () => {
    const body = JSON.stringify(event());
    const [t, v1] = signSandboxPayload(SECRET, body, NOW).split(',');
    expect(parseSandboxWebhook(signed(body, { header: `${v1},${t}` }), SECRET, currencyDictionary, NOW).eventId).toBe('evt_123');
  });

  test('uses the current time by default', () => {
    const body = JSON.stringify(event());
    const webhook = signed(body, { at: Math.floor(Date.now() / 1000) });
    expect(parseSandboxWebhook(webhook, SECRET, currencyDictionary).status).toBe('processing');
  });

  test('the tolerance is 300 seconds', () => {
    expect(SANDBOX_SIGNATURE_TOLERANCE_SECONDS).toBe(300);
    expect(SANDBOX_SIGNATURE_HEADER).toBe('sandbox-signature');
  });
});

describe('parseSandboxWebhook refuses', () => {
  const body = JSON.stringify(event());

  test('a tampered body', () => {
    const webhook = signed(body);
    const tampered = { ...webhook, rawBody: Buffer.from(body.replace('0.00097992', '9.00097992'), 'utf8') };
    expect(refusal(tampered).message).toBe('signature does not match');
  });

  test('a body with one byte appended', () => {
    const webhook = signed(body);
    expect(refusal({ ...webhook, rawBody: Buffer.from(`${body} `, 'utf8') }).message).toBe('signature does not match');
  });

  test('a wrong secret', () => {
    expect(refusal(signed(body, { secret: 'another_secret' })).message).toBe('signature does not match');
  });

  test('a signature made for another timestamp', () => {
    const [, v1] = signSandboxPayload(SECRET, body, NOW - 10).split(',');
    expect(refusal(signed(body, { header: `t=${NOW},${v1}` })).message).toBe('signature does not match');
  });

  test.each([
    ['stale, one second past the tolerance', -(SANDBOX_SIGNATURE_TOLERANCE_SECONDS + 1)],
    ['stale by an hour', -3600],
    ['in the future beyond the tolerance', SANDBOX_SIGNATURE_TOLERANCE_SECONDS + 1],
    ['a day in the future', 86_400],
  ])('a timestamp %s', (_label, offset) => {
    expect(refusal(signed(body, { at: NOW + offset })).message).toBe('signature timestamp outside the tolerance window');
  });

  test('a missing header', () => {
    expect(refusal({ headers: {}, rawBody: Buffer.from(body), query: {} }).message).toBe('missing sandbox-signature header');
  });

  test('a header under another name', () => {
    const header = signSandboxPayload(SECRET, body, NOW);
    expect(refusal({ headers: { 'x-signature': header }, rawBody: Buffer.from(body), query: {} }).message).toBe(
      'missing sandbox-signature header',
    );
  });

  test('a repeated header (array value)', () => {
    const header = signSandboxPayload(SECRET, body, NOW);
    expect(refusal({ headers: { [SANDBOX_SIGNATURE_HEADER]: [header, header] }, rawBody: Buffer.from(body), query: {} }).message).toBe(
      'missing sandbox-signature header',
    );
  });

  const good = signSandboxPayload(SECRET, body, NOW);
  const mac = good.split('v1=')[1]!;
  test.each([
    ['an empty header', ''],
    ['garbage', 'garbage'],
    ['no timestamp', `v1=${mac}`],
    ['no signature', `t=${NOW}`],
    ['a non-numeric timestamp', `t=abc,v1=${mac}`],
    ['a fractional timestamp', `t=${NOW}.5,v1=${mac}`],
    ['a short signature', `t=${NOW},v1=${mac.slice(1)}`],
    ['an uppercase hex signature', `t=${NOW},v1=${mac.toUpperCase()}`],
    ['a non-hex signature', `t=${NOW},v1=${'g'.repeat(64)}`],
    ['a base64 signature', `t=${NOW},v1=${Buffer.from(mac, 'hex').toString('base64')}`],
    ['another scheme only', `t=${NOW},v0=${mac}`],
  ])('a malformed header: %s', (_label, header) => {
    expect(refusal(signed(body, { header })).message).toBe('malformed signature header');
  });

  test('a correctly signed body that is not JSON', () => {
    expect(refusal(signed('not json {')).message).toBe('signed body is not JSON');
  });

  test.each<[string, unknown]>([
    ['an empty object', {}],
    ['an array', [event()]],
    ['a wrong event_type', { ...event(), event_type: 'order.created' }],
    ['an empty event_id', { ...event(), event_id: '' }],
    ['no order', { event_id: 'e', event_type: 'order.status_changed' }],
    ['an unknown status', event('UNKNOWN' as SandboxStatus)],
    ['a broker status instead of a sandbox one', event('complete' as SandboxStatus)],
    ['a numeric crypto amount', event('COMPLETED', { crypto_amount: 0.5 })],
    ['a negative crypto amount', event('COMPLETED', { crypto_amount: '-1' })],
    ['a bad checkout_url', event('COMPLETED', { checkout_url: 'nope' })],
    ['a bad updated_at', event('COMPLETED', { updated_at: 'yesterday' })],
    ['a missing partner_order_id', event('COMPLETED', { partner_order_id: undefined })],
  ])('a correctly signed body of the wrong shape: %s', (_label, payload) => {
    expect(refusal(signed(JSON.stringify(payload))).message).toBe('signed body is not a sandbox order event');
  });
});

describe('SANDBOX_STATUS_MAP', () => {
  test('every entry maps to a valid broker status', () => {
    for (const status of Object.values(SANDBOX_STATUS_MAP)) expect(isOrderStatus(status)).toBe(true);
  });

  test('covers every broker status exactly once', () => {
    expect(Object.values(SANDBOX_STATUS_MAP).sort()).toEqual([...ORDER_STATUSES].sort());
  });

  test('SANDBOX_STATUSES lists the map keys', () => {
    expect([...SANDBOX_STATUSES].sort()).toEqual(Object.keys(SANDBOX_STATUS_MAP).sort());
  });

  test('the documented mapping', () => {
    expect(SANDBOX_STATUS_MAP).toEqual({
      CREATED: 'created',
      AWAITING_PAYMENT: 'pending',
      ON_HOLD: 'hold',
      PAYMENT_RECEIVED: 'processing',
      COMPLETED: 'complete',
      FAILED: 'failed',
      EXPIRED: 'expired',
      REFUNDED: 'refunded',
    });
  });
});
