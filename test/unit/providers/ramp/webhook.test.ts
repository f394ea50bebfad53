import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import { RAMP_DEMO_WEBHOOK_PUBLIC_KEY, RAMP_PRODUCTION_WEBHOOK_PUBLIC_KEY } from '../../../../src/providers/ramp/config';
import { parseRampWebhook } from '../../../../src/providers/ramp/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import created from './fixtures/webhook-created.json';
import released from './fixtures/webhook-released.json';

const ramp = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
const stranger = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });

/** Ramp's documented scheme: ECDSA secp256k1 / SHA-256 over the key-sorted compact JSON, DER in base64. */
function signed(body: unknown, key: KeyObject = ramp.privateKey, raw = JSON.stringify(body, null, 2)): IncomingWebhook {
  return {
    headers: { 'x-body-signature': sign('sha256', Buffer.from(stableStringify(body)), key).toString('base64') },
    rawBody: Buffer.from(raw),
    query: { order_id: 'order-1' },
  };
}

describe('Ramp webhook verification', () => {
  it('accepts a signed event and reads it, whatever the key order and spacing of the raw body', () => {
    const event = parseRampWebhook(signed(created), ramp.publicKey);
    expect(event).toEqual({
      orderId: 'order-1',
      providerOrderId: `${created.purchase.id}:${created.purchase.purchaseViewToken}`,
      providerStatus: 'INITIALIZED',
      status: 'pending',
      cryptoAmount: '0.03',
      eventId: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const reordered = JSON.stringify({ purchase: created.purchase, type: created.type });
    expect(parseRampWebhook(signed(created, ramp.privateKey, reordered), ramp.publicKey).eventId).toBe(event.eventId);
  });

  it('reads the released purchase with its transaction hash', () => {
    expect(parseRampWebhook(signed(released), ramp.publicKey)).toMatchObject({
      status: 'complete',
      providerStatus: 'RELEASED',
      transactionHash: released.purchase.finalTxHash,
    });
  });

  it('refuses a tampered body', () => {
    const webhook = signed(created);
    const tampered = { ...webhook, rawBody: Buffer.from(JSON.stringify({ ...created, purchase: { ...created.purchase, cryptoAmount: '90000000000000000' } })) };
    expect(() => parseRampWebhook(tampered, ramp.publicKey)).toThrow(WebhookVerificationError);
  });

  it('refuses a signature made with another key, including against the published keys', () => {
    const webhook = signed(created, stranger.privateKey);
    expect(() => parseRampWebhook(webhook, ramp.publicKey)).toThrow('signature does not match');
    expect(() => parseRampWebhook(signed(created), createPublicKey(RAMP_PRODUCTION_WEBHOOK_PUBLIC_KEY))).toThrow(WebhookVerificationError);
    expect(() => parseRampWebhook(signed(created), RAMP_DEMO_WEBHOOK_PUBLIC_KEY)).toThrow(WebhookVerificationError);
  });

  it('refuses a missing or malformed signature header', () => {
    expect(() => parseRampWebhook({ ...signed(created), headers: {} }, ramp.publicKey)).toThrow(/x-body-signature/);
    expect(() => parseRampWebhook({ ...signed(created), headers: { 'x-body-signature': 'not base64!' } }, ramp.publicKey)).toThrow(WebhookVerificationError);
  });

  it('refuses a signed body that is not a purchase event, and a URL without our order id', () => {
    expect(() => parseRampWebhook(signed({ type: 'CREATED' }), ramp.publicKey)).toThrow('signed body is not a Ramp purchase event');
    expect(() => parseRampWebhook({ ...signed(created), query: {} }, ramp.publicKey)).toThrow(/order_id/);
  });

  it('has no timestamp to check: the same signed body verifies again later', () => {
    const webhook = signed(created);
    expect(parseRampWebhook(webhook, ramp.publicKey).eventId).toBe(parseRampWebhook(webhook, ramp.publicKey).eventId);
  });
});
