import { randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../src/domain/currency';
import { createMercuryoAdapter, mercuryoConfig, MERCURYO_SIMULATOR_CREDENTIALS } from '../../../src/providers/mercuryo';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  WebhookVerificationError,
  type CreateProviderOrderRequest,
} from '../../../src/providers/types';
import { createMercuryoSimulator } from '../../../src/simulators/mercuryo/server';
import { eventually } from '../../helpers/http';
import { rejectionOf } from '../../helpers/rejection';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { listAll, setBooks, transactionListSuite } from '../../helpers/transaction-list';

const fiat = (id: number) => currencyDictionary.fiat(id) as FiatCurrency;
const crypto = (id: number) => currencyDictionary.crypto(id) as CryptoCurrency;
const USD = fiat(1);
const EUR = fiat(2);
const BTC = crypto(13);
const USDT_TRON = crypto(16);

const harness = useProviderHarness({
  code: 'mercuryo',
  config: (urls) => mercuryoConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: 'http://127.0.0.1:3000' }),
  simulator: (urls) =>
    createMercuryoSimulator({
      publicUrl: urls.publicUrl,
      brokerWebhookUrl: urls.webhookUrl,
      credentials: MERCURYO_SIMULATOR_CREDENTIALS,
      stepDelayMs: 40,
    }),
  adapter: (config) => createMercuryoAdapter(config, currencyDictionary),
});

function orderRequest(overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest {
  return {
    orderId: randomUUID(),
    fiat: USD,
    crypto: BTC,
    fiatAmount: '150',
    walletAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
    paymentMethod: 'card',
    country: 'GB',
    externalUserId: 'user-1',
    ip: '127.0.0.1',
    extras: {},
    ...overrides,
  };
}

async function openOrder(overrides: Partial<CreateProviderOrderRequest> = {}) {
  const request = orderRequest(overrides);
  const order = await harness.adapter.createOrder(request);
  const page = await fetch(order.redirectUrl);
  expect(page.status).toBe(200);
  await page.text();
  return { request, order };
}

describe('Mercuryo adapter against the simulator', () => {
  test('catalogue maps Mercuryo assets, networks and methods to broker ids and codes', async () => {
    const catalogue = await harness.adapter.getCatalogue();
    expect(catalogue.fiat).toEqual(expect.arrayContaining([1, 2, 3]));
    // BTC, ETH, USDT on Ethereum, Tron and TON, ETH on Base, POL on Polygon
    expect(catalogue.crypto).toEqual(expect.arrayContaining([13, 14, 15, 16, 65, 23, 22]));
    // NOT (no broker id) and ETH on zkSync (no broker network) are left out.
    expect(catalogue.crypto.every((id) => currencyDictionary.crypto(id) !== undefined)).toBe(true);
    expect(catalogue.crypto).toHaveLength(new Set(catalogue.crypto).size);
    const codes = catalogue.countries.map((c) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['US', 'GB', 'DE']));
    // Mercuryo publishes no state-level coverage: the US is listed whole.
    expect(catalogue.countries.find((c) => c.code === 'US')).toEqual({ code: 'US' });
    const methods = Object.fromEntries(catalogue.paymentMethods.map((m) => [m.code, m]));
    expect(Object.keys(methods).sort()).toEqual(['apple_pay', 'card', 'google_pay', 'pix', 'revolut_pay', 'sepa']);
    expect(methods.card!.limits[1]).toEqual({ min: '25', max: '3500' });
    expect(Object.keys(methods.sepa!.limits)).toEqual(['2']);
    expect(Object.keys(methods.pix!.limits)).toEqual(['8']);
  });

  test('quotes in decimal strings, and refuses an amount out of limits with the limits', async () => {
    const quote = await harness.adapter.getQuote({
      fiat: USD,
      crypto: BTC,
      fiatAmount: '200',
      paymentMethod: 'card',
      country: 'GB',
      externalUserId: 'u',
    });
    expect(quote.fiatAmount).toBe('200');
    expect(quote.cryptoAmount).toMatch(/^0\.\d+$/);
    expect(Number(quote.processingFee)).toBeGreaterThan(0);
    expect(quote.networkFee).toBe('0');
    expect(quote.paymentMethod).toBe('card');
    const tron = await harness.adapter.getQuote({
      fiat: EUR,
      crypto: USDT_TRON,
      fiatAmount: '100',
      paymentMethod: 'sepa',
      country: 'DE',
      externalUserId: 'u',
    });
    expect(Number(tron.cryptoAmount)).toBeGreaterThan(90);

    const refusal = await rejectionOf(
      harness.adapter.getQuote({ fiat: USD, crypto: BTC, fiatAmount: '10', paymentMethod: 'card', country: 'GB', externalUserId: 'u' }),
      ProviderRejectedError,
    );
    expect(refusal).toMatchObject({ code: 'limits', details: { minAmount: '25.00', maxAmount: '3500.00' } });
    expect(refusal.message).toBe('amount must be between 25.00 and 3500.00 USD');
  });

  test('the quote honours the abort signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      harness.adapter.getQuote(
        { fiat: USD, crypto: BTC, fiatAmount: '100', paymentMethod: 'card', country: 'GB', externalUserId: 'u' },
        controller.signal,
      ),
    ).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  test('createOrder twice gives one widget URL and one Mercuryo transaction; pay walks both legs to complete', async () => {
    const request = orderRequest();
    const first = await harness.adapter.createOrder(request);
    const second = await harness.adapter.createOrder(request);
    expect(second.redirectUrl).toBe(first.redirectUrl);
    expect(first).toMatchObject({ orderId: request.orderId, status: 'created', providerStatus: 'widget:not_opened' });
    expect(new URL(first.redirectUrl).searchParams.get('merchant_transaction_id')).toBe(request.orderId);
    expect((await harness.adapter.getOrder(request.orderId)).status).toBe('created');

    for (const url of [first.redirectUrl, second.redirectUrl]) {
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('data-action="pay"');
    }
    const transactions = await fetch(
      `${harness.urls.simulatorUrl}/mercuryo/v1.6/sdk-partner/transactions?merchant_transaction_id=${request.orderId}`,
      { headers: { 'sdk-partner-token': MERCURYO_SIMULATOR_CREDENTIALS.sdkPartnerToken } },
    ).then((r) => r.json() as Promise<any>);
    expect(transactions.data).toHaveLength(1);

    const paid = await checkout(first.redirectUrl, 'pay');
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('pending');

    const events = await eventually(async () => {
      const list = await harness.eventsFor(request.orderId);
      return list.at(-1)?.status === 'complete' ? list : undefined;
    }, 'the completed webhook');
    expect(events.map((e) => e.providerStatus)).toEqual([
      'buy:new',
      'buy:pending',
      'buy:paid',
      'withdraw:new',
      'withdraw:pending',
      'withdraw:completed',
    ]);
    expect(events.map((e) => e.status)).toEqual(['created', 'pending', 'processing', 'processing', 'processing', 'complete']);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
    expect(events.at(-1)!.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);

    const snapshot = await harness.adapter.getOrder(request.orderId);
    expect(snapshot).toMatchObject({ orderId: request.orderId, status: 'complete', providerStatus: 'withdraw:completed' });
    expect(snapshot.transactionHash).toBe(events.at(-1)!.transactionHash);

    const refused = await checkout(first.redirectUrl, 'pay');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'invalid_action', allowed: [] });
  });

  test('hold puts the purchase in order_scheduled; pay continues from there', async () => {
    const { request, order } = await openOrder({
      paymentMethod: 'apple_pay',
      fiat: EUR,
      crypto: USDT_TRON,
      walletAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    await checkout(order.redirectUrl, 'hold');
    const held = await eventually(async () => {
      const snapshot = await harness.adapter.getOrder(request.orderId);
      return snapshot.status === 'hold' ? snapshot : undefined;
    }, 'hold');
    expect(held.providerStatus).toBe('mobile_pay:order_scheduled');
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    await eventually(
      async () => ((await harness.adapter.getOrder(request.orderId)).status === 'complete' ? true : undefined),
      'complete after hold',
    );
    // The lookup can say complete before the last callbacks have arrived: wait for them.
    const events = await harness.waitForEvents(request.orderId, (received) => received.some((e) => e.status === 'complete'));
    expect(events.map((e) => e.status)).toEqual(['created', 'pending', 'hold', 'processing', 'processing', 'processing', 'complete']);
  });

  test('fail and expire end the purchase as failed', async () => {
    const failed = await openOrder();
    expect((await checkout(failed.order.redirectUrl, 'fail')).body.status).toBe('order_failed');
    expect(await harness.adapter.getOrder(failed.request.orderId)).toMatchObject({ status: 'failed', failureReason: 'payment_declined' });

    const expired = await openOrder();
    expect((await checkout(expired.order.redirectUrl, 'expire')).body.status).toBe('cancelled');
    expect(await harness.adapter.getOrder(expired.request.orderId)).toMatchObject({ status: 'failed', providerStatus: 'buy:cancelled' });
    const last = await eventually(
      async () => (await harness.eventsFor(expired.request.orderId)).find((e) => e.providerStatus === 'buy:cancelled'),
      'cancelled webhook',
    );
    expect(last).toMatchObject({ status: 'failed', failureReason: 'cancelled_by_provider' });
  });

  test('refund after payment: the withdraw fails and the paid payment is cancelled', async () => {
    const { request, order } = await openOrder();
    await checkout(order.redirectUrl, 'pay');
    await eventually(
      () => Promise.resolve(harness.simulator.purchases.get(request.orderId)?.withdraw ? true : undefined),
      'the withdraw leg',
    );
    const refunded = await checkout(order.redirectUrl, 'refund');
    expect(refunded.status).toBe(200);
    await eventually(async () => ((await harness.adapter.getOrder(request.orderId)).status === 'refunded' ? true : undefined), 'refunded');
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ providerStatus: 'buy:cancelled' });
    const events = await eventually(async () => {
      const list = await harness.eventsFor(request.orderId);
      return list.some((e) => e.providerStatus === 'buy:cancelled') ? list : undefined;
    }, 'refund webhooks');
    expect(events.map((e) => e.providerStatus)).toContain('withdraw:failed');
    expect(events.map((e) => e.providerStatus)).not.toContain('withdraw:completed');
  });

  test('an order without the customer IP cannot be signed, and the adapter says it needs one', async () => {
    expect(harness.adapter.requiresCustomerIp).toBe(true);
    await expect(harness.adapter.createOrder(orderRequest({ ip: undefined }))).rejects.toMatchObject({ code: 'rejected' });
  });

  test('callbacks and lookups report the wallet, the asset and the fiat; after the paid* switches, what was really paid', async () => {
    const { request, order } = await openOrder();
    const [opened] = await harness.waitForEvents(request.orderId, 1);
    expect(opened?.reported).toEqual({ cryptoCurrency: BTC.id, fiatCurrency: USD.id, fiatAmount: '150' });
    Object.assign(harness.simulator.faults, {
      paidFiatAmount: '160.25',
      paidFiatCurrency: 'EUR',
      paidWalletAddress: 'bc1qattackeraddress000000000000000000000000',
    });
    await checkout(order.redirectUrl, 'pay');
    const events = await harness.waitForEvents(request.orderId, (list) => list.at(-1)?.status === 'complete');
    const paid = { cryptoCurrency: BTC.id, fiatCurrency: EUR.id, fiatAmount: '160.25' };
    // Payment callbacks carry no wallet; withdraw callbacks carry it in tx.address.
    for (const event of events.slice(1)) {
      expect(event.reported).toEqual(
        event.providerStatus.startsWith('withdraw:') ? { ...paid, walletAddress: 'bc1qattackeraddress000000000000000000000000' } : paid,
      );
    }
    expect((await harness.adapter.getOrder(request.orderId)).reported).toEqual({
      ...paid,
      walletAddress: 'bc1qattackeraddress000000000000000000000000',
    });
    // The widget URL still opens the purchase: it is the order's, whatever was paid.
    expect((await fetch(order.redirectUrl)).status).toBe(200);
  });

  test('whitespace added to a signed callback verifies as the very same event', async () => {
    const { request } = await openOrder();
    await harness.waitForEvents(request.orderId, 1);
    const genuine = harness.webhooks.find((w) => w.rawBody.toString('utf8').includes(request.orderId))!;
    const text = genuine.rawBody.toString('utf8');
    const padded = { ...genuine, rawBody: Buffer.from(text.replace('"status":"new"', '"status" : "ne w"')) };
    expect(padded.rawBody.toString('utf8')).not.toBe(text);
    expect(await harness.adapter.parseWebhook(padded)).toEqual(await harness.adapter.parseWebhook(genuine));
  });

  test('a lookup finding only statuses Mercuryo does not document fails instead of guessing', async () => {
    const { request } = await openOrder();
    harness.simulator.purchases.get(request.orderId)!.payment.status = 'brand_new_status';
    await expect(harness.adapter.getOrder(request.orderId)).rejects.toThrow(/buy:brand_new_status/);
  });

  test('the simulator refuses a wrong signature, widget id and partner token', async () => {
    const { order } = await openOrder();
    const tampered = new URL(order.redirectUrl);
    tampered.searchParams.set('address', 'bc1qattackeraddress000000000000000000000000');
    expect((await fetch(tampered)).status).toBe(403);
    expect((await checkout(tampered.toString(), 'pay')).status).toBe(403);
    const forgedSignature = new URL(order.redirectUrl);
    forgedSignature.searchParams.set('merchant_transaction_id', randomUUID());
    expect((await fetch(forgedSignature)).status).toBe(403);

    const rate = await fetch(`${harness.urls.simulatorUrl}/mercuryo/v1.6/widget/buy/rate?from=USD&to=BTC&amount=100&widget_id=wrong`);
    expect(rate.status).toBe(403);
    const lookup = await fetch(`${harness.urls.simulatorUrl}/mercuryo/v1.6/sdk-partner/transactions?merchant_transaction_id=x`, {
      headers: { 'sdk-partner-token': 'wrong' },
    });
    expect(lookup.status).toBe(401);

    const wrongToken = createMercuryoAdapter({ ...harness.config, sdkPartnerToken: 'wrong' }, currencyDictionary);
    await expect(wrongToken.getOrder(randomUUID())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  test('a forged webhook is refused by the adapter', async () => {
    const body = Buffer.from(
      JSON.stringify({ data: { id: 'x', merchant_transaction_id: randomUUID(), type: 'withdraw', status: 'completed' } }),
    );
    await expect(
      harness.adapter.parseWebhook({ headers: { 'x-signature': 'ab'.repeat(32) }, rawBody: body, query: {} }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(harness.adapter.parseWebhook({ headers: {}, rawBody: body, query: {} })).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  test('fault switches: outages become ProviderUnavailableError; dropped webhooks leave polling working', async () => {
    await fetch(`${harness.urls.simulatorUrl}/mercuryo/_simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errorRate: 1 }),
    });
    await expect(
      harness.adapter.getQuote({ fiat: USD, crypto: BTC, fiatAmount: '100', paymentMethod: 'card', country: 'GB', externalUserId: 'u' }),
    ).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(harness.adapter.getCatalogue()).rejects.toBeInstanceOf(ProviderUnavailableError);

    await fetch(`${harness.urls.simulatorUrl}/mercuryo/_simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errorRate: 0, dropWebhooks: true }),
    });
    const { request, order } = await openOrder();
    await checkout(order.redirectUrl, 'pay');
    await eventually(
      async () => ((await harness.adapter.getOrder(request.orderId)).status === 'complete' ? true : undefined),
      'complete by polling',
    );
    expect(await harness.eventsFor(request.orderId)).toEqual([]);
  });
});

describe('transaction list (GET /v1.6/sdk-partner/transactions by dates)', () => {
  transactionListSuite({
    harness: () => harness,
    paidOrder: async () => {
      const { request, order } = await openOrder();
      await checkout(order.redirectUrl, 'pay');
      await harness.waitForEvents(request.orderId, (events) => events.at(-1)?.status === 'complete');
      return { orderId: request.orderId, fiatAmount: request.fiatAmount };
    },
    // A paid payment cancelled afterwards (a withdraw leg exists) is a refund, as the lookup reads it.
    driftedStatus: { provider: 'cancelled', broker: 'refunded' },
    phantomStatus: 'complete',
    // Items, one purchase each.
    pageLimit: 50,
  });

  test('says what the status lookup says, and a payment drifted to a decline shows no delivery', async () => {
    const from = Date.now() - 1_000;
    const { request, order } = await openOrder({ paymentMethod: 'google_pay', fiat: EUR });
    await checkout(order.redirectUrl, 'pay');
    await harness.waitForEvents(request.orderId, (events) => events.at(-1)?.status === 'complete');
    const window = { fromMs: from, toMs: Date.now() + 60_000 };
    const lookup = await harness.adapter.getOrder(request.orderId);
    const [listed] = (await listAll(harness.adapter, window)).filter((t) => t.orderId === request.orderId);
    const { orderId, providerOrderCreatedAt, ...rest } = lookup;
    expect(listed).toEqual({ ...rest, orderId, createdAt: providerOrderCreatedAt });

    await setBooks(harness, request.orderId, { status: 'order_failed' });
    const [declined] = (await listAll(harness.adapter, window)).filter((t) => t.orderId === request.orderId);
    expect(declined).toMatchObject({ status: 'failed', providerStatus: 'mobile_pay:order_failed', transactionHash: undefined });
    // The lookup still says what Mercuryo told the broker.
    expect((await harness.adapter.getOrder(request.orderId)).status).toBe('complete');
  });

  test("the simulator refuses bad list parameters in Mercuryo's error shape, and wants the partner token", async () => {
    const list = (query: string, token: string = MERCURYO_SIMULATOR_CREDENTIALS.sdkPartnerToken) =>
      fetch(`${harness.urls.simulatorUrl}/mercuryo/v1.6/sdk-partner/transactions?${query}`, { headers: { 'sdk-partner-token': token } });
    for (const query of [
      'date_start=2026-01-02T00:00:00Z',
      'date_start=yesterday',
      'date_start=2026-01-03&date_end=2026-01-02',
      'limit=51',
      'limit=0',
      'offset=-1',
      'offset=ten',
    ]) {
      const answer = await list(query);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ status: 400, code: 40000, message: expect.any(String), data: null });
    }
    expect((await list('date_start=2026-01-01', 'wrong')).status).toBe(401);
    const day = new Date().toISOString().slice(0, 10);
    const page = (await (await list(`date_start=${day}&date_end=${day}&limit=5&offset=0`)).json()) as { data: unknown[]; total: number };
    expect(page.data.length).toBeLessThanOrEqual(5);
    expect(page.total).toBeGreaterThanOrEqual(page.data.length);
  });
});
