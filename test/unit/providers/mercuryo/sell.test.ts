/**
 * Mercuryo's sell (off-ramp) status map, widget URL, quote, catalogue, lookup and callbacks, against
 * the shapes Mercuryo documents (api-migration-docs v1.6 examples) and the one public sell lookup
 * (gemwalletcom/core `transaction_sell_complete.json`, in fixtures/transactions-sell-deposit-completed.json).
 */
import { createHash, createHmac } from 'node:crypto';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { mercuryoCurrencyIds } from '../../../../src/providers/mercuryo/reported';
import { MercuryoSellLimitsSchema } from '../../../../src/providers/mercuryo/sell-schemas';
import { MercuryoTransactionsSchema } from '../../../../src/providers/mercuryo/schemas';
import {
  lookupMercuryoSellStatus,
  mapMercuryoSellLegs,
  MERCURYO_SELL_STATUS_MAP,
  MERCURYO_SELL_STATUSES,
} from '../../../../src/providers/mercuryo/sell-status-map';
import {
  fromSellCallback,
  fromSellCatalogue,
  fromSellConvert,
  fromSellTransactions,
  toSellWidgetParams,
} from '../../../../src/providers/mercuryo/sell-transformers';
import { buildSellWidgetUrl } from '../../../../src/providers/mercuryo/sell-widget';
import { isMercuryoSellWebhook, parseMercuryoSellWebhook } from '../../../../src/providers/mercuryo/sell-webhook';
import { MERCURYO_SIGNATURE_HEADER, parseMercuryoWebhook } from '../../../../src/providers/mercuryo/webhook';
import type { CreateSellOrderRequest } from '../../../../src/providers/sell-types';
import {
  IgnoredWebhookError,
  ProviderRejectedError,
  ProviderUnavailableError,
  WebhookVerificationError,
  type IncomingWebhook,
} from '../../../../src/providers/types';
import { cryptoOf as crypto, currencyId as id, fiatOf as fiat } from '../../../helpers/currencies';
import callbackSellSucceeded from './fixtures/callback-sell-succeeded.json';
import callbackWithdrawCompleted from './fixtures/callback-withdraw-completed.json';
import sellLookup from './fixtures/transactions-sell-deposit-completed.json';

const SIGN_KEY = 'dashboard_sign_key_for_tests';
const ORDER_ID = 'd9c80819-3b1c-4f0e-9d6a-2c6b7e1f5a40';
const ids = mercuryoCurrencyIds(currencyDictionary);

/** The documented callback signature, computed here independently: hex HMAC-SHA256 of the body without whitespace. */
const sign = (body: string, key = SIGN_KEY) => createHmac('sha256', key).update(body.replace(/\s/g, '')).digest('hex');
const webhook = (body: string, signature: string | null = sign(body)): IncomingWebhook => ({
  headers: signature === null ? {} : { [MERCURYO_SIGNATURE_HEADER]: signature },
  rawBody: Buffer.from(body, 'utf8'),
  query: {},
});
const callback = (data: Record<string, unknown>) => JSON.stringify({ data: { ...callbackSellSucceeded.data, ...data } });
const parse = (incoming: IncomingWebhook) =>
  parseMercuryoSellWebhook(incoming, SIGN_KEY, (data) => Promise.resolve(fromSellCallback(data, ids)));

async function refusal(incoming: IncomingWebhook): Promise<string> {
  const err: unknown = await parse(incoming).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookVerificationError);
  return (err as Error).message;
}

describe('Mercuryo sell status map', () => {
  test.each([
    ['deposit:new', 'waiting_for_deposit'],
    ['deposit:pending', 'waiting_for_deposit'],
    ['deposit:completed', 'deposit_received'],
    ['deposit:succeeded', 'deposit_received'],
    ['deposit:failed', 'failed'],
    ['sell:new', 'waiting_for_deposit'],
    ['sell:pending', 'processing'],
    ['sell:succeeded', 'complete'],
    ['sell:failed', 'refunded'],
  ] as const)('%s is listed as %s', (key, status) => {
    expect(MERCURYO_SELL_STATUS_MAP[key]).toBe(status);
  });

  test('every documented status of both legs is mapped, and only those', () => {
    expect(MERCURYO_SELL_STATUSES.sort()).toEqual(
      [
        'deposit:new',
        'deposit:pending',
        'deposit:completed',
        'deposit:succeeded',
        'deposit:failed',
        'sell:new',
        'sell:pending',
        'sell:succeeded',
        'sell:failed',
      ].sort(),
    );
    expect(lookupMercuryoSellStatus('deposit', 'failed')).toEqual({ status: 'failed', failureReason: 'deposit_failed' });
  });

  const leg = (type: string, status: string) => ({ type, status });
  test.each([
    [undefined, undefined, 'created', 'widget:not_opened'],
    [leg('sell', 'new'), undefined, 'waiting_for_deposit', 'sell:new'],
    [leg('sell', 'new'), leg('deposit', 'pending'), 'waiting_for_deposit', 'deposit:pending'],
    [leg('sell', 'new'), leg('deposit', 'completed'), 'deposit_received', 'deposit:completed'],
    [undefined, leg('deposit', 'succeeded'), 'deposit_received', 'deposit:succeeded'],
    [leg('sell', 'pending'), leg('deposit', 'completed'), 'processing', 'sell:pending'],
    [leg('sell', 'succeeded'), leg('deposit', 'completed'), 'complete', 'sell:succeeded'],
    [leg('sell', 'failed'), leg('deposit', 'completed'), 'refunded', 'sell:failed'],
    [leg('sell', 'failed'), undefined, 'expired', 'sell:failed'],
    [leg('sell', 'failed'), leg('deposit', 'pending'), 'expired', 'sell:failed'],
    [leg('sell', 'new'), leg('deposit', 'failed'), 'failed', 'deposit:failed'],
    // A leg in an undocumented status says nothing; the other leg decides.
    [leg('sell', 'teleported'), leg('deposit', 'completed'), 'deposit_received', 'deposit:completed'],
  ])('legs %j + %j → %s (%s)', (sell, deposit, status, providerStatus) => {
    expect(mapMercuryoSellLegs(sell, deposit)).toMatchObject({ status, providerStatus });
  });

  test('refuses legs none of which is in a documented status', () => {
    expect(() => mapMercuryoSellLegs(leg('sell', 'teleported'), undefined)).toThrow(UnknownProviderStatusError);
    expect(() => mapMercuryoSellLegs(undefined, leg('deposit', 'cancelled'))).toThrow(UnknownProviderStatusError);
    expect(() => mapMercuryoSellLegs(leg('sell', 'toString'), undefined)).toThrow(UnknownProviderStatusError);
  });
});

describe('Mercuryo sell widget URL', () => {
  const request: CreateSellOrderRequest = {
    orderId: ORDER_ID,
    crypto: crypto('BTC', 'bitcoin'),
    fiat: fiat('USD'),
    cryptoAmount: '0.1',
    refundWalletAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
    payoutMethod: 'card',
    country: 'DE',
    externalUserId: 'user-1',
    ip: '198.51.100.7',
    returnUrl: 'https://wallet.example/done',
    extras: { deposit: { address: 'bc1qattacker' }, network: 'ETHEREUM', amount: '9' },
  };
  const url = new URL(
    buildSellWidgetUrl('https://exchange.mercuryo.io', toSellWidgetParams(request, { widgetId: 'w-1', secret: 's3cret' })),
  );

  test('carries type=sell, the fixed crypto, network, amount and payout fiat, our order id and the refund address', () => {
    expect(Object.fromEntries(url.searchParams)).toEqual({
      widget_id: 'w-1',
      type: 'sell',
      currency: 'BTC',
      fix_currency: 'true',
      network: 'BITCOIN',
      amount: '0.1',
      fix_amount: 'true',
      fiat_currency: 'USD',
      fix_fiat_currency: 'true',
      address: request.refundWalletAddress,
      refund_address: request.refundWalletAddress,
      merchant_transaction_id: ORDER_ID,
      return_url: 'https://wallet.example/done',
      signature: expect.stringMatching(/^v2:[0-9a-f]{128}$/),
    });
  });

  test('is signed as the buy widget: v2 SHA-512 of address + secret + customer IP + our order id', () => {
    const expected = createHash('sha512').update(`${request.refundWalletAddress}s3cret198.51.100.7${ORDER_ID}`).digest('hex');
    expect(url.searchParams.get('signature')).toBe(`v2:${expected}`);
  });

  test('refuses an order without the IP, a fiat Mercuryo does not pay out and a payout method it does not offer', () => {
    const creds = { widgetId: 'w', secret: 's' };
    expect(() => toSellWidgetParams({ ...request, ip: undefined }, creds)).toThrow(ProviderRejectedError);
    expect(() => toSellWidgetParams({ ...request, fiat: fiat('GBP') }, creds)).toThrow(/EUR and USD/);
    expect(() => toSellWidgetParams({ ...request, payoutMethod: 'sepa' }, creds)).toThrow(/by card only/);
  });
});

describe('Mercuryo sell quote (public/convert?type=sell)', () => {
  // api-migration-docs Widget_API_Mercuryo_v1.6.md 4.3.2.
  const documented = {
    type: 'sell' as const,
    currency: 'BTC',
    amount: '0.10000000',
    fiat_currency: 'EUR',
    fiat_amount: '4624.90',
    rate: '46248.89',
    fee: '132.53',
    fee_currency: 'EUR',
  };
  const request = {
    crypto: crypto('BTC', 'bitcoin'),
    fiat: fiat('EUR'),
    cryptoAmount: '0.1',
    payoutMethod: 'card',
    country: 'DE',
    externalUserId: 'u',
  };

  test('the payout is fiat_amount, the one fee the processing fee, no network fee, no expiry', () => {
    expect(fromSellConvert(documented, request)).toEqual({
      cryptoAmount: '0.1',
      fiatAmount: '4624.90',
      processingFee: '132.53',
      networkFee: '0',
      payoutMethod: 'card',
    });
  });

  test.each([{ currency: 'ETH' }, { fiat_currency: 'USD' }, { fee_currency: 'BTC' }, { amount: '0.2' }])(
    'an answer about other terms (%j) is not a quote',
    (changed) => {
      expect(() => fromSellConvert({ ...documented, ...changed }, request)).toThrow(ProviderUnavailableError);
    },
  );
});

describe('Mercuryo sell catalogue', () => {
  test('sells what lib/currencies enables for the off-ramp, pays by card in EUR and USD at the widest pair limits', () => {
    const limits = MercuryoSellLimitsSchema.parse({
      data: [
        {
          crypto: 'BTC',
          network: 'BITCOIN',
          fiat: 'EUR',
          fiat_limits: { min: '15.00', max: '3000' },
          crypto_limits: { min: '0.0002', max: '0.05' },
        },
        {
          crypto: 'BTC',
          network: 'BITCOIN',
          fiat: 'USD',
          fiat_limits: { min: '16.00', max: '3200' },
          crypto_limits: { min: '0.0003', max: '0.06' },
        },
        {
          crypto: 'USDT',
          network: 'POLYGON',
          fiat: 'EUR',
          fiat_limits: { min: '10.00', max: '9000' },
          crypto_limits: { min: '10', max: '9000' },
        },
        { crypto: 'BTC', network: 'BITCOIN', fiat: 'GBP', fiat_limits: { min: '1', max: '2' }, crypto_limits: { min: '0', max: '1' } },
        { something: 'unreadable' },
      ],
    }).data;
    const catalogue = fromSellCatalogue(
      currencyDictionary,
      {
        config: {
          crypto_currencies: [
            { currency: 'BTC', network: 'BITCOIN', widget_offramp_enabled: true },
            { currency: 'USDT', network: 'POLYGON', widget_offramp_enabled: false },
            { currency: 'ETH', network: 'ETHEREUM' },
          ],
        },
      },
      limits,
      ['de', 'fr', 'xx1'],
    );
    expect(catalogue).toEqual({
      crypto: [id('BTC', 'bitcoin')],
      fiat: [id('EUR'), id('USD')],
      countries: [{ code: 'DE' }, { code: 'FR' }],
      payoutMethods: [
        {
          code: 'card',
          name: expect.any(String),
          icon_url: null,
          limits: { [id('EUR')]: { min: '15.00', max: '3000' }, [id('USD')]: { min: '16.00', max: '3200' } },
        },
      ],
      cryptoLimits: { [id('BTC', 'bitcoin')]: { min: '0.0002', max: '0.06' } },
    });
  });
});

describe('Mercuryo sell lookup', () => {
  const response = MercuryoTransactionsSchema.parse(sellLookup);

  test('the public sell sample: complete, the deposit hash, the payout, never the deposit leg address', () => {
    const snapshot = fromSellTransactions(ORDER_ID, response, ids);
    expect(snapshot).toEqual({
      orderId: ORDER_ID,
      providerOrderId: '0dafb7b9b92525713',
      providerStatus: 'sell:succeeded',
      status: 'complete',
      transactionHash: sellLookup.data[0]!.deposit.hash,
      // ETH is on several of Mercuryo's networks: the ticker alone names no currency, so none is reported.
      reported: { cryptoAmount: '0.021475865219999998', fiatCurrency: id('USD'), fiatAmount: '29.32' },
      providerOrderCreatedAt: '2025-04-08T15:13:59.000Z',
    });
    expect(JSON.stringify(snapshot)).not.toContain('0x9837C4e9');
  });

  test("another order's legs are not this order's: nothing yet", () => {
    expect(fromSellTransactions('another-order', response, ids)).toEqual({
      orderId: 'another-order',
      providerStatus: 'widget:not_opened',
      status: 'created',
    });
  });
});

describe('Mercuryo sell callbacks', () => {
  const body = JSON.stringify(callbackSellSucceeded, null, 2);

  test('routes sell and deposit callbacks (data or payload.data) to the sell parser, nothing else', () => {
    expect(isMercuryoSellWebhook(webhook(body))).toBe(true);
    expect(isMercuryoSellWebhook(webhook(JSON.stringify({ payload: { data: { type: 'deposit' } } })))).toBe(true);
    expect(isMercuryoSellWebhook(webhook(JSON.stringify(callbackWithdrawCompleted)))).toBe(false);
    expect(isMercuryoSellWebhook(webhook('not json'))).toBe(false);
    expect(isMercuryoSellWebhook(webhook('null'))).toBe(false);
  });

  test('a signed sell callback: its status, the terms it states, the sell id, no deposit', async () => {
    expect(await parse(webhook(body))).toEqual({
      orderId: ORDER_ID,
      providerOrderId: '0dafb7b9b92525713',
      providerStatus: 'sell:succeeded',
      status: 'complete',
      reported: { cryptoCurrency: id('BTC', 'bitcoin'), cryptoAmount: '0.1', fiatCurrency: id('EUR'), fiatAmount: '4624.90' },
      providerOrderCreatedAt: '2025-04-08T15:14:01.000Z',
      eventId: 'sell:0dafb7b9b92525713:succeeded:1744125260',
    });
  });

  test('a deposit callback states the crypto only; its tx.address is never a deposit', async () => {
    const deposit = JSON.stringify({
      data: {
        id: '0dafb7b721b63e8d2',
        merchant_transaction_id: ORDER_ID,
        type: 'deposit',
        status: 'completed',
        amount: '0.1',
        currency: 'BTC',
        fiat_amount: '1.00',
        fiat_currency: 'USD',
        tx: { id: 'abc', address: 'bc1qmercuryodepositaddress' },
        updated_at_ts: 1744125239,
      },
    });
    const event = await parse(webhook(deposit));
    expect(event).toMatchObject({ status: 'deposit_received', providerStatus: 'deposit:completed' });
    expect(event.reported).toEqual({ cryptoCurrency: id('BTC', 'bitcoin'), cryptoAmount: '0.1' });
    expect(event.deposit).toBeUndefined();
    expect(event.providerOrderId).toBeUndefined();
  });

  test('refuses a callback signed with another key (forged)', async () => {
    expect(await refusal(webhook(body, sign(body, 'attacker_key')))).toBe('signature does not match');
  });

  test('refuses a signed callback whose payout was changed afterwards (tampered)', async () => {
    const tampered = body.replace('"4624.90"', '"9624.90"');
    expect(tampered).not.toBe(body);
    expect(await refusal(webhook(tampered, sign(body)))).toBe('signature does not match');
  });

  test('refuses a callback without a signature', async () => {
    expect(await refusal(webhook(body, null))).toMatch(/missing or malformed/);
  });

  test('refuses a signed callback in an undocumented status, and a signed buy callback', async () => {
    expect(await refusal(webhook(callback({ status: 'teleported' })))).toMatch(/teleported/);
    expect(await refusal(webhook(JSON.stringify(callbackWithdrawCompleted)))).toMatch(/not a Mercuryo sell or deposit callback/);
  });

  test.each(['sell', 'deposit'])('the buy parser ignores a signed %s callback (IgnoredWebhookError)', (type) => {
    const sellBody = callback({ type, status: 'pending' });
    expect(() => parseMercuryoWebhook(webhook(sellBody), SIGN_KEY, ids)).toThrow(IgnoredWebhookError);
  });
});
