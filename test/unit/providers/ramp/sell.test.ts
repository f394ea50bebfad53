import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import { currencyDictionary } from '../../../../src/domain/currencies';
import type { RampConfig } from '../../../../src/providers/ramp/config';
import { RampSellQuoteSchema } from '../../../../src/providers/ramp/sell-schemas';
import { RAMP_SALE_STATUS_MAP, RAMP_SALE_STATUSES } from '../../../../src/providers/ramp/sell-status-map';
import { fromSale, fromSellQuote, toSellWidgetUrl } from '../../../../src/providers/ramp/sell-transformers';
import { isRampSellWebhook, parseRampSaleWebhook } from '../../../../src/providers/ramp/sell-webhook';
import { parseRampWebhook } from '../../../../src/providers/ramp/webhook';
import { rampWebhookQuery } from '../../../../src/providers/ramp/webhook-url';
import {
  IgnoredWebhookError,
  ProviderRejectedError,
  WebhookVerificationError,
  type IncomingWebhook,
} from '../../../../src/providers/types';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

const ramp = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
const stranger = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
const URL_SECRET = 'broker-ramp-webhook-url-secret-0123456789';

/** A sale as Ramp's docs example and the SDK types shape it: crypto in base units, the payout a string in webhooks. */
const SALE = {
  id: '70b47a42-aed2-4acb-b463-4c4a5c1d0f3e',
  saleViewToken: 'f3a9c1d2e4b5a6978899aabbccddeeff',
  createdAt: '2026-11-30T10:00:00.000Z',
  updatedAt: '2026-11-30T10:00:00.000Z',
  transactionHash: null,
  exchangeRate: '2900.5',
  crypto: {
    amount: '100000000000000000',
    assetInfo: { address: null, symbol: 'ETH', chain: 'ETH', type: 'NATIVE', name: 'Ether', decimals: 18 },
    status: null,
  },
  fiat: { amount: '285.40', currencySymbol: 'EUR', status: 'not-started', payoutMethod: 'SEPA' },
  fees: { amount: '4.65', currencySymbol: 'EUR' },
};
const saleEvent = (type: string, payload: Record<string, unknown> = SALE) => ({
  id: '9393916e-c3c5-46c4-9132-18106a192637',
  type,
  mode: 'OFFRAMP',
  payload,
});

function signed(body: unknown, orderId = 'order-a', key: KeyObject = ramp.privateKey, side: 'sale' | 'purchase' = 'sale'): IncomingWebhook {
  return {
    headers: { 'x-body-signature': sign('sha256', Buffer.from(stableStringify(body)), key).toString('base64') },
    rawBody: Buffer.from(JSON.stringify(body, null, 2)),
    query: rampWebhookQuery(URL_SECRET, orderId, side),
  };
}
const parse = (webhook: IncomingWebhook) => parseRampSaleWebhook(webhook, ramp.publicKey, URL_SECRET, currencyDictionary);

describe('Ramp sale webhooks', () => {
  it('verifies a CREATED sale and reads it: order from the URL, sale and view token, claim by sale id, terms', () => {
    const event = parse(signed(saleEvent('CREATED')));
    expect(event).toEqual({
      orderId: 'order-a',
      providerOrderId: `${SALE.id}:${SALE.saleViewToken}`,
      claimKey: `sale:${SALE.id}`,
      providerStatus: 'CREATED',
      status: 'waiting_for_deposit',
      reported: { cryptoCurrency: crypto('ETH', 'ethereum').id, cryptoAmount: '0.1', fiatCurrency: fiat('EUR').id, fiatAmount: '285.4' },
      providerOrderCreatedAt: SALE.createdAt,
      eventId: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // Never a deposit: no sale message names one.
    expect(event).not.toHaveProperty('deposit');
  });

  it('a signature by another key, a missing or malformed signature, or a changed body is refused', () => {
    const body = saleEvent('RELEASED');
    expect(() => parse(signed(body, 'order-a', stranger.privateKey))).toThrow(WebhookVerificationError);
    expect(() => parse({ ...signed(body), headers: {} })).toThrow(WebhookVerificationError);
    expect(() => parse({ ...signed(body), headers: { 'x-body-signature': 'not base64!' } })).toThrow(WebhookVerificationError);
    const tampered = {
      ...signed(body),
      rawBody: Buffer.from(JSON.stringify({ ...body, payload: { ...SALE, fiat: { ...SALE.fiat, amount: '9999' } } })),
    };
    expect(() => parse(tampered)).toThrow(WebhookVerificationError);
  });

  it('the URL must carry a sale MAC of this broker for its order id: not a purchase MAC, not another order’s', () => {
    const webhook = signed(saleEvent('CREATED'));
    expect(() => parse({ ...webhook, query: { ...webhook.query, order_id: 'order-b' } })).toThrow(WebhookVerificationError);
    expect(() => parse({ ...webhook, query: { order_id: 'order-a' } })).toThrow(WebhookVerificationError);
    expect(() => parse(signed(saleEvent('CREATED'), 'order-a', ramp.privateKey, 'purchase'))).toThrow(WebhookVerificationError);
  });

  it.each([
    ['CREATED', {}, 'waiting_for_deposit'],
    ['CREATED', { transactionHash: '0x' + 'ab'.repeat(32) }, 'deposit_received'],
    ['RELEASED', { transactionHash: '0x' + 'ab'.repeat(32) }, 'complete'],
    ['EXPIRED', {}, 'expired'],
  ] as const)('%s %j → %s', (type, extra, status) => {
    const event = parse(signed(saleEvent(type, { ...SALE, ...extra })));
    expect(event).toMatchObject({ status, providerStatus: type });
    if ('transactionHash' in extra) expect(event.transactionHash).toBe(extra.transactionHash);
  });

  it('maps every documented sale status, and only those', () => {
    expect(RAMP_SALE_STATUSES.sort()).toEqual(['CREATED', 'EXPIRED', 'RELEASED']);
    for (const status of RAMP_SALE_STATUSES) expect(parse(signed(saleEvent(status))).status).toBe(RAMP_SALE_STATUS_MAP[status]);
  });

  it.each(['FAILED', 'REFUNDED', 'RETURNED', 'released', 'toString'])('an undocumented type %s is refused', (type) => {
    expect(() => parse(signed(saleEvent(type)))).toThrow(WebhookVerificationError);
  });

  it('the lookup answer must carry a documented status too', () => {
    expect(fromSale('order-a', { ...SALE, status: 'RELEASED' }, currencyDictionary, SALE.saleViewToken).status).toBe('complete');
    expect(() => fromSale('order-a', { ...SALE, status: 'PAID' }, currencyDictionary, undefined)).toThrow(/PAID/);
    expect(() => fromSale('order-a', SALE, currencyDictionary, undefined)).toThrow();
  });

  it('reads a numeric payout, an unknown asset and fiat as null, a token by its contract', () => {
    const usdc = {
      address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      symbol: 'USDC',
      chain: 'ETH',
      type: 'TOKEN',
      name: 'USD Coin',
      decimals: 6,
    };
    const read = (payload: Record<string, unknown>) => parse(signed(saleEvent('CREATED', payload))).reported;
    expect(
      read({ ...SALE, crypto: { ...SALE.crypto, amount: '25500000', assetInfo: usdc }, fiat: { ...SALE.fiat, amount: 23.1 } }),
    ).toEqual({
      cryptoCurrency: crypto('USDC', 'ethereum').id,
      cryptoAmount: '25.5',
      fiatCurrency: fiat('EUR').id,
      fiatAmount: '23.1',
    });
    const unknown = read({
      ...SALE,
      crypto: { ...SALE.crypto, assetInfo: { ...SALE.crypto.assetInfo, chain: 'MOONBEAM' } },
      fiat: { ...SALE.fiat, currencySymbol: 'XAF' },
    });
    expect(unknown).toMatchObject({ cryptoCurrency: null, fiatCurrency: null });
  });

  it('the same event redelivered has the same id; another status of the sale another', () => {
    expect(parse(signed(saleEvent('CREATED'))).eventId).toBe(parse(signed(saleEvent('CREATED'))).eventId);
    expect(parse(signed(saleEvent('EXPIRED'))).eventId).not.toBe(parse(signed(saleEvent('CREATED'))).eventId);
    const { id: _id, ...withoutId } = saleEvent('CREATED');
    expect(parse(signed(withoutId)).eventId).toMatch(/^[0-9a-f]{64}$/);
  });

  it('routes by `mode` only; a verified purchase event is not a sale, and the buy parser acts on no sale', () => {
    expect(isRampSellWebhook(signed(saleEvent('CREATED')))).toBe(true);
    expect(isRampSellWebhook({ headers: {}, query: {}, rawBody: Buffer.from('{"type":"CREATED","purchase":{}}') })).toBe(false);
    expect(isRampSellWebhook({ headers: {}, query: {}, rawBody: Buffer.from('not json') })).toBe(false);
    const purchaseBody = { type: 'CREATED', purchase: { id: 'p' } };
    expect(() => parse(signed(purchaseBody))).toThrow(WebhookVerificationError);
    const sale = signed(saleEvent('RELEASED'), 'order-a', ramp.privateKey, 'purchase');
    expect(() => parseRampWebhook(sale, ramp.publicKey, URL_SECRET, currencyDictionary)).toThrow(IgnoredWebhookError);
    // Not even a sale event that does not verify is acknowledged.
    const forged = signed(saleEvent('RELEASED'), 'order-a', stranger.privateKey, 'purchase');
    expect(() => parseRampWebhook(forged, ramp.publicKey, URL_SECRET, currencyDictionary)).toThrow(WebhookVerificationError);
  });
});

describe('Ramp sell quote and widget', () => {
  const EUR = fiat('EUR');
  const quote = RampSellQuoteSchema.parse({
    asset: { symbol: 'ETH', chain: 'ETH', decimals: 18 },
    CARD: { fiatCurrency: 'EUR', cryptoAmount: '100000000000000000', fiatValue: 281.337, baseRampFee: 8.4, appliedFee: 8.9, hostFeeCut: 0 },
    SEPA: { fiatCurrency: 'EUR', cryptoAmount: '100000000000000000', fiatValue: 287.1, baseRampFee: null, appliedFee: 3.1 },
  });
  const limits = { min: '15.00', max: '9000.00' };

  it('the payout is fiatValue (rounded down), the fee appliedFee (rounded up), no network fee apart', () => {
    expect(fromSellQuote(quote, { fiat: EUR, cryptoAmount: '0.1', payoutMethod: 'card' }, limits)).toEqual({
      cryptoAmount: '0.1',
      fiatAmount: '281.33',
      processingFee: '8.90',
      networkFee: '0',
      payoutMethod: 'card',
    });
    expect(fromSellQuote(quote, { fiat: EUR, cryptoAmount: '0.1', payoutMethod: 'sepa' }, limits).fiatAmount).toBe('287.10');
  });

  it('refuses a payout method the quote has no entry for, and a payout outside the range', () => {
    expect(() => fromSellQuote(quote, { fiat: EUR, cryptoAmount: '0.1', payoutMethod: 'ach' }, limits)).toThrow(ProviderRejectedError);
    expect(() => fromSellQuote(quote, { fiat: EUR, cryptoAmount: '0.1', payoutMethod: 'card' }, { min: '300.00', max: '9000.00' })).toThrow(
      expect.objectContaining({ code: 'limits' }),
    );
  });

  it('the widget URL: OFFRAMP flow, the amount in base units, the sale webhook URL with the order id and its sale MAC', () => {
    const config: RampConfig = {
      apiUrl: 'https://api.example/api',
      widgetUrl: 'https://app.example',
      hostApiKey: 'host-key',
      hostAppName: 'Broker',
      webhookPublicKey: '',
      brokerPublicUrl: 'https://broker.example',
      webhookUrlSecret: URL_SECRET,
    };
    const asset = { symbol: 'ETH', chain: 'ETH', decimals: 18, address: null, minPurchaseAmount: -1, maxPurchaseAmount: -1 };
    const url = new URL(
      toSellWidgetUrl(
        config,
        {
          orderId: 'order-a',
          crypto: crypto('ETH', 'ethereum'),
          fiat: EUR,
          cryptoAmount: '0.1',
          refundWalletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
          payoutMethod: 'sepa',
          country: 'DE',
          externalUserId: 'u',
          extras: { deposit: 'x' },
        },
        asset,
      ),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      hostApiKey: 'host-key',
      hostAppName: 'Broker',
      enabledFlows: 'OFFRAMP',
      defaultFlow: 'OFFRAMP',
      offrampAsset: 'ETH_ETH',
      swapAsset: 'ETH_ETH',
      swapAmount: '100000000000000000',
      fiatCurrency: 'EUR',
      selectedCountryCode: 'DE',
      userAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
      offrampWebhookV3Url: `https://broker.example/api/webhooks/ramp?${new URLSearchParams(rampWebhookQuery(URL_SECRET, 'order-a', 'sale')).toString()}`,
    });
    expect(rampWebhookQuery(URL_SECRET, 'order-a', 'sale').order_mac).not.toBe(rampWebhookQuery(URL_SECRET, 'order-a').order_mac);
  });
});
