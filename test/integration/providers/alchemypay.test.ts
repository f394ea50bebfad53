/**
 * The Alchemy Pay adapter against the Alchemy Pay simulator over real HTTP on 127.0.0.1: catalogue,
 * quotes, signed ramp URLs, the customer's actions on the ramp page, webhooks signed with
 * `newSignature` to a small receiver playing the broker, lookups by our order id (the only way to
 * see the statuses Alchemy Pay sends no webhook for), authentication refusals and fault switches.
 * No Temporal.
 */
import { randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../src/domain/currencies';
import { alchemypayConfig, AlchemypayEnvSchema, createAlchemypayAdapter } from '../../../src/providers/alchemypay';
import { signedRampUrl } from '../../../src/providers/alchemypay/ramp-url';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  WebhookVerificationError,
  type CreateProviderOrderRequest,
  type IncomingWebhook,
  type QuoteRequest,
} from '../../../src/providers/types';
import { createAlchemypaySimulator } from '../../../src/simulators/alchemypay/server';
import { webhookNewSignature } from '../../../src/simulators/alchemypay/signing';
import { eventually } from '../../helpers/http';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { rejectionOf } from '../../helpers/rejection';
import { cryptoOf as crypto, fiatOf as fiat } from '../../helpers/currencies';

jest.setTimeout(20_000);

const harness = useProviderHarness({
  code: 'alchemypay',
  config: (urls) => alchemypayConfig(AlchemypayEnvSchema.parse({}), { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: urls.brokerUrl }),
  simulator: (urls, config) =>
    createAlchemypaySimulator({
      publicUrl: urls.publicUrl,
      brokerWebhookUrl: urls.webhookUrl,
      credentials: { appId: config.appId, appSecret: config.appSecret },
      stepDelayMs: 40,
    }),
  adapter: (config) => createAlchemypayAdapter(config, currencyDictionary),
});

const WEBHOOK_PATH = '/api/webhooks/alchemypay';

function orderRequest(overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest {
  return {
    orderId: randomUUID(),
    fiat: fiat('USD'),
    crypto: crypto('USDT', 'tron'),
    fiatAmount: '150.00',
    walletAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
    paymentMethod: 'card',
    country: 'GB',
    externalUserId: 'user-1',
    extras: {},
    ...overrides,
  };
}

const quoteRequest = (overrides: Partial<QuoteRequest> = {}): QuoteRequest => ({
  fiat: fiat('USD'),
  crypto: crypto('BTC', 'bitcoin'),
  fiatAmount: '100',
  paymentMethod: 'card',
  country: 'GB',
  externalUserId: 'user-1',
  ...overrides,
});

/** The order's webhooks, each verified and parsed by the adapter, as provider:broker statuses. */
async function statusesFor(orderId: string, count: number): Promise<string[]> {
  return (await harness.waitForEvents(orderId, count)).map((e) => `${e.providerStatus}:${e.status}`);
}

/** A fresh order whose ramp page the customer has opened (Alchemy Pay has the order from then on). */
async function openedOrder(overrides: Partial<CreateProviderOrderRequest> = {}) {
  const request = orderRequest(overrides);
  const order = await harness.adapter.createOrder(request);
  const page = await fetch(order.redirectUrl);
  expect(page.status).toBe(200);
  return { request, order };
}

/** Polls the order by our id until the adapter reports `status`. */
function polledUntil(orderId: string, status: string) {
  return eventually(async () => {
    const snapshot = await harness.adapter.getOrder(orderId);
    return snapshot.status === status ? snapshot : undefined;
  }, `order ${orderId} to be ${status}`);
}

/** The webhooks that reached the receiver for one order, as they came. */
function webhooksOf(orderId: string): IncomingWebhook[] {
  return harness.webhooks.filter((w) => w.rawBody.toString('utf8').includes(orderId));
}

/** A webhook body signed as Alchemy Pay signs it, with `appSecret`, at `timestamp`. */
function signedWebhook(appSecret: string, fields: Record<string, unknown>, timestamp = String(Date.now())): IncomingWebhook {
  const body = JSON.stringify({ ...fields, newSignature: webhookNewSignature(appSecret, timestamp, WEBHOOK_PATH, fields) });
  return { headers: { timestamp }, rawBody: Buffer.from(body), query: {} };
}

describe('catalogue', () => {
  test("Alchemy Pay's assets and fiat currencies as broker IDs, countries of the currencies, card with its limits", async () => {
    const catalogue = await harness.adapter.getCatalogue();
    expect(catalogue.crypto).toEqual(
      expect.arrayContaining([
        crypto('BTC', 'bitcoin').id,
        crypto('USDT', 'tron').id,
        crypto('ETH', 'base').id,
        crypto('ETH', 'arbitrum').id,
        crypto('TON', 'ton').id,
        crypto('USDC', 'solana').id,
      ]),
    );
    expect(catalogue.crypto).not.toContain(crypto('USDT', 'polygon').id);
    expect(catalogue.fiat).toEqual(expect.arrayContaining(['USD', 'EUR', 'GBP', 'JPY', 'TRY', 'BRL'].map((t) => fiat(t).id)));
    // EUR is listed once per euro country: each is served, every currency counted once.
    expect(catalogue.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['GB', 'DE', 'FR', 'ES', 'US', 'JP', 'TR', 'BR']));
    expect(catalogue.countries.map((c) => c.code)).not.toContain('CN');
    expect(new Set(catalogue.fiat).size).toBe(catalogue.fiat.length);
    expect(catalogue.paymentMethods.map((m) => m.code)).toEqual(['card']);
    const [card] = catalogue.paymentMethods;
    expect(card?.limits[fiat('USD').id]).toEqual({ min: '15', max: '3000' });
    expect(Object.keys(card?.limits ?? {})).toHaveLength(catalogue.fiat.length);
  });

  test('honours the abort signal', async () => {
    await expect(harness.adapter.getCatalogue(AbortSignal.abort())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});

describe('quotes', () => {
  test('a card quote: the customer pays the amount, the ramp and network fees come out of it', async () => {
    const quote = await harness.adapter.getQuote(quoteRequest());
    expect(quote).toMatchObject({ fiatAmount: '100', processingFee: '3.75', networkFee: '1.2', paymentMethod: 'card' });
    expect(Number(quote.cryptoAmount)).toBeGreaterThan(0);
    const bigger = await harness.adapter.getQuote(quoteRequest({ fiatAmount: '200' }));
    expect(Number(bigger.cryptoAmount)).toBeGreaterThan(2 * Number(quote.cryptoAmount));
  });

  test("out of the method's limits: code 3102 becomes a limits refusal with the two amounts", async () => {
    const low = await rejectionOf(harness.adapter.getQuote(quoteRequest({ fiatAmount: '5' })), ProviderRejectedError);
    expect(low).toMatchObject({ code: 'limits', details: { minAmount: '15', maxAmount: '3000' } });
    const high = await rejectionOf(harness.adapter.getQuote(quoteRequest({ fiatAmount: '5000' })), ProviderRejectedError);
    expect(high).toMatchObject({ code: 'limits', details: { minAmount: '15', maxAmount: '3000' } });
  });

  test('a network Alchemy Pay has no code for, a method it does not take, an asset it does not sell: refusals', async () => {
    const avalanche = await rejectionOf(
      harness.adapter.getQuote(quoteRequest({ crypto: crypto('USDT', 'avalanche') })),
      ProviderRejectedError,
    );
    expect(avalanche.code).toBe('currency');
    const sepa = await rejectionOf(harness.adapter.getQuote(quoteRequest({ paymentMethod: 'sepa' })), ProviderRejectedError);
    expect(sepa.code).toBe('payment_method');
    // MATIC is a network code Alchemy Pay has, but the simulated account does not sell USDT on it.
    const polygon = await rejectionOf(harness.adapter.getQuote(quoteRequest({ crypto: crypto('USDT', 'polygon') })), ProviderRejectedError);
    expect(polygon.code).toBe('rejected');
  });
});

describe('orders', () => {
  test('createOrder gives a signed ramp URL carrying our order id; no order at Alchemy Pay until the customer opens it', async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    expect(order).toMatchObject({ orderId: request.orderId, status: 'created', providerStatus: 'noOrderYet' });
    expect(order.redirectUrl.startsWith(`${harness.urls.simulatorUrl}/alchemypay/ramp?`)).toBe(true);
    const params = new URL(order.redirectUrl).searchParams;
    expect(params.get('merchantOrderNo')).toBe(request.orderId);
    expect(params.get('callbackUrl')).toBe(harness.urls.webhookUrl);
    expect(params.get('appId')).toBe(harness.config.appId);
    expect(params.get('sign')).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ status: 'created', providerStatus: 'noOrderYet' });

    const page = await fetch(order.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Alchemy Pay (simulator)');
    // The same page opened again is the same order.
    expect((await fetch(order.redirectUrl)).status).toBe(200);
    expect([...harness.simulator.orders.values()].filter((o) => o.merchantOrderNo === request.orderId)).toHaveLength(1);
    const pending = await harness.adapter.getOrder(request.orderId);
    expect(pending).toMatchObject({ orderId: request.orderId, status: 'pending', providerStatus: 'PENDING' });
    expect(pending.providerOrderId).toMatch(/^\d+$/);
    // A repeated create finds the order the customer placed.
    expect(await harness.adapter.createOrder(request)).toMatchObject({ status: 'pending', providerOrderId: pending.providerOrderId });
  });

  test('a customer redirect URL rides along as redirectUrl, signed with the rest', async () => {
    const order = await harness.adapter.createOrder(orderRequest({ extras: { redirect_url: 'https://shop.example/done' } }));
    expect(new URL(order.redirectUrl).searchParams.get('redirectUrl')).toBe('https://shop.example/done');
    expect((await fetch(order.redirectUrl)).status).toBe(200);
  });

  test('pay: PAY_SUCCESS and FINISHED by webhook, TRANSFER only by polling; then complete with the hash', async () => {
    const { request, order } = await openedOrder();
    const paid = await checkout(order.redirectUrl, 'pay');
    expect(paid.status).toBe(200);
    expect(await statusesFor(request.orderId, 2)).toEqual(['PAY_SUCCESS:processing', 'FINISHED:complete']);
    const snapshot = await harness.adapter.getOrder(request.orderId);
    expect(snapshot).toMatchObject({ orderId: request.orderId, status: 'complete', providerStatus: 'FINISHED' });
    expect(snapshot.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Number(snapshot.cryptoAmount)).toBeGreaterThan(0);
    const events = await harness.eventsFor(request.orderId);
    expect(events[1]).toMatchObject({ transactionHash: snapshot.transactionHash, cryptoAmount: snapshot.cryptoAmount });
    expect(new Set(events.map((e) => e.eventId)).size).toBe(2);

    const refused = await checkout(order.redirectUrl, 'refund');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'action_not_allowed', allowed: [] });
  });

  test('hold: RISK_CONTROL is seen by polling only; pay goes on from there', async () => {
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'hold');
    expect(await polledUntil(request.orderId, 'hold')).toMatchObject({ providerStatus: 'RISK_CONTROL' });
    expect(await harness.eventsFor(request.orderId)).toEqual([]);
    await checkout(order.redirectUrl, 'pay');
    expect(await statusesFor(request.orderId, 2)).toEqual(['PAY_SUCCESS:processing', 'FINISHED:complete']);
  });

  test('fail: PAY_FAIL by webhook, failed with payment_failed', async () => {
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'fail');
    const [event] = await harness.waitForEvents(request.orderId, 1);
    expect(event).toMatchObject({ providerStatus: 'PAY_FAIL', status: 'failed', failureReason: 'payment_failed' });
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ status: 'failed', failureReason: 'payment_failed' });
  });

  test('retry: INTERIM_PAY_FAIL keeps the order pending, and it can still be paid', async () => {
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'retry');
    expect(await polledUntil(request.orderId, 'pending')).toMatchObject({ providerStatus: 'INTERIM_PAY_FAIL' });
    await checkout(order.redirectUrl, 'pay');
    expect(await statusesFor(request.orderId, 2)).toEqual(['PAY_SUCCESS:processing', 'FINISHED:complete']);
  });

  test('expire, refund and a refused address end as expired, refunded and failed, by polling alone', async () => {
    const expired = await openedOrder();
    await checkout(expired.order.redirectUrl, 'expire');
    const refunded = await openedOrder();
    await checkout(refunded.order.redirectUrl, 'hold');
    await checkout(refunded.order.redirectUrl, 'refund');
    const rejected = await openedOrder();
    await checkout(rejected.order.redirectUrl, 'reject_address');

    expect(await polledUntil(expired.request.orderId, 'expired')).toMatchObject({ providerStatus: 'CANCEL' });
    expect(await polledUntil(refunded.request.orderId, 'refunded')).toMatchObject({ providerStatus: 'REFUNDED' });
    expect(await polledUntil(rejected.request.orderId, 'failed')).toMatchObject({
      providerStatus: 'INVALID_ADDRESS',
      failureReason: 'invalid_address',
    });
    for (const { request } of [expired, refunded, rejected]) expect(await harness.eventsFor(request.orderId)).toEqual([]);
    expect((await checkout(expired.order.redirectUrl, 'pay')).status).toBe(409);
  });
});

describe('reported terms', () => {
  test("without the paid-terms switches, the webhooks and the lookup report the order's own terms", async () => {
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'pay');
    const ordered = {
      walletAddress: request.walletAddress,
      cryptoCurrency: request.crypto.id,
      fiatCurrency: request.fiat.id,
      fiatAmount: '150',
    };
    for (const event of await harness.waitForEvents(request.orderId, 2)) expect(event.reported).toEqual(ordered);
    expect((await harness.adapter.getOrder(request.orderId)).reported).toEqual(ordered);
  });

  test('after the switches, what was really paid: amount, currency and wallet', async () => {
    const { request, order } = await openedOrder();
    Object.assign(harness.simulator.faults, {
      paidFiatAmount: '175.50',
      paidFiatCurrency: 'EUR',
      paidWalletAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    await checkout(order.redirectUrl, 'pay');
    const paid = {
      walletAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      cryptoCurrency: request.crypto.id,
      fiatCurrency: fiat('EUR').id,
      fiatAmount: '175.5',
    };
    for (const event of await harness.waitForEvents(request.orderId, 2)) expect(event.reported).toEqual(paid);
    expect((await harness.adapter.getOrder(request.orderId)).reported).toEqual(paid);
  });
});

describe('webhooks', () => {
  /** The PAY_FAIL webhook of a fresh order, as the receiver got it. */
  async function genuineWebhook(): Promise<{ orderId: string; webhook: IncomingWebhook; fields: Record<string, unknown> }> {
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'fail');
    await harness.waitForEvents(request.orderId, 1);
    const [webhook] = webhooksOf(request.orderId);
    const fields = JSON.parse(webhook!.rawBody.toString('utf8')) as Record<string, unknown>;
    return { orderId: request.orderId, webhook: webhook!, fields };
  }

  test('a genuine webhook verifies again as it came, and once more re-signed with the app secret', async () => {
    const { orderId, webhook, fields } = await genuineWebhook();
    await expect(harness.adapter.parseWebhook(webhook)).resolves.toMatchObject({ orderId, providerStatus: 'PAY_FAIL' });
    const { newSignature: _, ...unsigned } = fields;
    await expect(harness.adapter.parseWebhook(signedWebhook(harness.config.appSecret, unsigned))).resolves.toMatchObject({
      orderId,
      status: 'failed',
    });
  });

  test('a changed field, a moved timestamp, a stale one or another secret: refused', async () => {
    const { webhook, fields } = await genuineWebhook();
    const tampered = { ...webhook, rawBody: Buffer.from(webhook.rawBody.toString('utf8').replace('"PAY_FAIL"', '"FINISHED"')) };
    await expect(harness.adapter.parseWebhook(tampered)).rejects.toBeInstanceOf(WebhookVerificationError);
    // A field the signature does not cover cannot be added either: every non-empty field is signed.
    const added = { ...webhook, rawBody: Buffer.from(JSON.stringify({ ...fields, txHash: `0x${'ab'.repeat(32)}` })) };
    await expect(harness.adapter.parseWebhook(added)).rejects.toBeInstanceOf(WebhookVerificationError);
    const moved = { ...webhook, headers: { timestamp: String(Number(webhook.headers.timestamp) + 1) } };
    await expect(harness.adapter.parseWebhook(moved)).rejects.toBeInstanceOf(WebhookVerificationError);
    const noTimestamp = { ...webhook, headers: {} };
    await expect(harness.adapter.parseWebhook(noTimestamp)).rejects.toBeInstanceOf(WebhookVerificationError);

    const { newSignature: _, ...unsigned } = fields;
    const stale = signedWebhook(harness.config.appSecret, unsigned, String(Date.now() - 10 * 60_000));
    await expect(harness.adapter.parseWebhook(stale)).rejects.toBeInstanceOf(WebhookVerificationError);
    const forged = signedWebhook('guessed-app-secret', { ...unsigned, status: 'FINISHED' });
    await expect(harness.adapter.parseWebhook(forged)).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  test('a genuinely signed webhook with a status Alchemy Pay does not document is refused', async () => {
    const { fields } = await genuineWebhook();
    const { newSignature: _, ...unsigned } = fields;
    await expect(
      harness.adapter.parseWebhook(signedWebhook(harness.config.appSecret, { ...unsigned, status: 'SURPRISE' })),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});

describe('authentication', () => {
  test('a wrong app id or app secret makes every API call unavailable (configuration), not a refusal', async () => {
    const wrongSecret = createAlchemypayAdapter({ ...harness.config, appSecret: 'wrong-secret' }, currencyDictionary);
    await expect(wrongSecret.getCatalogue()).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(wrongSecret.getQuote(quoteRequest())).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(wrongSecret.getOrder(randomUUID())).rejects.toBeInstanceOf(ProviderUnavailableError);
    const wrongApp = createAlchemypayAdapter({ ...harness.config, appId: 'someone-else' }, currencyDictionary);
    await expect(wrongApp.getQuote(quoteRequest())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  test('a tampered, unsigned or otherwise signed ramp URL is refused and places no order', async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    const tampered = order.redirectUrl.replace('fiatAmount=150.00', 'fiatAmount=15.00');
    expect(tampered).not.toBe(order.redirectUrl);
    expect((await fetch(tampered)).status).toBe(400);
    const unsigned = new URL(order.redirectUrl);
    unsigned.searchParams.delete('sign');
    expect((await fetch(unsigned)).status).toBe(400);
    const params = Object.fromEntries(unsigned.searchParams);
    const otherSecret = await fetch(signedRampUrl(harness.config.rampUrl, 'other-secret', params));
    expect(otherSecret.status).toBe(400);
    expect(await otherSecret.json()).toMatchObject({ success: false, returnCode: '10003' });
    expect((await checkout(tampered, 'pay')).status).toBe(400);
    expect([...harness.simulator.orders.values()].filter((o) => o.merchantOrderNo === request.orderId)).toHaveLength(0);
  });
});

describe('faults', () => {
  test('errorRate makes the API answer 503: ProviderUnavailableError', async () => {
    await fetch(`${harness.urls.simulatorUrl}/alchemypay/_simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errorRate: 1 }),
    });
    await expect(harness.adapter.getCatalogue()).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(harness.adapter.getQuote(quoteRequest())).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(harness.adapter.getOrder(randomUUID())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  test("the caller's AbortSignal ends a slow catalogue or quote", async () => {
    harness.simulator.faults.latencyMs = 2000;
    const started = Date.now();
    await expect(harness.adapter.getQuote(quoteRequest(), AbortSignal.timeout(100))).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(harness.adapter.getCatalogue(AbortSignal.timeout(100))).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  test('dropWebhooks: none arrive, the lookup by our order id still follows the order to complete', async () => {
    harness.simulator.faults.dropWebhooks = true;
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'pay');
    expect(await polledUntil(request.orderId, 'complete')).toMatchObject({ providerStatus: 'FINISHED' });
    await harness.simulator.webhooks.drain();
    expect(await harness.eventsFor(request.orderId)).toEqual([]);
  });

  test('duplicateWebhooks: each webhook twice, with one event id', async () => {
    harness.simulator.faults.duplicateWebhooks = true;
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'fail');
    const events = await harness.waitForEvents(request.orderId, 2);
    expect(events.map((e) => e.providerStatus)).toEqual(['PAY_FAIL', 'PAY_FAIL']);
    expect(events[0]!.eventId).toBe(events[1]!.eventId);
  });
});
