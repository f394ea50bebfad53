import { createHmac } from 'node:crypto';
import { currencyDictionary } from '../../../../src/domain/currencies';
import {
  COINBASE_SIGNATURE_HEADER,
  COINBASE_SIGNATURE_MAX_AGE_SECONDS,
  parseCoinbaseWebhook,
} from '../../../../src/providers/coinbase/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

const SECRET = 'whsec_documented_example';
const NOW = 1_728_394_718;
const ORDER_ID = '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90';

/** The documented webhook example's fields (Coinbase's onramp.transaction.* body), with our order id as partnerUserRef. */
const EVENT = {
  eventType: 'onramp.transaction.success',
  transactionId: '1f087a54-ff1f-62e8-9f85-aa77ac0499a5',
  status: 'ONRAMP_TRANSACTION_STATUS_SUCCESS',
  purchaseCurrency: 'USDC',
  purchaseNetwork: 'ethereum',
  purchaseAmount: { currency: 'USDC', value: '94.85' },
  paymentTotal: { currency: 'USD', value: '100.00' },
  paymentSubtotal: { currency: 'USD', value: '97.20' },
  coinbaseFee: { currency: 'USD', value: '2.50' },
  networkFee: { currency: 'USD', value: '0.30' },
  exchangeRate: { currency: 'USD', value: '1.02' },
  txHash: '0xabc123',
  createdAt: '2025-09-02T02:34:13Z',
  completedAt: '2025-09-02T02:36:13Z',
  country: 'US',
  userId: '4132b63ee21128686458155b28570289',
  paymentMethod: 'CARD',
  walletAddress: '0xe0512E358C347cc2b1A42d057065CE642068b7Ba',
  type: 'ONRAMP_TRANSACTION_TYPE_BUY_AND_SEND',
  userType: 'USER_TYPE_GUEST',
  partnerUserRef: ORDER_ID,
  contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  failureReason: 'FAILURE_REASON_UNSPECIFIED',
  endPartnerName: '',
  errorCode: 'ERROR_CODE_UNSPECIFIED',
};

const HEADERS = { 'content-type': 'application/json', 'x-event-id': 'evt-1', 'x-event-type': 'onramp.transaction.success' };

/** The documented scheme, written out: v1 = hex HMAC-SHA256(secret, "<t>.<h>.<header values joined by '.'>.<body>"). */
function signature(body: string, at = NOW, secret = SECRET, names = 'content-type x-event-id x-event-type'): string {
  const values = names
    .split(' ')
    .map((n) => HEADERS[n as keyof typeof HEADERS])
    .join('.');
  const v0 = createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
  const v1 = createHmac('sha256', secret).update(`${at}.${names}.${values}.${body}`).digest('hex');
  return `t=${at},v0=${v0},h=${names},v1=${v1}`;
}

function webhook(body: string, sig = signature(body), headers: Record<string, string> = HEADERS): IncomingWebhook {
  return { headers: { ...headers, [COINBASE_SIGNATURE_HEADER]: sig }, rawBody: Buffer.from(body, 'utf8'), query: {} };
}

function refused(incoming: IncomingWebhook, now = NOW): string {
  try {
    parseCoinbaseWebhook(incoming, SECRET, currencyDictionary, now);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as Error).message;
  }
  throw new Error('accepted');
}

describe('Coinbase webhooks', () => {
  const body = JSON.stringify(EVENT);

  test('a genuine event: our order, the transaction, complete, its hash, and the terms it states', () => {
    const event = parseCoinbaseWebhook(webhook(body), SECRET, currencyDictionary, NOW);
    expect(event).toMatchObject({
      orderId: ORDER_ID,
      providerOrderId: EVENT.transactionId,
      providerStatus: 'ONRAMP_TRANSACTION_STATUS_SUCCESS',
      status: 'complete',
      cryptoAmount: '94.85',
      transactionHash: '0xabc123',
      reported: {
        walletAddress: EVENT.walletAddress,
        cryptoCurrency: crypto('USDC', 'ethereum').id,
        fiatCurrency: fiat('USD').id,
        fiatAmount: '100.00',
      },
      providerOrderCreatedAt: '2025-09-02T02:34:13.000Z',
    });
    expect(event.eventId).toMatch(/^[0-9a-f]{64}$/);
  });

  test.each([['yesterday'], [1756780453], [null]])('a createdAt of %j is left out, and the event is still read', (createdAt) => {
    const odd = JSON.stringify({ ...EVENT, createdAt });
    const event = parseCoinbaseWebhook(webhook(odd, signature(odd)), SECRET, currencyDictionary, NOW);
    expect(event).not.toHaveProperty('providerOrderCreatedAt');
    expect(event.status).toBe('complete');
  });

  test('v1 binds the headers h names: another value of one of them is refused', () => {
    expect(refused(webhook(body, signature(body), { ...HEADERS, 'x-event-type': 'onramp.transaction.failed' }))).toMatch(/does not match/);
  });

  test('a body changed after signing, another secret, a stale or future timestamp are refused', () => {
    expect(refused(webhook(body.replace('100.00', '1.00'), signature(body)))).toMatch(/does not match/);
    expect(refused(webhook(body, signature(body, NOW, 'whsec_other')))).toMatch(/does not match/);
    expect(refused(webhook(body), NOW + COINBASE_SIGNATURE_MAX_AGE_SECONDS + 1)).toMatch(/away/);
    expect(refused(webhook(body), NOW - COINBASE_SIGNATURE_MAX_AGE_SECONDS - 1)).toMatch(/away/);
  });

  test('a replay re-signed with the old signature under a new timestamp is refused', () => {
    const original = signature(body);
    const replayed = original.replace(`t=${NOW}`, `t=${NOW + 100}`);
    expect(refused(webhook(body, replayed), NOW + 100)).toMatch(/does not match/);
  });

  test.each([
    ['no header', undefined],
    ['empty', ''],
    ['no v1', `t=${NOW},h=content-type`],
    ['v0 only', `t=${NOW},v0=${'a'.repeat(64)}`],
    ['short v1', `t=${NOW},h=content-type,v1=abcd`],
    ['non-numeric t', `t=soon,h=content-type,v1=${'a'.repeat(64)}`],
    ['odd header names', `t=${NOW},h=content-type;x,v1=${'a'.repeat(64)}`],
  ])('a malformed signature header (%s) is refused', (_name, value) => {
    const incoming = webhook(body);
    if (value === undefined) delete incoming.headers[COINBASE_SIGNATURE_HEADER];
    else incoming.headers[COINBASE_SIGNATURE_HEADER] = value;
    refused(incoming);
  });

  test('a repeated signature header or bound header is refused', () => {
    const incoming = webhook(body);
    incoming.headers[COINBASE_SIGNATURE_HEADER] = [signature(body), signature(body)];
    refused(incoming);
    const repeated = webhook(body);
    repeated.headers['x-event-id'] = ['evt-1', 'evt-2'];
    expect(refused(repeated)).toMatch(/repeated/);
  });

  test('a genuine signature over something that is not an Onramp event, or an undocumented status, is refused', () => {
    const notJson = 'not json';
    refused(webhook(notJson, signature(notJson)));
    const other = JSON.stringify({ ...EVENT, eventType: 'offramp.transaction.success' });
    refused(webhook(other, signature(other)));
    const unknown = JSON.stringify({ ...EVENT, status: 'ONRAMP_TRANSACTION_STATUS_REFUNDED' });
    expect(refused(webhook(unknown, signature(unknown)))).toMatch(/does not document/);
  });

  test('a failed event carries its failure reason; a placeholder hash "0x" is no hash', () => {
    const failed = JSON.stringify({
      ...EVENT,
      eventType: 'onramp.transaction.failed',
      status: 'ONRAMP_TRANSACTION_STATUS_FAILED',
      txHash: '0x',
      failureReason: 'FAILURE_REASON_BUY_FAILED',
    });
    const event = parseCoinbaseWebhook(webhook(failed, signature(failed)), SECRET, currencyDictionary, NOW);
    expect(event).toMatchObject({ status: 'failed', failureReason: 'FAILURE_REASON_BUY_FAILED' });
    expect(event.transactionHash).toBeUndefined();
  });
});
