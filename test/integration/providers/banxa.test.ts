/**
 * The Banxa adapter in simulator mode against the Banxa simulator over real HTTP on 127.0.0.1, with a
 * small HTTP receiver playing the broker's webhook endpoint. No Temporal.
 */
import { randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../src/domain/currency';
import { banxaConfig, BanxaEnvSchema, createBanxaAdapter } from '../../../src/providers/banxa';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  WebhookVerificationError,
  type CreateProviderOrderRequest,
  type IncomingWebhook,
} from '../../../src/providers/types';
import { createBanxaSimulator } from '../../../src/simulators/banxa/server';
import { banxaAuthorization } from '../../../src/simulators/banxa/signing';
import { eventually } from '../../helpers/http';
import { rejectionOf } from '../../helpers/rejection';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { listAll, transactionListSuite } from '../../helpers/transaction-list';
import { currencyId as idOf } from '../../helpers/currencies';

jest.setTimeout(20_000);

const STEP_MS = 40;

const EUR = currencyDictionary.fiat(idOf('EUR')) as FiatCurrency;
const USDT_TRON = currencyDictionary.crypto(idOf('USDT', 'tron')) as CryptoCurrency;

const harness = useProviderHarness({
  code: 'banxa',
  config: (urls) => banxaConfig(BanxaEnvSchema.parse({}), { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: urls.brokerUrl }),
  // Banxa signs the webhook's path too: the adapter checks it against config.webhookPath.
  simulator: (urls, config) =>
    createBanxaSimulator({
      publicUrl: urls.publicUrl,
      brokerWebhookUrl: urls.webhookUrl,
      credentials: { apiKey: config.apiKey, apiSecret: config.apiSecret },
      stepDelayMs: STEP_MS,
    }),
  adapter: (config) => createBanxaAdapter(config, currencyDictionary),
  // Webhooks are filed under Banxa's order id, read from the body before the adapter sees it.
  orderOf: (webhook) => (JSON.parse(webhook.rawBody.toString('utf8')) as { order_id: string }).order_id,
});

function orderRequest(overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest {
  return {
    orderId: randomUUID(),
    fiat: EUR,
    crypto: USDT_TRON,
    fiatAmount: '150.00',
    walletAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
    paymentMethod: 'card',
    country: 'DE',
    externalUserId: 'user-42',
    extras: {},
    ...overrides,
  };
}

describe('catalogue', () => {
  test('maps Banxa assets, fiat, countries and methods to the broker ids', async () => {
    const catalogue = await harness.adapter.getCatalogue();
    expect(catalogue.crypto).toEqual(
      expect.arrayContaining([
        idOf('BTC', 'bitcoin'),
        idOf('USDT', 'tron'),
        idOf('USDT', 'bsc'),
        idOf('USDC', 'base'),
        idOf('XRP', 'ripple'),
      ]),
    );
    expect(catalogue.crypto).toHaveLength(21); // every simulated asset but the one on a chain the broker lacks
    expect(catalogue.fiat).toEqual(expect.arrayContaining([idOf('USD'), idOf('EUR'), idOf('GBP'), idOf('AUD'), idOf('INR')]));
    const us = catalogue.countries.find((c) => c.code === 'US');
    expect(us?.states).toContain('CA');
    expect(us?.states).not.toContain('NY');
    expect(catalogue.countries).toEqual(expect.arrayContaining([{ code: 'GB' }, { code: 'DE' }]));
    const codes = catalogue.paymentMethods.map((m) => m.code).sort();
    expect(codes).toEqual(['ach', 'apple_pay', 'bank_transfer', 'card', 'google_pay', 'payid', 'pix', 'sepa', 'upi']);
    const sepa = catalogue.paymentMethods.find((m) => m.code === 'sepa');
    expect(Object.keys(sepa?.limits ?? {})).toEqual([String(idOf('EUR'))]);
  });

  test('honours the abort signal', async () => {
    await expect(harness.adapter.getCatalogue(AbortSignal.abort())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});

describe('quotes', () => {
  const quoteRequest = { fiat: EUR, crypto: USDT_TRON, paymentMethod: 'card', country: 'DE', externalUserId: 'user-42' };

  test('a quote in decimal strings, fees in fiat', async () => {
    const quote = await harness.adapter.getQuote({ ...quoteRequest, fiatAmount: '100.00' });
    expect(quote).toMatchObject({ fiatAmount: '100.00', paymentMethod: 'card', processingFee: '1.99' });
    expect(quote.cryptoAmount).toMatch(/^\d+\.\d+$/);
    expect(Number(quote.cryptoAmount)).toBeGreaterThan(90);
    expect(quote.networkFee).toMatch(/^\d+\.\d{2}$/);
  });

  test('an amount under the limits is refused with the limits of the method', async () => {
    const error = await rejectionOf(harness.adapter.getQuote({ ...quoteRequest, fiatAmount: '5' }), ProviderRejectedError);
    expect(error).toMatchObject({ code: 'limits', details: { minAmount: '23.00', maxAmount: '13800.00' } });
  });

  test('a method Banxa does not take in that fiat is a payment-method refusal', async () => {
    const error = await harness.adapter.getQuote({ ...quoteRequest, paymentMethod: 'pix', fiatAmount: '100' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'payment_method' });
  });

  test('an outage is ProviderUnavailableError', async () => {
    harness.simulator.faults.errorRate = 1;
    await expect(harness.adapter.getQuote({ ...quoteRequest, fiatAmount: '100' })).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});

describe('orders', () => {
  test('created once per order id, paid through every status to complete, signed webhooks in order', async () => {
    const request = orderRequest();
    const first = await harness.adapter.createOrder(request);
    const second = await harness.adapter.createOrder(request);
    expect(second.providerOrderId).toBe(first.providerOrderId);
    expect([...harness.simulator.orders.values()].filter((o) => o.externalOrderId === request.orderId)).toHaveLength(1);
    expect(first).toMatchObject({ orderId: request.orderId, providerStatus: 'pendingPayment', status: 'created' });
    expect(first.redirectUrl).toBe(`${harness.urls.simulatorUrl}/banxa/checkout/${first.providerOrderId}`);
    // The one-time checkout link is not given again: a repeated create leads to the order's status page.
    expect(second.redirectUrl).toBe(`${harness.urls.simulatorUrl}/banxa/status/${first.providerOrderId}`);
    expect((await fetch(second.redirectUrl)).status).toBe(200);

    const page = await fetch(first.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('pendingPayment');

    const paid = await checkout(first.redirectUrl, 'pay');
    expect(paid).toMatchObject({ status: 200, body: { status: 'waitingPayment' } });

    const events = await harness.waitForEvents(first.providerOrderId as string, 5);
    expect(events.map((e) => e.providerStatus)).toEqual(['waitingPayment', 'paymentReceived', 'inProgress', 'coinTransferred', 'complete']);
    expect(events.map((e) => e.status)).toEqual(['pending', 'processing', 'processing', 'processing', 'complete']);
    expect(events.every((e) => e.orderId === request.orderId)).toBe(true);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(5);
    expect(events[4]?.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);

    await expect(harness.adapter.getOrder(request.orderId, first.providerOrderId)).resolves.toMatchObject({
      orderId: request.orderId,
      providerOrderId: first.providerOrderId,
      status: 'complete',
    });

    const refused = await checkout(first.redirectUrl, 'pay');
    expect(refused).toEqual({ status: 409, body: { error: expect.objectContaining({ code: 'invalid_action', allowed: [] }) } });
  });

  test('hold puts the order in extraVerification; pay goes on from there', async () => {
    const order = await harness.adapter.createOrder(orderRequest());
    expect((await checkout(order.redirectUrl, 'hold')).body.status).toBe('extraVerification');
    const held = await harness.waitForEvents(order.providerOrderId as string, 1);
    expect(held[0]).toMatchObject({ providerStatus: 'extraVerification', status: 'hold' });
    await checkout(order.redirectUrl, 'pay');
    const events = await harness.waitForEvents(order.providerOrderId as string, 6);
    expect(events.map((e) => e.status)).toEqual(['hold', 'pending', 'processing', 'processing', 'processing', 'complete']);
  });

  test('fail declines an unpaid order', async () => {
    const order = await harness.adapter.createOrder(orderRequest());
    await checkout(order.redirectUrl, 'fail');
    const [event] = await harness.waitForEvents(order.providerOrderId as string, 1);
    expect(event).toMatchObject({ providerStatus: 'declined', status: 'failed', failureReason: 'payment_declined' });
  });

  test('expire, then a late payment revives the order', async () => {
    const order = await harness.adapter.createOrder(orderRequest());
    await checkout(order.redirectUrl, 'expire');
    expect((await harness.waitForEvents(order.providerOrderId as string, 1))[0]).toMatchObject({
      providerStatus: 'expired',
      status: 'expired',
    });
    await checkout(order.redirectUrl, 'pay');
    const events = await harness.waitForEvents(order.providerOrderId as string, 5);
    expect(events.map((e) => e.providerStatus)).toEqual(['expired', 'paymentReceived', 'inProgress', 'coinTransferred', 'complete']);
  });

  test('refund of a held payment', async () => {
    const order = await harness.adapter.createOrder(orderRequest());
    await checkout(order.redirectUrl, 'hold');
    await checkout(order.redirectUrl, 'refund');
    const events = await harness.waitForEvents(order.providerOrderId as string, 2);
    expect(events.map((e) => e.status)).toEqual(['hold', 'refunded']);
    await expect(harness.adapter.getOrder(order.orderId, order.providerOrderId)).resolves.toMatchObject({ status: 'refunded' });
  });

  test('an unknown Banxa order is not_found; without a Banxa id there is nothing to look up', async () => {
    await expect(harness.adapter.getOrder(randomUUID(), 'no-such-banxa-order')).rejects.toMatchObject({ code: 'not_found' });
    await expect(harness.adapter.getOrder(randomUUID())).rejects.toMatchObject({ code: 'not_found' });
  });

  test('an order Banxa reports without a partner reference is never taken for the order asked about', async () => {
    const order = await harness.adapter.createOrder(orderRequest());
    harness.simulator.orders.get(order.providerOrderId as string)!.externalOrderId = null;
    await expect(harness.adapter.getOrder(order.orderId, order.providerOrderId)).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});

describe('create idempotency (the order list filtered by customer)', () => {
  /** `count` more Banxa orders of `customer` made today, copies of a real one. */
  async function seed(customer: string, count: number): Promise<void> {
    const template = await harness.adapter.createOrder(orderRequest({ externalUserId: customer }));
    const now = new Date();
    for (let i = 1; i < count; i++) {
      const id = randomUUID().replace(/-/g, '');
      harness.simulator.orders.set(id, {
        ...harness.simulator.orders.get(template.providerOrderId as string)!,
        id,
        externalOrderId: randomUUID(),
        externalCustomerId: customer,
        createdAt: now,
        updatedAt: now,
      });
    }
  }

  test("a repeated create finds the order in one call among the customer's orders, however many others there are", async () => {
    await seed(`user-${randomUUID()}`, 250);
    const request = orderRequest({ externalUserId: `user-${randomUUID()}` });
    const first = await harness.adapter.createOrder(request);
    const lists = jest.spyOn(harness.simulator.orders, 'values');
    try {
      const again = await harness.adapter.createOrder(request);
      expect(again.providerOrderId).toBe(first.providerOrderId);
      expect(lists).toHaveBeenCalledTimes(1);
    } finally {
      lists.mockRestore();
    }
    expect([...harness.simulator.orders.values()].filter((o) => o.externalOrderId === request.orderId)).toHaveLength(1);
  });

  test('an order found under the id but made long before (an earlier run whose answer was lost) is refused, not adopted', async () => {
    const request = orderRequest();
    const first = await harness.adapter.createOrder(request);
    const stored = harness.simulator.orders.get(first.providerOrderId as string)!;
    stored.createdAt = new Date(Date.now() - 60 * 60_000);
    await expect(harness.adapter.createOrder(request)).rejects.toMatchObject({
      code: 'rejected',
      message: expect.stringMatching(/new external_order_id/),
    });
    // Four minutes old is still this order's, made by an earlier attempt of the same creation.
    stored.createdAt = new Date(Date.now() - 4 * 60_000);
    expect((await harness.adapter.createOrder(request)).providerOrderId).toBe(first.providerOrderId);
  });

  test('more orders of one customer than the lookup reads: refused rather than risk a second Banxa order', async () => {
    const customer = `user-${randomUUID()}`;
    await seed(customer, 501);
    const before = harness.simulator.orders.size;
    const error = await rejectionOf(harness.adapter.createOrder(orderRequest({ externalUserId: customer })), ProviderRejectedError);
    expect(error.code).toBe('rejected');
    expect(error.message).toMatch(/more than 500 orders of customer/);
    expect(harness.simulator.orders.size).toBe(before);
  });
});

describe('reported terms and the paid* switches', () => {
  test('webhooks and lookups report the wallet, the asset and the fiat paid; after the switches, what was really paid', async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    expect(order.reported).toEqual({
      walletAddress: request.walletAddress,
      cryptoCurrency: idOf('USDT', 'tron'),
      fiatCurrency: idOf('EUR'),
      fiatAmount: '150.00',
    });
    Object.assign(harness.simulator.faults, {
      paidFiatAmount: '175.50',
      paidFiatCurrency: 'GBP',
      paidWalletAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    await checkout(order.redirectUrl, 'pay');
    const events = await harness.waitForEvents(order.providerOrderId as string, 5);
    // Banxa's webhooks carry the coin and the fiat, never the wallet: each is read with its order, which does.
    for (const event of events) {
      expect(event.reported).toEqual({
        walletAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        cryptoCurrency: idOf('USDT', 'tron'),
        fiatCurrency: idOf('GBP'),
        fiatAmount: '175.50',
      });
    }
    expect((await harness.adapter.getOrder(request.orderId, order.providerOrderId)).reported).toEqual({
      walletAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      cryptoCurrency: idOf('USDT', 'tron'),
      fiatCurrency: idOf('GBP'),
      fiatAmount: '175.50',
    });
  });

  test("without the switches, what was ordered; a switch left empty keeps the order's value", async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    harness.simulator.faults.paidFiatAmount = '149.99';
    await checkout(order.redirectUrl, 'pay');
    const [first] = await harness.waitForEvents(order.providerOrderId as string, 1);
    expect(first?.reported).toEqual({
      walletAddress: request.walletAddress,
      cryptoCurrency: idOf('USDT', 'tron'),
      fiatCurrency: idOf('EUR'),
      fiatAmount: '149.99',
    });
    expect((await harness.adapter.getOrder(request.orderId, order.providerOrderId)).reported).toMatchObject({
      walletAddress: request.walletAddress,
      fiatCurrency: idOf('EUR'),
    });
  });
});

describe('authentication and webhooks', () => {
  test('the simulator refuses a wrong API key', async () => {
    const response = await fetch(`${harness.urls.simulatorUrl}/banxa/v2/countries`, { headers: { 'x-api-key': 'wrong' } });
    expect(response.status).toBe(401);
    const impostor = createBanxaAdapter({ ...harness.config, apiKey: 'wrong' }, currencyDictionary);
    await expect(impostor.getCatalogue()).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  test('a forged or tampered webhook is refused', async () => {
    const order = await harness.adapter.createOrder(orderRequest());
    await checkout(order.redirectUrl, 'hold');
    await harness.waitForEvents(order.providerOrderId as string, 1);
    const genuine = harness.webhooks.find((w) => w.rawBody.toString('utf8').includes(order.providerOrderId as string)) as IncomingWebhook;
    const tampered = { ...genuine, rawBody: Buffer.from(genuine.rawBody.toString('utf8').replace('extraVerification', 'complete')) };
    await expect(harness.adapter.parseWebhook(tampered)).rejects.toBeInstanceOf(WebhookVerificationError);

    const body = genuine.rawBody.toString('utf8');
    const forged = banxaAuthorization(
      { apiKey: harness.config.apiKey, apiSecret: 'guessed' },
      { method: 'POST', path: harness.config.webhookPath, body },
      Date.now(),
    );
    await expect(
      harness.adapter.parseWebhook({ headers: { authorization: forged }, rawBody: Buffer.from(body), query: {} }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  test('a webhook with only the order id is completed from the order lookup', async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    const body = JSON.stringify({ order_id: order.providerOrderId });
    const authorization = banxaAuthorization(harness.config, { method: 'POST', path: harness.config.webhookPath, body }, Date.now());
    await expect(
      harness.adapter.parseWebhook({ headers: { authorization }, rawBody: Buffer.from(body), query: {} }),
    ).resolves.toMatchObject({
      orderId: request.orderId,
      providerOrderId: order.providerOrderId,
      providerStatus: 'pendingPayment',
      status: 'created',
    });
  });

  test('dropped webhooks: none arrive, the status is still found by polling', async () => {
    harness.simulator.faults.dropWebhooks = true;
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    await checkout(order.redirectUrl, 'pay');
    const done = await eventually(
      async () => {
        const snapshot = await harness.adapter.getOrder(request.orderId, order.providerOrderId);
        return snapshot.status === 'complete' ? snapshot : undefined;
      },
      'the order to complete',
      5000,
    );
    expect(done.providerStatus).toBe('complete');
    expect(await harness.eventsFor(order.providerOrderId as string)).toEqual([]);
  });
});

describe('transaction list (GET /v2/orders)', () => {
  transactionListSuite({
    harness: () => harness,
    paidOrder: async () => {
      const request = orderRequest();
      const order = await harness.adapter.createOrder(request);
      await checkout(order.redirectUrl, 'pay');
      const events = await harness.waitForEvents(order.providerOrderId as string, 5);
      expect(events.at(-1)).toMatchObject({ providerStatus: 'complete', status: 'complete' });
      await expect(harness.adapter.getOrder(request.orderId, order.providerOrderId)).resolves.toMatchObject({ status: 'complete' });
      return { orderId: request.orderId, fiatAmount: request.fiatAmount };
    },
    driftedStatus: { provider: 'refunded', broker: 'refunded' },
    phantomStatus: 'complete',
    pageLimit: 100,
  });

  test('the list says what a status lookup says of the same order', async () => {
    const from = Date.now() - 1_000;
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    await checkout(order.redirectUrl, 'pay');
    await harness.waitForEvents(order.providerOrderId as string, 5);
    const { orderId, providerOrderId, providerOrderCreatedAt, ...looked } = await harness.adapter.getOrder(
      request.orderId,
      order.providerOrderId,
    );
    const listed = (await listAll(harness.adapter, { fromMs: from, toMs: Date.now() + 60_000 })).filter((t) => t.orderId === orderId);
    expect(listed).toEqual([{ ...looked, orderId, providerOrderId, createdAt: providerOrderCreatedAt }]);
  });

  test('the simulator refuses a malformed list request with a 400 validation error', async () => {
    const list = (query: string) =>
      fetch(`${harness.urls.publicUrl}/v2/orders?${query}`, { headers: { 'x-api-key': harness.config.apiKey } });
    for (const query of [
      'end=2026-01-02',
      'start=2026-01-02&end=2026-01-01',
      'start=2026-01-01&end=2026-01-02&limit=101',
      'start=2026-01-01&end=2026-01-02&page=0',
    ]) {
      const response = await list(query);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 4002, message: expect.stringMatching(/^Validation error/) });
    }
    expect((await fetch(`${harness.urls.publicUrl}/v2/orders?start=2026-01-01&end=2026-01-02`)).status).toBe(401);
  });
});
