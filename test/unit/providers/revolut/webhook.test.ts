import { createHmac } from 'node:crypto';
import {
  parseRevolutWebhookBody,
  REVOLUT_TIMESTAMP_TOLERANCE_MS,
  revolutEventId,
  verifyRevolutSignature,
} from '../../../../src/providers/revolut/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';

const SECRET = 'wsk_r3vOlUtTeStSiGnInGsEcReT0000000';
/** The documentation's example: `Revolut-Request-Timestamp` and the body of its payload_to_sign. */
const DOC_TIMESTAMP = 1715269527223;
const DOC_BODY =
  '{"order_id":"19218d6e-5f55-4a0d-b7c5-6e333881c1c9","wallet":"0x96e2B7Bf479f84e7A0a94f0620290B7D3E08f5EF","event":"ORDER_CREATED"}';

/** The documented scheme, written out: v1=<hex HMAC-SHA256(signing secret, "v1.<timestamp>.<raw body>")>. */
const sign = (body: string, timestamp: number | string, secret = SECRET) =>
  `v1=${createHmac('sha256', secret).update(`v1.${timestamp}.${body}`).digest('hex')}`;

function webhook(body: string, headers: Record<string, string | undefined>): IncomingWebhook {
  return { headers, rawBody: Buffer.from(body), query: {} };
}

const genuine = (body = DOC_BODY, at = DOC_TIMESTAMP) =>
  webhook(body, { 'revolut-request-timestamp': String(at), 'revolut-signature': sign(body, at) });

const refused =
  (w: IncomingWebhook, now = DOC_TIMESTAMP) =>
  () =>
    verifyRevolutSignature(w, SECRET, now);

describe('Revolut Ramp webhook signature', () => {
  test("the documentation's example payload verifies when signed as documented", () => {
    expect(() => verifyRevolutSignature(genuine(), SECRET, DOC_TIMESTAMP)).not.toThrow();
    expect(parseRevolutWebhookBody(Buffer.from(DOC_BODY))).toEqual({
      order_id: '19218d6e-5f55-4a0d-b7c5-6e333881c1c9',
      wallet: '0x96e2B7Bf479f84e7A0a94f0620290B7D3E08f5EF',
      event: 'ORDER_CREATED',
    });
  });

  test('another secret, or a changed body, is refused', () => {
    const forged = webhook(DOC_BODY, {
      'revolut-request-timestamp': String(DOC_TIMESTAMP),
      'revolut-signature': sign(DOC_BODY, DOC_TIMESTAMP, 'wsk_guess'),
    });
    expect(refused(forged)).toThrow(WebhookVerificationError);
    const edited = webhook(DOC_BODY.replace('ORDER_CREATED', 'ORDER_COMPLETED'), genuine().headers as Record<string, string>);
    expect(refused(edited)).toThrow('signature does not match');
    const spaced = webhook(` ${DOC_BODY}`, genuine().headers as Record<string, string>);
    expect(refused(spaced)).toThrow(WebhookVerificationError);
  });

  test('the timestamp is signed: another one with the same signature is refused', () => {
    const moved = webhook(DOC_BODY, {
      'revolut-request-timestamp': String(DOC_TIMESTAMP + 1),
      'revolut-signature': sign(DOC_BODY, DOC_TIMESTAMP),
    });
    expect(refused(moved, DOC_TIMESTAMP)).toThrow('signature does not match');
  });

  test('replayed after five minutes, or dated in the future beyond them, is refused', () => {
    expect(() => verifyRevolutSignature(genuine(), SECRET, DOC_TIMESTAMP + REVOLUT_TIMESTAMP_TOLERANCE_MS)).not.toThrow();
    expect(refused(genuine(), DOC_TIMESTAMP + REVOLUT_TIMESTAMP_TOLERANCE_MS + 1)).toThrow('more than five minutes');
    expect(refused(genuine(), DOC_TIMESTAMP - REVOLUT_TIMESTAMP_TOLERANCE_MS - 1)).toThrow('more than five minutes');
    // Seconds instead of milliseconds are 1970 to a millisecond clock.
    const seconds = Math.floor(DOC_TIMESTAMP / 1000);
    expect(refused(genuine(DOC_BODY, seconds))).toThrow('more than five minutes');
  });

  test('one valid signature among several (two active secrets) verifies', () => {
    const both = webhook(DOC_BODY, {
      'revolut-request-timestamp': String(DOC_TIMESTAMP),
      'revolut-signature': `${sign(DOC_BODY, DOC_TIMESTAMP, 'wsk_old')},${sign(DOC_BODY, DOC_TIMESTAMP)}`,
    });
    expect(() => verifyRevolutSignature(both, SECRET, DOC_TIMESTAMP)).not.toThrow();
  });

  test.each([
    ['no timestamp', { 'revolut-signature': sign(DOC_BODY, DOC_TIMESTAMP) }],
    [
      'a timestamp that is not a number',
      { 'revolut-request-timestamp': '2024-05-09T15:45:27Z', 'revolut-signature': sign(DOC_BODY, DOC_TIMESTAMP) },
    ],
    ['no signature', { 'revolut-request-timestamp': String(DOC_TIMESTAMP) }],
    [
      'a signature without its version',
      { 'revolut-request-timestamp': String(DOC_TIMESTAMP), 'revolut-signature': sign(DOC_BODY, DOC_TIMESTAMP).slice(3) },
    ],
    [
      'another version',
      { 'revolut-request-timestamp': String(DOC_TIMESTAMP), 'revolut-signature': `v2=${sign(DOC_BODY, DOC_TIMESTAMP).slice(3)}` },
    ],
    ['a short signature', { 'revolut-request-timestamp': String(DOC_TIMESTAMP), 'revolut-signature': 'v1=abcdef' }],
  ])('%s is refused', (_name, headers) => {
    expect(refused(webhook(DOC_BODY, headers))).toThrow(WebhookVerificationError);
  });

  test('a signed body that is not an order event is refused like a bad signature', () => {
    for (const body of [
      'not json',
      '[]',
      '{"order_id":"x","event":"ORDER_COMPLETED"}',
      '{"order_id":1,"wallet":"w","event":"ORDER_COMPLETED"}',
    ]) {
      expect(() => parseRevolutWebhookBody(Buffer.from(body))).toThrow(WebhookVerificationError);
    }
  });

  test('the event id is the same for a redelivery and differs between events', () => {
    const completed = Buffer.from(DOC_BODY.replace('ORDER_CREATED', 'ORDER_COMPLETED'));
    expect(revolutEventId(Buffer.from(DOC_BODY))).toBe(revolutEventId(Buffer.from(DOC_BODY)));
    expect(revolutEventId(Buffer.from(DOC_BODY))).not.toBe(revolutEventId(completed));
  });
});
