/**
 * MoonPay's sell (off-ramp) status map, transformers and webhooks, against the shape of the
 * documented `sell_transaction_created` example (fixtures/webhook-sell-transaction-created.json:
 * ETH 2 → USD 3123.07 by ACH, ids completed) and the buy webhooks' fixtures.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { sellWidgetUrlOf } from '../../../../src/providers/moonpay/config';
import { MoonpaySellQuoteSchema, MoonpaySellTransactionsSchema } from '../../../../src/providers/moonpay/sell-schemas';
import { mapMoonpaySellStatus, MOONPAY_SELL_STATUS_MAP } from '../../../../src/providers/moonpay/sell-status-map';
import { fromSellQuote, fromSellTransactions, toSellWidgetParams } from '../../../../src/providers/moonpay/sell-transformers';
import { isMoonpaySellWebhook, parseMoonpaySellWebhook } from '../../../../src/providers/moonpay/sell-webhook';
import { MOONPAY_SIGNATURE_HEADER, parseMoonpayWebhook } from '../../../../src/providers/moonpay/webhook';
import { signedWidgetUrl, signWidgetQuery } from '../../../../src/providers/moonpay/widget';
import type { MoonpayCurrency } from '../../../../src/providers/moonpay/schemas';
import type { CreateSellOrderRequest } from '../../../../src/providers/sell-types';
import { IgnoredWebhookError, WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

const WEBHOOK_KEY = 'wk_test_documented_example_key';
const NOW = 1_708_709_460;
const ORDER_ID = '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90';
const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const sellBody = fixture('webhook-sell-transaction-created.json');
const sellEvent = JSON.parse(sellBody) as { type: string; data: Record<string, unknown> };

const header = (body: string, key = WEBHOOK_KEY, at = NOW) =>
  `t=${at},s=${createHmac('sha256', key).update(`${at}.${body}`).digest('hex')}`;
const webhook = (body: string, signature = header(body)): IncomingWebhook => ({
  headers: { [MOONPAY_SIGNATURE_HEADER]: signature, 'content-type': 'application/json' },
  rawBody: Buffer.from(body, 'utf8'),
  query: {},
});
const withData = (data: Record<string, unknown>, type = sellEvent.type) => JSON.stringify({ type, data: { ...sellEvent.data, ...data } });
const parse = (body: string) => parseMoonpaySellWebhook(webhook(body), WEBHOOK_KEY, currencyDictionary, NOW);

function refusal(body: string, incoming = webhook(body)): string {
  try {
    parseMoonpaySellWebhook(incoming, WEBHOOK_KEY, currencyDictionary, NOW);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as Error).message;
  }
  throw new Error('expected the webhook to be refused');
}

describe('MoonPay sell status map', () => {
  test.each([
    ['waitingForDeposit', {}, 'waiting_for_deposit'],
    ['requoteRequired', {}, 'waiting_for_deposit'],
    ['pending', {}, 'waiting_for_deposit'],
    ['pending', { depositHash: '0xabc' }, 'deposit_received'],
    ['completed', { depositHash: '0xabc' }, 'complete'],
    ['failed', { failureReason: 'Deposit timeout' }, 'expired'],
    ['failed', { failureReason: 'Something', refundHash: '0xdef' }, 'refunded'],
    ['noSellTransactionYet', {}, 'created'],
  ] as const)('%s %j → %s', (status, facts, expected) => {
    expect(mapMoonpaySellStatus(status, facts).status).toBe(expected);
  });

  test('a plain failure keeps its reason as a code', () => {
    expect(mapMoonpaySellStatus('failed', { failureReason: 'Payout declined' })).toEqual({
      status: 'failed',
      failureReason: 'payout_declined',
    });
    expect(mapMoonpaySellStatus('failed')).toEqual({ status: 'failed', failureReason: expect.any(String) });
  });

  test('every documented status is mapped; anything else (a buy status, a prototype key) is refused', () => {
    for (const status of Object.keys(MOONPAY_SELL_STATUS_MAP)) expect(() => mapMoonpaySellStatus(status)).not.toThrow();
    for (const status of ['waitingPayment', 'waitingAuthorization', 'refunded', 'toString', 'COMPLETED']) {
      expect(() => mapMoonpaySellStatus(status)).toThrow(UnknownProviderStatusError);
    }
  });
});

describe('MoonPay sell quote and widget URL', () => {
  test('the documented sell quote: crypto in, fiat payout, fees by kind, no network fee', () => {
    const quote = MoonpaySellQuoteSchema.parse({
      baseCurrencyCode: 'eth',
      baseCurrencyAmount: 0.575,
      quoteCurrencyCode: 'eur',
      quoteCurrencyAmount: 1521.11,
      baseCurrencyPrice: 2671.35,
      feeAmount: 15.36,
      extraFeeAmount: 0,
      payoutMethod: 'credit_debit_card',
      signature: 'really-long-string',
      expiresIn: 1800,
      expiresAt: '2024-02-23T00:58:26.577Z',
    });
    expect(fromSellQuote(quote, 'card')).toEqual({
      cryptoAmount: '0.575',
      fiatAmount: '1521.11',
      processingFee: '15.36',
      networkFee: '0',
      payoutMethod: 'card',
      expiresAt: new Date('2024-02-23T00:58:26.577Z'),
    });
  });

  const request: CreateSellOrderRequest = {
    orderId: ORDER_ID,
    crypto: crypto('ETH', 'ethereum'),
    fiat: fiat('USD'),
    cryptoAmount: '2',
    refundWalletAddress: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
    payoutMethod: 'ach',
    country: 'US',
    externalUserId: 'user-1',
    returnUrl: 'https://wallet.example/done',
    extras: { depositWalletAddress: '0xattacker', redirect_url: 'https://evil.example', deposit: { address: '0xattacker' } },
  };
  const terms = {
    crypto: { id: 'x', type: 'crypto', code: 'eth', name: 'Ethereum' } as MoonpayCurrency,
    fiat: { id: 'y', type: 'fiat', code: 'usd', name: 'US Dollar' } as MoonpayCurrency,
    method: { id: 'ach_bank_transfer', code: 'ach', name: 'ACH' },
  };

  test('the widget URL carries the sale, our order id and the refund address, signed with the secret key; extras add nothing', () => {
    const params = toSellWidgetParams('pk_test_key', terms, request);
    expect(params).toEqual({
      apiKey: 'pk_test_key',
      baseCurrencyCode: 'eth',
      baseCurrencyAmount: '2',
      quoteCurrencyCode: 'usd',
      paymentMethod: 'ach_bank_transfer',
      refundWalletAddress: request.refundWalletAddress,
      externalTransactionId: ORDER_ID,
      externalCustomerId: 'user-1',
      redirectURL: 'https://wallet.example/done',
    });
    const url = signedWidgetUrl('https://sell-sandbox.moonpay.com', 'sk_test_secret', params);
    const at = url.indexOf('&signature=');
    const query = url.slice(url.indexOf('?'), at);
    expect(decodeURIComponent(url.slice(at + '&signature='.length))).toBe(signWidgetQuery('sk_test_secret', query));
    expect(url).not.toContain('attacker');
    expect(url).not.toContain('evil.example');
  });

  test('the sell widget host: MoonPay sell hosts by key mode, the simulator beside its buy widget', () => {
    expect(sellWidgetUrlOf({ widgetUrl: 'https://buy-sandbox.moonpay.com', publishableKey: 'pk_test_x' })).toBe(
      'https://sell-sandbox.moonpay.com',
    );
    expect(sellWidgetUrlOf({ widgetUrl: 'https://buy.moonpay.com', publishableKey: 'pk_live_x' })).toBe('https://sell.moonpay.com');
    expect(sellWidgetUrlOf({ widgetUrl: 'http://127.0.0.1:4010/moonpay/widget', publishableKey: 'pk_test_x' })).toBe(
      'http://127.0.0.1:4010/moonpay/sell-widget',
    );
  });
});

describe('MoonPay sell transactions', () => {
  test('the ext lookup is read as an array or as one object', () => {
    expect(MoonpaySellTransactionsSchema.parse(sellEvent.data)).toHaveLength(1);
    expect(MoonpaySellTransactionsSchema.parse([sellEvent.data, sellEvent.data])).toHaveLength(2);
  });

  test('none yet: created, nothing reported', () => {
    expect(fromSellTransactions(ORDER_ID, [], currencyDictionary)).toEqual({
      orderId: ORDER_ID,
      providerStatus: 'noSellTransactionYet',
      status: 'created',
    });
  });

  test('a float depositHash (as one documented example shows) is no hash', () => {
    const [tx] = MoonpaySellTransactionsSchema.parse({ ...sellEvent.data, status: 'pending', depositHash: 8.377408903480862e76 });
    expect(fromSellTransactions(ORDER_ID, [tx!], currencyDictionary)).toMatchObject({ status: 'waiting_for_deposit' });
    expect(fromSellTransactions(ORDER_ID, [tx!], currencyDictionary).transactionHash).toBeUndefined();
  });
});

describe('MoonPay sell webhooks', () => {
  test('routing reads the unverified type: sell_transaction_* only', () => {
    expect(isMoonpaySellWebhook(webhook(sellBody))).toBe(true);
    expect(isMoonpaySellWebhook(webhook(fixture('webhook-transaction-created.json')))).toBe(false);
    expect(isMoonpaySellWebhook(webhook('not json'))).toBe(false);
    expect(isMoonpaySellWebhook(webhook('"sell_transaction_created"'))).toBe(false);
  });

  test('a correctly signed sell_transaction_created: our order, its terms, no deposit', () => {
    const event = parse(sellBody);
    expect(event).toEqual({
      orderId: ORDER_ID,
      providerOrderId: '7b9e1c2a-4f5d-4e6a-9c3b-2d1e0f8a7b6c',
      providerStatus: 'waitingForDeposit',
      status: 'waiting_for_deposit',
      reported: {
        cryptoCurrency: crypto('ETH', 'ethereum').id,
        cryptoAmount: '2',
        fiatCurrency: fiat('USD').id,
        fiatAmount: '3123.07',
        refundWalletAddress: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
      },
      providerOrderCreatedAt: '2024-02-23T17:30:50.402Z',
      eventId: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(event.deposit).toBeUndefined();
  });

  test('the walk: pending with a deposit hash, completed, a deposit timeout, a refund', () => {
    const pending = parse(withData({ status: 'pending', depositHash: '0xdeadbeef' }, 'sell_transaction_updated'));
    expect(pending).toMatchObject({ status: 'deposit_received', transactionHash: '0xdeadbeef' });
    expect(parse(withData({ status: 'completed', depositHash: '0xdeadbeef' }, 'sell_transaction_updated'))).toMatchObject({
      status: 'complete',
      transactionHash: '0xdeadbeef',
    });
    expect(parse(withData({ status: 'failed', failureReason: 'Deposit timeout' }, 'sell_transaction_failed')).status).toBe('expired');
    expect(parse(withData({ status: 'failed', failureReason: 'Refunded', refundHash: '0xfeed' }, 'sell_transaction_failed')).status).toBe(
      'refunded',
    );
    expect(parse(withData({ status: 'requoteRequired' }, 'sell_transaction_requote_required')).status).toBe('waiting_for_deposit');
  });

  test('no field of a verified body, documented or not, gives a deposit', () => {
    const body = withData({
      depositWalletId: 'w1',
      depositWallet: { id: 'w1', walletAddress: '0xattacker', walletAddressTag: '1', currencyId: 'c' },
      depositWalletAddress: '0xattacker',
      integratedSellDepositInfo: { address: '0xattacker' },
    });
    expect(parse(body).deposit).toBeUndefined();
  });

  test('forged, tampered, stale or unsigned sell webhooks are refused', () => {
    expect(refusal(sellBody, webhook(sellBody, header(sellBody, 'wk_wrong_key')))).toMatch(/does not match/);
    expect(refusal(sellBody, webhook(sellBody.replace('3123.07', '9123.07'), header(sellBody)))).toMatch(/does not match/);
    expect(refusal(sellBody, webhook(sellBody, header(sellBody, WEBHOOK_KEY, NOW - 3600)))).toMatch(/more than/);
    expect(refusal(sellBody, { ...webhook(sellBody), headers: {} })).toMatch(/no moonpay-signature-v2/);
  });

  test('an undocumented sell status is refused', () => {
    expect(refusal(withData({ status: 'waitingPayment' }))).toMatch(/waitingPayment/);
  });

  test('buy and sell never cross: a signed buy event is no sell event, a signed sell event no buy event', () => {
    const buyBody = fixture('webhook-transaction-created.json');
    expect(refusal(buyBody)).toMatch(/not a MoonPay sell transaction event/);
    expect(() => parseMoonpayWebhook(webhook(sellBody), WEBHOOK_KEY, currencyDictionary, NOW)).toThrow(IgnoredWebhookError);
    // A sell body relabelled as a buy event's type breaks the signature; one signed so is refused as a sell event.
    expect(refusal(JSON.stringify({ ...sellEvent, type: 'transaction_updated' }))).toMatch(/not a MoonPay sell/);
  });

  test('one event delivered twice has one id; never a buy event id of the same body', () => {
    expect(parse(sellBody).eventId).toBe(parse(sellBody).eventId);
    expect(parse(sellBody).eventId).not.toBe(parse(withData({ status: 'pending' }, 'sell_transaction_updated')).eventId);
  });
});
