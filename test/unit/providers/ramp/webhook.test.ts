import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { RAMP_DEMO_WEBHOOK_PUBLIC_KEY, RAMP_PRODUCTION_WEBHOOK_PUBLIC_KEY } from '../../../../src/providers/ramp/config';
import { parseRampWebhook } from '../../../../src/providers/ramp/webhook';
import { rampWebhookQuery } from '../../../../src/providers/ramp/webhook-url';
import { WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';
import created from './fixtures/webhook-created.json';
import released from './fixtures/webhook-released.json';

const ramp = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
const URL_SECRET = 'broker-ramp-webhook-url-secret-0123456789';
const stranger = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });

/** Ramp's documented scheme: ECDSA secp256k1 / SHA-256 over the key-sorted compact JSON, DER in base64. */
function signed(body: unknown, key: KeyObject = ramp.privateKey, raw = JSON.stringify(body, null, 2)): IncomingWebhook {
  return {
    headers: { 'x-body-signature': sign('sha256', Buffer.from(stableStringify(body)), key).toString('base64') },
    rawBody: Buffer.from(raw),
    query: rampWebhookQuery(URL_SECRET, 'order-1'),
  };
}

/** What both fixtures' purchase states: ETH on Ethereum to this address, GBP 0.05 in all. */
const STATED = {
  walletAddress: created.purchase.receiverAddress,
  cryptoCurrency: crypto('ETH', 'ethereum').id,
  fiatCurrency: fiat('GBP').id,
  fiatAmount: '0.05',
};

describe('Ramp webhook verification', () => {
  it('accepts a signed event and reads it, whatever the key order and spacing of the raw body', () => {
    const event = parseRampWebhook(signed(created), ramp.publicKey, URL_SECRET, currencyDictionary);
    expect(event).toEqual({
      orderId: 'order-1',
      providerOrderId: `${created.purchase.id}:${created.purchase.purchaseViewToken}`,
      // Claimed by the purchase id alone: a body without the view token claims the same purchase.
      claimKey: created.purchase.id,
      providerStatus: 'INITIALIZED',
      status: 'pending',
      cryptoAmount: '0.03',
      reported: STATED,
      providerOrderCreatedAt: created.purchase.createdAt,
      eventId: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const reordered = JSON.stringify({ purchase: created.purchase, type: created.type });
    expect(parseRampWebhook(signed(created, ramp.privateKey, reordered), ramp.publicKey, URL_SECRET, currencyDictionary).eventId).toBe(
      event.eventId,
    );
  });

  it('reads the released purchase with its transaction hash, its purchase id and its terms', () => {
    expect(parseRampWebhook(signed(released), ramp.publicKey, URL_SECRET, currencyDictionary)).toMatchObject({
      orderId: 'order-1',
      providerOrderId: `${released.purchase.id}:${released.purchase.purchaseViewToken}`,
      status: 'complete',
      providerStatus: 'RELEASED',
      transactionHash: released.purchase.finalTxHash,
      reported: STATED,
    });
  });

  it('reports an asset the dictionary lacks, and a fiat currency it lacks, as null', () => {
    const purchase = { ...created.purchase, asset: { ...created.purchase.asset, chain: 'GLMR', symbol: 'GLMR' }, fiatCurrency: 'XAF' };
    expect(parseRampWebhook(signed({ ...created, purchase }), ramp.publicKey, URL_SECRET, currencyDictionary).reported).toEqual({
      ...STATED,
      cryptoCurrency: null,
      fiatCurrency: null,
    });
  });

  it('refuses a tampered body', () => {
    const webhook = signed(created);
    const tampered = {
      ...webhook,
      rawBody: Buffer.from(JSON.stringify({ ...created, purchase: { ...created.purchase, cryptoAmount: '90000000000000000' } })),
    };
    expect(() => parseRampWebhook(tampered, ramp.publicKey, URL_SECRET, currencyDictionary)).toThrow(WebhookVerificationError);
  });

  it('refuses a signature made with another key, including against the published keys', () => {
    const webhook = signed(created, stranger.privateKey);
    expect(() => parseRampWebhook(webhook, ramp.publicKey, URL_SECRET, currencyDictionary)).toThrow('signature does not match');
    expect(() =>
      parseRampWebhook(signed(created), createPublicKey(RAMP_PRODUCTION_WEBHOOK_PUBLIC_KEY), URL_SECRET, currencyDictionary),
    ).toThrow(WebhookVerificationError);
    expect(() => parseRampWebhook(signed(created), RAMP_DEMO_WEBHOOK_PUBLIC_KEY, URL_SECRET, currencyDictionary)).toThrow(
      WebhookVerificationError,
    );
  });

  it('refuses a missing or malformed signature header', () => {
    expect(() => parseRampWebhook({ ...signed(created), headers: {} }, ramp.publicKey, URL_SECRET, currencyDictionary)).toThrow(
      /x-body-signature/,
    );
    expect(() =>
      parseRampWebhook(
        { ...signed(created), headers: { 'x-body-signature': 'not base64!' } },
        ramp.publicKey,
        URL_SECRET,
        currencyDictionary,
      ),
    ).toThrow(WebhookVerificationError);
  });

  it('refuses a signed body that is not a purchase event, and a URL without our order id', () => {
    expect(() => parseRampWebhook(signed({ type: 'CREATED' }), ramp.publicKey, URL_SECRET, currencyDictionary)).toThrow(
      'signed body is not a Ramp purchase event',
    );
    expect(() => parseRampWebhook({ ...signed(created), query: {} }, ramp.publicKey, URL_SECRET, currencyDictionary)).toThrow(/order_id/);
  });

  it("refuses a genuine webhook posted to another order's URL: the order id must carry this broker's MAC", () => {
    const genuine = signed(created);
    const other = rampWebhookQuery(URL_SECRET, 'order-2');
    expect(parseRampWebhook({ ...genuine, query: other }, ramp.publicKey, URL_SECRET, currencyDictionary).orderId).toBe('order-2');
    // Without the MAC, with another order's MAC, or with a MAC made with another key.
    expect(() => parseRampWebhook({ ...genuine, query: { order_id: 'order-2' } }, ramp.publicKey, URL_SECRET, currencyDictionary)).toThrow(
      /not one this broker issued/,
    );
    expect(() =>
      parseRampWebhook({ ...genuine, query: { ...other, order_id: 'order-3' } }, ramp.publicKey, URL_SECRET, currencyDictionary),
    ).toThrow(/not one this broker issued/);
    expect(() =>
      parseRampWebhook(
        { ...genuine, query: rampWebhookQuery('another-broker-secret-0123456789abcdef', 'order-2') },
        ramp.publicKey,
        URL_SECRET,
        currencyDictionary,
      ),
    ).toThrow(/not one this broker issued/);
    expect(() =>
      parseRampWebhook({ ...genuine, query: { ...other, order_mac: 'zz' } }, ramp.publicKey, URL_SECRET, currencyDictionary),
    ).toThrow(/not one this broker issued/);
  });

  it('has no timestamp to check: the same signed body verifies again later', () => {
    const webhook = signed(created);
    expect(parseRampWebhook(webhook, ramp.publicKey, URL_SECRET, currencyDictionary).eventId).toBe(
      parseRampWebhook(webhook, ramp.publicKey, URL_SECRET, currencyDictionary).eventId,
    );
  });
});
