/**
 * The MoonPay adapter against the MoonPay simulator over real HTTP on 127.0.0.1: catalogue, quotes,
 * signed widget orders, the customer's actions, signed webhooks to a small receiver playing the
 * broker, lookups by our order id, authentication refusals and fault switches. No Temporal.
 */
import { randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../src/domain/currencies';
import { createMoonpayAdapter, MOONPAY_SIMULATOR_CREDENTIALS, moonpayConfig } from '../../../src/providers/moonpay';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  WebhookVerificationError,
  type CreateProviderOrderRequest,
} from '../../../src/providers/types';
import { createMoonpaySimulator } from '../../../src/simulators/moonpay/server';
import { moonpayWebhookSignature } from '../../../src/simulators/moonpay/signing';
import { signedWidgetUrl } from '../../../src/providers/moonpay/widget';
import { eventually } from '../../helpers/http';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { transactionListSuite } from '../../helpers/transaction-list';
import { cryptoOf as crypto, fiatOf as fiat } from '../../helpers/currencies';

const harness = useProviderHarness({
  code: 'moonpay',
  config: (urls) => moonpayConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: urls.brokerUrl }),
  simulator: (urls) =>
    createMoonpaySimulator({
      publicUrl: urls.publicUrl,
      brokerWebhookUrl: urls.webhookUrl,
      credentials: MOONPAY_SIMULATOR_CREDENTIALS,
      stepDelayMs: 40,
    }),
  adapter: (config) => createMoonpayAdapter(config, currencyDictionary),
});

function orderRequest(overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest {
  return {
    orderId: randomUUID(),
    fiat: fiat('USD'),
    crypto: crypto('BTC', 'bitcoin'),
    fiatAmount: '150.00',
    walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    paymentMethod: 'card',
    country: 'US',
    state: 'CA',
    externalUserId: 'user-1',
    extras: {},
    ...overrides,
  };
}

/** The order's first `count` webhooks, each verified and parsed by the adapter, as provider:broker statuses. */
async function statusesFor(orderId: string, count: number): Promise<string[]> {
  return (await harness.waitForEvents(orderId, count)).map((e) => `${e.providerStatus}:${e.status}`);
}

/** A fresh order whose widget the customer has opened (MoonPay creates the transaction then). */
async function openedOrder(overrides: Partial<CreateProviderOrderRequest> = {}) {
  const request = orderRequest(overrides);
  const order = await harness.adapter.createOrder(request);
  const page = await fetch(order.redirectUrl);
  expect(page.status).toBe(200);
  return { request, order };
}

describe('catalogue', () => {
  test("MoonPay's currencies as broker IDs, countries with US states, methods with fees and limits", async () => {
    const catalogue = await harness.adapter.getCatalogue();
    expect(catalogue.fiat).toEqual(expect.arrayContaining([fiat('USD').id, fiat('EUR').id, fiat('GBP').id, fiat('BRL').id]));
    expect(catalogue.crypto).toEqual(
      expect.arrayContaining([
        crypto('BTC', 'bitcoin').id,
        crypto('USDT', 'tron').id,
        crypto('USDC', 'solana').id,
        crypto('ETH', 'base').id,
        crypto('BNB', 'bsc').id,
      ]),
    );
    // Cardano is not offered to test keys; SHIB is not in the broker's dictionary.
    expect(catalogue.crypto).not.toContain(crypto('ADA', 'cardano').id);
    const us = catalogue.countries.find((c) => c.code === 'US');
    expect(us?.states).toEqual(expect.arrayContaining(['CA', 'TX', 'DC']));
    expect(us?.states).not.toContain('NY');
    expect(catalogue.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['GB', 'DE']));
    expect(catalogue.countries.map((c) => c.code)).not.toContain('CU');
    // Stablecoins are not sold in Canada nor in New York, TRX not in New York; BTC everywhere served.
    expect(catalogue.cryptoNotSoldIn?.[crypto('USDT', 'ethereum').id]).toEqual({ countries: ['CA'], states: { US: ['NY'] } });
    expect(catalogue.cryptoNotSoldIn?.[crypto('USDC', 'solana').id]).toEqual({ countries: ['CA'], states: { US: ['NY'] } });
    expect(catalogue.cryptoNotSoldIn?.[crypto('TRX', 'tron').id]).toEqual({ countries: [], states: { US: ['NY'] } });
    expect(catalogue.cryptoNotSoldIn?.[crypto('BTC', 'bitcoin').id]).toBeUndefined();
    const methods = Object.fromEntries(catalogue.paymentMethods.map((m) => [m.code, m]));
    expect(methods.card?.fee).toBe('4.5%');
    expect(methods.card?.limits[fiat('USD').id]).toEqual({ min: '20', max: '30000' });
    expect(Object.keys(methods.sepa?.limits ?? {})).toEqual([String(fiat('EUR').id)]);
    expect(methods.sepa?.fee).toBe('1%');
    expect(Object.keys(methods.pix?.limits ?? {})).toEqual([String(fiat('BRL').id)]);
    // Refused in USD (the first currency tried), Revolut Pay's fee comes from a quote in the next one,
    // and USD is no longer among the currencies it claims.
    expect(methods.revolut_pay?.fee).toBe('2.5%');
    expect(methods.revolut_pay?.limits[fiat('EUR').id]).toBeDefined();
    expect(methods.revolut_pay?.limits[fiat('USD').id]).toBeUndefined();
  });
});

describe('quotes', () => {
  test('a card quote: fees come out of the amount the customer pays', async () => {
    const quote = await harness.adapter.getQuote({
      fiat: fiat('USD'),
      crypto: crypto('BTC', 'bitcoin'),
      fiatAmount: '100',
      paymentMethod: 'card',
      country: 'US',
      state: 'CA',
      externalUserId: 'user-1',
    });
    expect(quote).toMatchObject({ fiatAmount: '100', processingFee: '4.5', networkFee: '0.6', paymentMethod: 'card' });
    expect(Number(quote.cryptoAmount)).toBeGreaterThan(0);
    expect(quote.expiresAt!.getTime()).toBeGreaterThan(Date.now());
  });

  test('a SEPA quote is cheaper than a card quote for the same amount', async () => {
    const base = { fiat: fiat('EUR'), crypto: crypto('USDC', 'solana'), fiatAmount: '200', country: 'DE', externalUserId: 'u' };
    const sepa = await harness.adapter.getQuote({ ...base, paymentMethod: 'sepa' });
    const card = await harness.adapter.getQuote({ ...base, paymentMethod: 'card' });
    expect(Number(sepa.cryptoAmount)).toBeGreaterThan(Number(card.cryptoAmount));
  });

  test('out of limits, and an asset excluded in the country, are refusals', async () => {
    const request = {
      fiat: fiat('USD'),
      crypto: crypto('BTC', 'bitcoin'),
      paymentMethod: 'card',
      country: 'US',
      state: 'CA',
      externalUserId: 'u',
    };
    const low = await harness.adapter.getQuote({ ...request, fiatAmount: '5' }).catch((err: unknown) => err);
    expect(low).toBeInstanceOf(ProviderRejectedError);
    expect(low).toMatchObject({ code: 'limits', details: { minAmount: '20', maxAmount: '30000' } });
    const stablecoinInCanada = await harness.adapter
      .getQuote({ ...request, fiat: fiat('CAD'), crypto: crypto('USDC', 'ethereum'), country: 'CA', state: undefined, fiatAmount: '100' })
      .catch((err: unknown) => err);
    expect(stablecoinInCanada).toMatchObject({ code: 'country' });
  });
});

describe('orders', () => {
  test('createOrder twice gives one signed widget URL and no transaction until the customer opens it', async () => {
    const request = orderRequest();
    const first = await harness.adapter.createOrder(request);
    const second = await harness.adapter.createOrder(request);
    expect(second.redirectUrl).toBe(first.redirectUrl);
    expect(first.redirectUrl.startsWith(`${harness.urls.simulatorUrl}/moonpay/widget?apiKey=`)).toBe(true);
    expect(new URL(first.redirectUrl).searchParams.get('externalTransactionId')).toBe(request.orderId);
    expect(first).toMatchObject({ orderId: request.orderId, status: 'created', providerStatus: 'noTransactionYet' });
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ status: 'created' });

    const page = await fetch(first.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('MoonPay (simulator)');
    await fetch(second.redirectUrl);
    const byExternalId = [...harness.simulator.transactions.values()].filter((tx) => tx.externalTransactionId === request.orderId);
    expect(byExternalId).toHaveLength(1);
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ status: 'pending', providerStatus: 'waitingPayment' });
    expect((await harness.adapter.createOrder(request)).status).toBe('pending');
  });

  test('pay: waitingPayment -> pending -> completed, one verified webhook each, then getOrder reports complete', async () => {
    const { request, order } = await openedOrder();
    const paid = await checkout(order.redirectUrl, 'pay');
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('pending');
    expect(await statusesFor(request.orderId, 3)).toEqual(['waitingPayment:pending', 'pending:processing', 'completed:complete']);
    const snapshot = await harness.adapter.getOrder(request.orderId);
    expect(snapshot).toMatchObject({ status: 'complete', providerStatus: 'completed' });
    expect(snapshot.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Number(snapshot.cryptoAmount)).toBeGreaterThan(0);
    const refused = await checkout(order.redirectUrl, 'refund');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'action_not_allowed', allowed: [] });
  });

  test('hold puts the payment on verification; pay continues from there', async () => {
    const { request, order } = await openedOrder({
      fiat: fiat('GBP'),
      paymentMethod: 'bank_transfer',
      country: 'GB',
      state: undefined,
      fiatAmount: '80',
    });
    expect((await checkout(order.redirectUrl, 'hold')).body.status).toBe('waitingAuthorization');
    expect((await harness.adapter.getOrder(request.orderId)).status).toBe('hold');
    await checkout(order.redirectUrl, 'pay');
    expect(await statusesFor(request.orderId, 4)).toEqual([
      'waitingPayment:pending',
      'waitingAuthorization:hold',
      'pending:processing',
      'completed:complete',
    ]);
  });

  test('fail, expire and refund end as failed, expired and refunded', async () => {
    const failed = await openedOrder();
    expect((await checkout(failed.order.redirectUrl, 'fail')).body.status).toBe('failed');
    const expired = await openedOrder({ fiat: fiat('EUR'), paymentMethod: 'sepa', country: 'DE', state: undefined });
    await checkout(expired.order.redirectUrl, 'expire');
    const refunded = await openedOrder();
    await checkout(refunded.order.redirectUrl, 'hold');
    await checkout(refunded.order.redirectUrl, 'refund');

    expect(await statusesFor(failed.request.orderId, 2)).toEqual(['waitingPayment:pending', 'failed:failed']);
    expect(await statusesFor(expired.request.orderId, 2)).toEqual(['waitingPayment:pending', 'failed:expired']);
    expect(await statusesFor(refunded.request.orderId, 3)).toEqual([
      'waitingPayment:pending',
      'waitingAuthorization:hold',
      'failed:refunded',
    ]);
    expect(await harness.adapter.getOrder(failed.request.orderId)).toMatchObject({
      status: 'failed',
      failureReason: 'payment_authorization_declined',
    });
    expect((await harness.adapter.getOrder(expired.request.orderId)).status).toBe('expired');
    expect((await harness.adapter.getOrder(refunded.request.orderId)).status).toBe('refunded');
  });
});

describe('authentication', () => {
  test('a wrong publishable key, a wrong secret key and a tampered widget URL are refused', async () => {
    const quote = await fetch(
      `${harness.urls.simulatorUrl}/moonpay/v3/currencies/btc/buy_quote?apiKey=pk_test_wrong&baseCurrencyCode=usd&baseCurrencyAmount=100`,
    );
    expect(quote.status).toBe(401);
    expect(await quote.json()).toMatchObject({ type: 'UnauthorizedError' });

    const wrongSecret = createMoonpayAdapter({ ...harness.config, secretKey: 'sk_test_wrong' }, currencyDictionary);
    await expect(wrongSecret.getOrder(randomUUID())).rejects.toBeInstanceOf(ProviderUnavailableError);

    const order = await harness.adapter.createOrder(orderRequest());
    const tampered = order.redirectUrl.replace('baseCurrencyAmount=150.00', 'baseCurrencyAmount=15000.00');
    const page = await fetch(tampered);
    expect(page.status).toBe(400);
    expect(await page.json()).toMatchObject({ message: 'Invalid signature' });
    const unsigned = await fetch(order.redirectUrl.split('&signature=')[0]!);
    expect(await unsigned.json()).toMatchObject({ message: 'Missing signature' });
    const params = Object.fromEntries(new URL(order.redirectUrl.split('&signature=')[0]!).searchParams);
    const signedByOther = await fetch(signedWidgetUrl(harness.config.widgetUrl, 'sk_test_other', params));
    expect(signedByOther.status).toBe(400);
  });

  test('the adapter refuses a forged webhook', async () => {
    const body = JSON.stringify({
      type: 'transaction_updated',
      data: { id: 'x', createdAt: 'a', updatedAt: 'b', status: 'completed', externalTransactionId: randomUUID() },
    });
    const forged = moonpayWebhookSignature('wk_test_forger', body, Math.floor(Date.now() / 1000));
    await expect(
      harness.adapter.parseWebhook({ headers: { 'moonpay-signature-v2': forged }, rawBody: Buffer.from(body), query: {} }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});

describe('faults', () => {
  test('errorRate makes the API answer 503: ProviderUnavailableError', async () => {
    await fetch(`${harness.urls.simulatorUrl}/moonpay/_simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errorRate: 1 }),
    });
    await expect(harness.adapter.getCatalogue()).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(harness.adapter.getOrder(randomUUID())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  test("the caller's AbortSignal ends a slow catalogue or quote", async () => {
    harness.simulator.faults.latencyMs = 2000;
    const started = Date.now();
    const quote = {
      fiat: fiat('USD'),
      crypto: crypto('BTC', 'bitcoin'),
      fiatAmount: '100',
      paymentMethod: 'card',
      country: 'US',
      state: 'CA',
      externalUserId: 'u',
    };
    await expect(harness.adapter.getQuote(quote, AbortSignal.timeout(100))).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(harness.adapter.getCatalogue(AbortSignal.timeout(100))).rejects.toBeInstanceOf(ProviderUnavailableError);
    const cold = createMoonpayAdapter(harness.config, currencyDictionary);
    await expect(cold.getQuote(quote, AbortSignal.timeout(100))).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  test('dropWebhooks: none arrive, the lookup by our order id still follows the order', async () => {
    harness.simulator.faults.dropWebhooks = true;
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'pay');
    const snapshot = await eventually(async () => {
      const current = await harness.adapter.getOrder(request.orderId);
      return current.status === 'complete' ? current : undefined;
    }, 'the order to complete');
    expect(snapshot.providerStatus).toBe('completed');
    await harness.simulator.webhooks.drain();
    expect(await harness.eventsFor(request.orderId)).toEqual([]);
  });
});

describe('reported terms', () => {
  const PAID_WALLET = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l';

  const setFaults = (body: object) =>
    fetch(`${harness.urls.simulatorUrl}/moonpay/_simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  test("without the paid-terms switches, every webhook and the status answer report the order's own terms", async () => {
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'pay');
    const events = await harness.waitForEvents(request.orderId, 3);
    // The widget's 150.00 is what the customer pays: MoonPay's base amount plus its fees.
    const ordered = {
      walletAddress: request.walletAddress,
      cryptoCurrency: request.crypto.id,
      fiatCurrency: request.fiat.id,
      fiatAmount: '150',
    };
    for (const event of events) expect(event).toMatchObject({ orderId: request.orderId, reported: ordered });
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({
      orderId: request.orderId,
      status: 'complete',
      reported: ordered,
    });
  });

  test('with the switches on, the webhooks from payment on and the status answer report what was paid', async () => {
    expect((await setFaults({ paidFiatAmount: '175.25', paidFiatCurrency: 'EUR', paidWalletAddress: PAID_WALLET })).status).toBe(200);
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'pay');
    const events = await harness.waitForEvents(request.orderId, 3);
    const paid = { walletAddress: PAID_WALLET, cryptoCurrency: request.crypto.id, fiatCurrency: fiat('EUR').id, fiatAmount: '175.25' };
    expect(events.map((e) => e.providerStatus)).toEqual(['waitingPayment', 'pending', 'completed']);
    // The widget opened before payment, with the order's terms.
    expect(events[0]!.reported).toMatchObject({ walletAddress: request.walletAddress, fiatCurrency: request.fiat.id, fiatAmount: '150' });
    for (const event of events.slice(1)) expect(event).toMatchObject({ orderId: request.orderId, reported: paid });
    expect((await harness.adapter.getOrder(request.orderId)).reported).toEqual(paid);
  });
});

describe('transaction list (GET /v1/transactions)', () => {
  transactionListSuite({
    harness: () => harness,
    paidOrder: async () => {
      const { request, order } = await openedOrder();
      await checkout(order.redirectUrl, 'pay');
      expect((await statusesFor(request.orderId, 3)).at(-1)).toBe('completed:complete');
      return { orderId: request.orderId, fiatAmount: request.fiatAmount };
    },
    driftedStatus: { provider: 'failed', broker: 'failed' },
    phantomStatus: 'complete',
    pageLimit: 50,
  });
});
