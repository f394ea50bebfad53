import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BANXA_NONCE_TOLERANCE_MS, banxaEventId, parseBanxaWebhookBody, verifyBanxaWebhook } from '../../../../src/providers/banxa/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import { banxaAuthorization } from '../../../../src/simulators/banxa/signing';

const CREDENTIALS = { apiKey: 'partner_key_123', apiSecret: 'partner_secret_456' };
const PATH = '/api/webhooks/banxa';
const NOW = 1_900_000_000_000;
// Banxa sends compact JSON; the fixture is re-serialised the same way.
const BODY = JSON.stringify(JSON.parse(readFileSync(join(__dirname, 'fixtures', 'webhook-v2.json'), 'utf8')));

/** The documented algorithm, written out here on its own: hex HMAC-SHA256 of METHOD\nPATH\nNONCE\nBODY. */
function independentHeader(options: { key?: string; secret?: string; path?: string; nonce?: string; body?: string } = {}): string {
  const nonce = options.nonce ?? String(NOW);
  const message = ['POST', options.path ?? PATH, nonce, options.body ?? BODY].join('\n');
  const signature = createHmac('sha256', options.secret ?? CREDENTIALS.apiSecret)
    .update(message)
    .digest('hex');
  return `Bearer ${options.key ?? CREDENTIALS.apiKey}:${signature}:${nonce}`;
}

const incoming = (authorization: string | undefined, body = BODY): IncomingWebhook => ({
  headers: { authorization },
  rawBody: Buffer.from(body, 'utf8'),
  query: {},
});

function refusal(webhook: IncomingWebhook, now = NOW): string {
  try {
    verifyBanxaWebhook(webhook, CREDENTIALS, PATH, now);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as Error).message;
  }
  throw new Error('expected a WebhookVerificationError');
}

describe('Banxa webhook signature', () => {
  test('the simulator signs exactly as the documented algorithm', () => {
    expect(banxaAuthorization(CREDENTIALS, { method: 'POST', path: PATH, body: BODY }, NOW)).toBe(independentHeader());
  });

  test('accepts a correctly signed webhook, with a millisecond, second or microsecond nonce', () => {
    expect(() => verifyBanxaWebhook(incoming(independentHeader()), CREDENTIALS, PATH, NOW)).not.toThrow();
    const seconds = String(NOW / 1000);
    expect(() => verifyBanxaWebhook(incoming(independentHeader({ nonce: seconds })), CREDENTIALS, PATH, NOW)).not.toThrow();
    const micros = `${NOW}123`;
    expect(() => verifyBanxaWebhook(incoming(independentHeader({ nonce: micros })), CREDENTIALS, PATH, NOW)).not.toThrow();
  });

  test('refuses a tampered body', () => {
    expect(refusal(incoming(independentHeader(), BODY.replace('"complete"', '"refunded"')))).toBe('signature does not match');
  });

  test('refuses another API key, and a signature made with another secret', () => {
    expect(refusal(incoming(independentHeader({ key: 'someone_else' })))).toBe('signed with another API key');
    expect(refusal(incoming(independentHeader({ secret: 'wrong_secret' })))).toBe('signature does not match');
  });

  test('refuses a signature over another path', () => {
    expect(refusal(incoming(independentHeader({ path: '/other/path' })))).toBe('signature does not match');
  });

  test('refuses a stale or future nonce', () => {
    expect(refusal(incoming(independentHeader()), NOW + BANXA_NONCE_TOLERANCE_MS + 1)).toBe('nonce outside the tolerance window');
    expect(refusal(incoming(independentHeader()), NOW - BANXA_NONCE_TOLERANCE_MS - 1)).toBe('nonce outside the tolerance window');
    expect(refusal(incoming(independentHeader({ nonce: '12345' })))).toBe('nonce is not a Unix timestamp');
  });

  test('refuses a missing or malformed Authorization header', () => {
    expect(refusal(incoming(undefined))).toBe('missing Authorization header');
    expect(refusal(incoming('Bearer partner_key_123'))).toBe('malformed Authorization header');
    expect(refusal(incoming(independentHeader().replace('Bearer ', 'Basic ')))).toBe('malformed Authorization header');
  });
});

describe('Banxa webhook body', () => {
  test('parses the documented v2 body, the status-only body and the legacy order-id body', () => {
    expect(parseBanxaWebhookBody(Buffer.from(BODY))).toMatchObject({ order_id: 'd9efc5d228cb7edfc4b6bb82f7b39f94', status: 'complete' });
    expect(parseBanxaWebhookBody(Buffer.from('{"order_id":"e82c57","status":"expired","status_date":"2024-01-31 12:48:36"}'))).toEqual({
      order_id: 'e82c57',
      status: 'expired',
      status_date: '2024-01-31 12:48:36',
    });
    expect(parseBanxaWebhookBody(Buffer.from('{"order_id":"3526cc"}'))).toEqual({ order_id: '3526cc' });
  });

  test('refuses a body that is not JSON or not an order webhook', () => {
    expect(() => parseBanxaWebhookBody(Buffer.from('order_id=1'))).toThrow(WebhookVerificationError);
    expect(() => parseBanxaWebhookBody(Buffer.from('{"status":"complete"}'))).toThrow(WebhookVerificationError);
  });

  test('the event id is stable for a repeated payload and differs between payloads', () => {
    expect(banxaEventId(Buffer.from(BODY))).toBe(banxaEventId(Buffer.from(BODY)));
    expect(banxaEventId(Buffer.from(BODY))).not.toBe(banxaEventId(Buffer.from('{"order_id":"x"}')));
  });
});
