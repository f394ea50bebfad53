import { createHmac } from 'node:crypto';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { mercuryoCurrencyIds } from '../../../../src/providers/mercuryo/reported';
import { MERCURYO_SIGNATURE_HEADER, parseMercuryoWebhook } from '../../../../src/providers/mercuryo/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import { currencyId as id } from '../../../helpers/currencies';
import callbackWithdrawCompleted from './fixtures/callback-withdraw-completed.json';
import callbackWithdrawPending from './fixtures/callback-withdraw-pending.json';

const SIGN_KEY = 'dashboard_sign_key_for_tests';
const ids = mercuryoCurrencyIds(currencyDictionary);

/**
 * The documented scheme, computed here independently: hex HMAC-SHA256, keyed with the Sign Key, of
 * the raw body with all whitespace removed (widget.docs.mercuryo.io, Callback Signature Verification).
 */
const sign = (body: string, key = SIGN_KEY) => createHmac('sha256', key).update(body.replace(/\s/g, '')).digest('hex');
/** The HMAC of the body exactly as sent, which Mercuryo does not document as what it signs. */
const signRaw = (body: string) => createHmac('sha256', SIGN_KEY).update(body).digest('hex');

const webhook = (body: string, signature: string | undefined): IncomingWebhook => ({
  headers: signature === undefined ? {} : { [MERCURYO_SIGNATURE_HEADER]: signature },
  rawBody: Buffer.from(body, 'utf8'),
  query: {},
});

const parse = (incoming: IncomingWebhook) => parseMercuryoWebhook(incoming, SIGN_KEY, ids);

function refusal(incoming: IncomingWebhook): string {
  try {
    parse(incoming);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as Error).message;
  }
  throw new Error('expected a WebhookVerificationError');
}

describe('Mercuryo callback signature (X-Signature)', () => {
  const body = JSON.stringify(callbackWithdrawCompleted, null, 2);

  test('accepts the HMAC of the body without whitespace and parses the event, with the terms it states', () => {
    expect(parse(webhook(body, sign(body)))).toEqual({
      orderId: '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
      providerStatus: 'withdraw:completed',
      status: 'complete',
      cryptoAmount: '0.057312834222948850',
      transactionHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
      reported: { walletAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e', fiatCurrency: id('USD'), fiatAmount: '99.00' },
      // created_at_ts, 1745006181.
      providerOrderCreatedAt: '2025-04-18T19:56:21.000Z',
      eventId: 'withdraw:0dbd28e5a51d70813:completed:1745006555',
    });
  });

  test('accepts upper-case hex', () => {
    expect(parse(webhook(body, sign(body).toUpperCase())).status).toBe('complete');
  });

  test('refuses the HMAC of the raw body when the body has whitespace: only the documented form is accepted', () => {
    expect(signRaw(body)).not.toBe(sign(body));
    expect(refusal(webhook(body, signRaw(body)))).toBe('signature does not match');
  });

  test('whitespace added anywhere, inside values too, verifies as the same event with the same content', () => {
    const genuine = parse(webhook(body, sign(body)));
    const padded = body
      .replace('"0dbd28e5a51d70813"', '"0dbd28e5 a51d70813"')
      .replace('"completed"', '"com\tpleted"')
      .replace('{', '{\n\n   ');
    expect(padded).not.toBe(body);
    expect(parse(webhook(padded, sign(body)))).toEqual(genuine);
  });

  test('the event id is built from the type, operation id, status and update time', () => {
    const later = JSON.stringify({ data: { ...callbackWithdrawCompleted.data, updated_at_ts: 1745006999 } });
    expect(parse(webhook(later, sign(later))).eventId).toBe('withdraw:0dbd28e5a51d70813:completed:1745006999');
    const { updated_at_ts: _ts, ...withoutTs } = callbackWithdrawCompleted.data;
    const dated = JSON.stringify({ data: withoutTs });
    expect(parse(webhook(dated, sign(dated))).eventId).toBe('withdraw:0dbd28e5a51d70813:completed:2025-04-1820:02:35');
  });

  test('parses the documented example wrapped in `payload`', () => {
    const documented = JSON.stringify(callbackWithdrawPending);
    expect(parse(webhook(documented, sign(documented)))).toMatchObject({
      orderId: 'merchant_transaction_id',
      status: 'processing',
      eventId: 'withdraw:event_id:pending:1615320320',
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

  test('refuses a genuinely signed callback whose status or type Mercuryo does not document', () => {
    const unknownStatus = JSON.stringify({ data: { ...callbackWithdrawCompleted.data, status: 'brand_new_status' } });
    expect(refusal(webhook(unknownStatus, sign(unknownStatus)))).toMatch(/does not document \(withdraw:brand_new_status\)/);
    const unknownType = JSON.stringify({ data: { ...callbackWithdrawCompleted.data, type: 'spend_card' } });
    expect(refusal(webhook(unknownType, sign(unknownType)))).toMatch(/does not document \(spend_card:completed\)/);
  });

  test('the scheme has no timestamp: an old callback replayed still verifies (the broker de-duplicates by event id)', () => {
    const first = parse(webhook(body, sign(body)));
    const replay = parse(webhook(body, sign(body)));
    expect(replay.eventId).toBe(first.eventId);
  });
});
