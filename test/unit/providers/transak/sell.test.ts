/**
 * Transak's sell (off-ramp) transformers, status map and webhooks, against the Partner API
 * reference's "Sell Order" example (fixtures/sell-order.json: its ids are cut short in the stored
 * copy and completed here, its `updatedAt` added) and the figures it carries.
 */
import { SignJWT } from 'jose';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { TRANSAK_SIMULATOR_CREDENTIALS, type TransakConfig } from '../../../../src/providers/transak/config';
import { TransakQuoteSchema } from '../../../../src/providers/transak/schemas';
import { TransakSellOrderResponseSchema } from '../../../../src/providers/transak/sell-schemas';
import { mapTransakSellStatus, TRANSAK_SELL_STATUS_MAP } from '../../../../src/providers/transak/sell-status-map';
import {
  fromSellOrder,
  fromSellQuote,
  NotASellOrderError,
  toSellQuoteParams,
  toSellWidgetParams,
} from '../../../../src/providers/transak/sell-transformers';
import { isTransakSellWebhook, parseTransakSellWebhook } from '../../../../src/providers/transak/sell-webhook';
import { parseTransakWebhook } from '../../../../src/providers/transak/webhook';
import type { CreateSellOrderRequest } from '../../../../src/providers/sell-types';
import { IgnoredWebhookError, ProviderRejectedError, WebhookVerificationError } from '../../../../src/providers/types';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';
import { rejectionOf } from '../../../helpers/rejection';
import accessTokenResponse from './fixtures/refresh-token.json';
import buyClaims from './fixtures/webhook-order-completed.claims.json';
import sellOrderAnswer from './fixtures/sell-order.json';

const ACCESS_TOKEN = accessTokenResponse.data.accessToken;
const NOW = new Date('2024-06-10T11:00:30Z');
const sellOrder = TransakSellOrderResponseSchema.parse(sellOrderAnswer).data;

const config: TransakConfig = {
  apiUrl: 'https://api-stg.transak.com',
  gatewayUrl: 'https://api-gateway-stg.transak.com',
  ...TRANSAK_SIMULATOR_CREDENTIALS,
  referrerDomain: 'broker.example',
  brokerPublicUrl: 'https://broker.example',
};

const sign = (payload: Record<string, unknown>, key = ACCESS_TOKEN) =>
  new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(key));
const incoming = (data: string) => ({ headers: {}, query: {}, rawBody: Buffer.from(JSON.stringify({ data })) });
const sellClaims = (webhookData: Record<string, unknown> = {}) => ({
  eventID: 'ORDER_COMPLETED',
  createdAt: '2024-06-10T11:00:23.149Z',
  webhookData: { ...sellOrderAnswer.data, partnerOrderId: 'broker-order-1', ...webhookData },
});

describe('Transak sell quote', () => {
  it('reads the documented figures: 0.0887 ETH is 255.41 GBP, less 13.20 of fees, 242.21 paid out', () => {
    // A SELL quote as the pricing API answers it, with the example order's own figures.
    const quote = TransakQuoteSchema.parse({
      response: {
        quoteId: sellOrderAnswer.data.quoteId,
        conversionPrice: sellOrderAnswer.data.conversionPrice,
        fiatCurrency: 'GBP',
        cryptoCurrency: 'ETH',
        paymentMethod: 'gbp_bank_transfer',
        fiatAmount: 242.21,
        cryptoAmount: 0.0887,
        isBuyOrSell: 'SELL',
        network: 'ethereum',
        totalFee: 13.2,
        feeBreakdown: [{ id: 'transak_fee', name: 'Transak fee', value: 13.2 }],
      },
    }).response;
    const read = fromSellQuote(quote);
    expect(read).toEqual({
      cryptoAmount: '0.0887',
      fiatAmount: '242.21',
      processingFee: '13.2',
      networkFee: '0',
      payoutMethod: 'bank_transfer',
      providerQuoteId: sellOrderAnswer.data.quoteId,
    });
    const gross = 0.0887 / quote.conversionPrice!;
    expect(gross.toFixed(2)).toBe('255.41');
    expect((Number(read.fiatAmount) + Number(read.processingFee)).toFixed(2)).toBe('255.41');
  });

  it('splits a network fee out of the total, and refuses a BUY quote or a method it has no code for', () => {
    const base = {
      quoteId: 'q',
      fiatCurrency: 'EUR',
      cryptoCurrency: 'ETH',
      paymentMethod: 'sepa_bank_transfer',
      fiatAmount: '90',
      cryptoAmount: '0.04',
      isBuyOrSell: 'SELL' as const,
      network: 'ethereum',
      totalFee: '5.5',
      feeBreakdown: [
        { id: 'transak_fee', value: '4' },
        { id: 'network_fee', value: '1.5' },
      ],
    };
    expect(fromSellQuote(base)).toMatchObject({ fiatAmount: '90', processingFee: '4', networkFee: '1.5', payoutMethod: 'sepa' });
    expect(() => fromSellQuote({ ...base, isBuyOrSell: 'BUY' })).toThrow(ProviderRejectedError);
    expect(() => fromSellQuote({ ...base, paymentMethod: 'credit_debit_card' })).toThrow(ProviderRejectedError);
  });

  it('asks for a SELL quote by crypto amount, and sells on no network whose deposit needs a tag', () => {
    const request = {
      crypto: crypto('USDT', 'tron'),
      fiat: fiat('EUR'),
      cryptoAmount: '100',
      payoutMethod: 'sepa',
      country: 'DE',
      externalUserId: 'u',
    };
    expect(toSellQuoteParams(request)).toEqual({
      fiatCurrency: 'EUR',
      cryptoCurrency: 'USDT',
      network: 'tron',
      isBuyOrSell: 'SELL',
      paymentMethod: 'sepa_bank_transfer',
      cryptoAmount: '100',
      quoteCountryCode: 'DE',
    });
    expect(() => toSellQuoteParams({ ...request, crypto: crypto('XRP', 'ripple') })).toThrow(ProviderRejectedError);
    expect(() => toSellQuoteParams({ ...request, payoutMethod: 'card' })).toThrow(ProviderRejectedError);
  });
});

describe('Transak sell order', () => {
  it('reads the documented sell order: its deposit from cryptoPaymentData, the payout net of fees', () => {
    expect(fromSellOrder(sellOrder, currencyDictionary)).toEqual({
      // No partnerOrderId on the example: Transak's id stands in, naming no broker order.
      orderId: sellOrder.id,
      providerOrderId: sellOrder.id,
      providerStatus: 'COMPLETED',
      status: 'complete',
      deposit: {
        address: '0x343B3F1793E2434f210BCF778Bc6Da841C0d58A3',
        network: 'ethereum',
        amount: '0.0887',
        expiresAt: '2024-06-10T11:59:51+00:00',
      },
      reported: {
        cryptoCurrency: crypto('ETH', 'ethereum').id,
        cryptoAmount: '0.0887',
        fiatCurrency: fiat('GBP').id,
        fiatAmount: '242.21',
      },
      providerOrderCreatedAt: '2024-06-10T10:59:51.044Z',
    });
  });

  it('names no deposit while the order has none, and refuses an order that is not a SELL', () => {
    const { cryptoPaymentData: _none, ...bare } = sellOrder;
    expect(fromSellOrder({ ...bare, status: 'AWAITING_PAYMENT_FROM_USER' }, currencyDictionary)).not.toHaveProperty('deposit');
    expect(() => fromSellOrder({ ...sellOrder, isBuyOrSell: 'BUY' }, currencyDictionary)).toThrow(NotASellOrderError);
    expect(() => fromSellOrder({ ...sellOrder, isBuyOrSell: undefined }, currencyDictionary)).toThrow(NotASellOrderError);
  });

  it('reports a deposit on a network the dictionary does not know as Transak wrote it (the order refuses it)', () => {
    const snapshot = fromSellOrder({ ...sellOrder, network: 'linea' }, currencyDictionary);
    expect(snapshot.deposit?.network).toBe('linea');
    expect(snapshot.reported?.cryptoCurrency).toBeNull();
  });

  it('maps every documented sell status, and refuses any other', () => {
    expect(Object.fromEntries(Object.keys(TRANSAK_SELL_STATUS_MAP).map((s) => [s, mapTransakSellStatus(s)]))).toEqual({
      AWAITING_PAYMENT_FROM_USER: { status: 'waiting_for_deposit' },
      PAYMENT_DONE_MARKED_BY_USER: { status: 'waiting_for_deposit' },
      PROCESSING: { status: 'processing' },
      PENDING_DELIVERY_FROM_TRANSAK: { status: 'processing' },
      ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK: { status: 'processing' },
      COMPLETED: { status: 'complete' },
      EXPIRED: { status: 'expired' },
      FAILED: { status: 'failed', failureReason: 'payout_failed' },
      CANCELLED: { status: 'failed', failureReason: 'cancelled' },
      REFUNDED: { status: 'refunded' },
    });
    for (const unknown of ['SOMETHING_NEW', 'ORDER_PAYMENT_VERIFYING', 'toString', 'completed']) {
      expect(() => mapTransakSellStatus(unknown)).toThrow(UnknownProviderStatusError);
    }
    expect(() => fromSellOrder({ ...sellOrder, status: 'SOMETHING_NEW' }, currencyDictionary)).toThrow(UnknownProviderStatusError);
  });

  it('opens a SELL widget session from the order alone: nothing of extras reaches Transak', () => {
    const request: CreateSellOrderRequest = {
      orderId: 'broker-order-1',
      crypto: crypto('ETH', 'ethereum'),
      fiat: fiat('GBP'),
      cryptoAmount: '0.0887',
      refundWalletAddress: '0xD902d7eBF7bc5eCa9EEA22a6Ee9F1A30EBeBEFeE',
      payoutMethod: 'bank_transfer',
      country: 'GB',
      externalUserId: 'user-1',
      returnUrl: 'https://shop.example/back',
      extras: {
        cryptoPaymentData: { paymentAddress: '0x0000000000000000000000000000000000000bad' },
        paymentAddress: '0x0000000000000000000000000000000000000bad',
        walletAddress: '0x0000000000000000000000000000000000000bad',
        redirect_url: 'https://evil.example',
      },
    };
    const params = toSellWidgetParams(request, config);
    expect(params).toEqual({
      apiKey: config.apiKey,
      referrerDomain: 'broker.example',
      productsAvailed: 'SELL',
      cryptoCurrencyCode: 'ETH',
      network: 'ethereum',
      cryptoAmount: '0.0887',
      fiatCurrency: 'GBP',
      paymentMethod: 'gbp_bank_transfer',
      walletAddress: '0xD902d7eBF7bc5eCa9EEA22a6Ee9F1A30EBeBEFeE',
      partnerOrderId: 'broker-order-1',
      partnerCustomerId: 'user-1',
      redirectURL: 'https://shop.example/back',
    });
    expect(JSON.stringify(params)).not.toContain('bad');
  });
});

describe('Transak sell webhooks', () => {
  it('routes by the unverified order isBuyOrSell, and parses a verified SELL event with its deposit', async () => {
    const webhook = incoming(await sign(sellClaims()));
    expect(isTransakSellWebhook(webhook)).toBe(true);
    expect(isTransakSellWebhook(incoming(await sign(buyClaims)))).toBe(false);
    expect(isTransakSellWebhook({ headers: {}, query: {}, rawBody: Buffer.from('not json') })).toBe(false);
    expect(isTransakSellWebhook(incoming('not.a.jwt'))).toBe(false);

    const event = await parseTransakSellWebhook(webhook, [ACCESS_TOKEN], currencyDictionary, NOW);
    expect(event).toMatchObject({
      orderId: 'broker-order-1',
      providerStatus: 'COMPLETED',
      status: 'complete',
      deposit: { address: '0x343B3F1793E2434f210BCF778Bc6Da841C0d58A3', network: 'ethereum' },
      reported: { cryptoAmount: '0.0887', fiatAmount: '242.21' },
      eventId: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('refuses a forged or tampered SELL webhook', async () => {
    const forged = incoming(await sign(sellClaims(), 'not-the-access-token'));
    expect(isTransakSellWebhook(forged)).toBe(true);
    await rejectionOf(parseTransakSellWebhook(forged, [ACCESS_TOKEN], currencyDictionary, NOW), WebhookVerificationError);

    // The deposit address swapped in a genuinely signed token: the signature no longer matches.
    const genuine = await sign(sellClaims());
    const [header, , signature] = genuine.split('.');
    const tampered = Buffer.from(
      JSON.stringify(sellClaims({ cryptoPaymentData: { paymentAddress: '0x0000000000000000000000000000000000000bad' } })),
    ).toString('base64url');
    const error = await rejectionOf(
      parseTransakSellWebhook(incoming(`${header}.${tampered}.${signature}`), [ACCESS_TOKEN], currencyDictionary, NOW),
      WebhookVerificationError,
    );
    expect(error.message).toBe('signature does not match the partner access token');

    const unknown = incoming(await sign(sellClaims({ status: 'SOMETHING_NEW' })));
    await rejectionOf(parseTransakSellWebhook(unknown, [ACCESS_TOKEN], currencyDictionary, NOW), WebhookVerificationError);
  });

  it('never lets buy and sell events cross: the sell parser refuses a BUY, the buy parser ignores a SELL', async () => {
    const buy = incoming(await sign(buyClaims));
    const error = await rejectionOf(parseTransakSellWebhook(buy, [ACCESS_TOKEN], currencyDictionary, NOW), WebhookVerificationError);
    expect(error.message).toBe('signed payload is not a SELL order event');

    const sell = incoming(await sign(sellClaims()));
    const ignored = await rejectionOf(parseTransakWebhook(sell, [ACCESS_TOKEN], currencyDictionary, NOW), IgnoredWebhookError);
    expect(ignored.message).toBe('a SELL order event: not about a buy order');

    // A forged SELL event sent to the buy parser is refused, not ignored: verification comes first.
    const forged = incoming(await sign(sellClaims(), 'not-the-access-token'));
    await rejectionOf(parseTransakWebhook(forged, [ACCESS_TOKEN], currencyDictionary, NOW), WebhookVerificationError);
  });
});
