import { createHmac } from 'node:crypto';
import { MERCURYO_SIGNATURE_HEADER, parseMercuryoWebhook } from '../../../../src/providers/mercuryo/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import callbackWithdrawCompleted from './fixtures/callback-withdraw-completed.json';
import callbackWithdrawPending from './fixtures/callback-withdraw-pending.json';

const SIGN_KEY = 'dashboard_sign_key_for_tests';

/** The documented scheme, computed here independently: hex HMAC-SHA256 of the body with the Sign Key. */
const sign = (body: string, key = SIGN_KEY) => createHmac('sha256', key).update(body).digest('hex');

const webhook = (body: string, signature: string | undefined): IncomingWebhook => ({
  headers: signature === undefined ? {} : { [MERCURYO_SIGNATURE_HEADER]: signature },
  rawBody: Buffer.from(body, 'utf8'),
  query: {},
});

function refusal(incoming: IncomingWebhook): string {
  try {
    parseMercuryoWebhook(incoming, SIGN_KEY);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as Error).message;
  }
  throw new Error('expected a WebhookVerificationError');
}

describe('Mercuryo callback signature (X-Signature)', () => {
  const body = JSON.stringify(callbackWithdrawCompleted, null, 2);

  test('accepts the HMAC of the raw body and parses the event', () => {
    const event = parseMercuryoWebhook(webhook(body, sign(body)), SIGN_KEY);
    expect(event).toEqual({
      orderId: '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
      providerStatus: 'withdraw:completed',
      status: 'complete',
      cryptoAmount: '0.057312834222948850',
      transactionHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
      eventId: '0dbd28e5a51d70813:completed',
    });
  });

  test('accepts upper-case hex and the HMAC of the body with whitespace removed (the other documented variant)', () => {
    expect(parseMercuryoWebhook(webhook(body, sign(body).toUpperCase()), SIGN_KEY).status).toBe('complete');
    expect(parseMercuryoWebhook(webhook(body, sign(body.replace(/\s/g, ''))), SIGN_KEY).status).toBe('complete');
  });

  test('parses the documented example wrapped in `payload`', () => {
    const documented = JSON.stringify(callbackWithdrawPending);
    expect(parseMercuryoWebhook(webhook(documented, sign(documented)), SIGN_KEY)).toMatchObject({
      orderId: 'merchant_transaction_id',
      status: 'processing',
      eventId: 'event_id:pending',
    });
  });

  test('refuses a tampered body', () => {
    const tampered = body.replace('"completed"', '"failed"');
    expect(refusal(webhook(tampered, sign(body)))).toBe('signature does not match');
  });

  test('refuses a signature made with another key', () => {
    expect(refusal(webhook(body, sign(body, 'another_key')))).toBe('signature does not match');
  });

  test('refuses a missing or malformed header', () => {
    expect(refusal(webhook(body, undefined))).toMatch(/x-signature/);
    expect(refusal(webhook(body, 'v1=abc'))).toMatch(/x-signature/);
  });

  test('refuses signed bodies that are not a transaction callback', () => {
    expect(refusal(webhook('not json', sign('not json')))).toBe('signed body is not JSON');
    const other = JSON.stringify({ event_id: 'e', event_name: 'card_status', status: 'active' });
    expect(refusal(webhook(other, sign(other)))).toMatch(/not a Mercuryo transaction callback/);
  });

  test('the scheme has no timestamp: an old callback replayed still verifies (the broker de-duplicates by event id)', () => {
    const first = parseMercuryoWebhook(webhook(body, sign(body)), SIGN_KEY);
    const replay = parseMercuryoWebhook(webhook(body, sign(body)), SIGN_KEY);
    expect(replay.eventId).toBe(first.eventId);
  });
});
