/**
 * The Ramp adapter against its simulator over real HTTP on 127.0.0.1 (no Temporal): a small receiver
 * plays the broker's webhook endpoint, and every webhook goes through adapter.parseWebhook.
 */
import { rampWebhookQuery } from '../../../src/providers/ramp/webhook-url';
import { generateKeyPairSync, sign } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../src/domain/currency';
import { createRampAdapter, rampConfig, RAMP_SIMULATOR_CREDENTIALS } from '../../../src/providers/ramp';
import { ProviderRejectedError, ProviderUnavailableError, type CreateProviderOrderRequest } from '../../../src/providers/types';
import { createRampSimulator } from '../../../src/simulators/ramp/server';
import { eventually } from '../../helpers/http';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { currencyOf as currency } from '../../helpers/currencies';

const EUR = currency('EUR') as FiatCurrency;
const GBP = currency('GBP') as FiatCurrency;
const ETH = currency('ETH', 'ethereum') as CryptoCurrency;
const BTC = currency('BTC', 'bitcoin') as CryptoCurrency;
const WALLET = '0xe2e0256d6785d49ec7badcd1d44adbd2dc3fd8b6';

const harness = useProviderHarness({
  code: 'ramp',
  config: (urls) => rampConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: urls.brokerUrl }),
  // Posts there are strays: the simulator must use each purchase's webhookStatusUrl, not a fixed URL.
  simulator: (urls) =>
    createRampSimulator({
      publicUrl: urls.publicUrl,
      brokerWebhookUrl: `${urls.brokerUrl}/fixed-webhook-url`,
      credentials: RAMP_SIMULATOR_CREDENTIALS,
      stepDelayMs: 25,
    }),
  adapter: (config) => createRampAdapter(config, currencyDictionary),
  // Ramp echoes no partner reference: each purchase posts to the broker's URL with ?order_id=.
  orderOf: (webhook) => webhook.query.order_id,
});

let orderCount = 0;
function orderRequest(overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest {
  orderCount += 1;
  return {
    orderId: `00000000-0000-4000-8000-${String(orderCount).padStart(12, '0')}`,
    fiat: EUR,
    crypto: ETH,
    fiatAmount: '150.00',
    walletAddress: WALLET,
    paymentMethod: 'card',
    country: 'DE',
    externalUserId: 'user-1',
    extras: {},
    ...overrides,
  };
}

/** Creates the order and opens the widget: Ramp's purchase exists from there. */
async function openedOrder(overrides: Partial<CreateProviderOrderRequest> = {}) {
  const request = orderRequest(overrides);
  const order = await harness.adapter.createOrder(request);
  const page = await fetch(order.redirectUrl);
  expect(page.status).toBe(200);
  const [created] = await harness.waitForEvents(request.orderId, 1);
  return { request, order, created: created! };
}

describe('catalogue', () => {
  it('maps Ramp assets, currencies, countries and methods to the broker', async () => {
    const catalogue = await harness.adapter.getCatalogue();
    expect(catalogue.fiat).toEqual(expect.arrayContaining([currency('USD').id, EUR.id, GBP.id, currency('BRL').id]));
    expect(catalogue.crypto).toEqual(
      expect.arrayContaining([
        ETH.id,
        BTC.id,
        currency('USDC', 'ethereum').id,
        currency('USDT', 'tron').id,
        currency('POL', 'polygon').id,
        currency('SOL', 'solana').id,
      ]),
    );
    // GLMR on Moonbeam has no broker ID.
    expect(catalogue.crypto).toHaveLength(16);
    const us = catalogue.countries.find((c) => c.code === 'US');
    expect(us?.states).toContain('CA');
    expect(us?.states).not.toContain('NY');
    expect(catalogue.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['GB', 'DE']));
    const methods = Object.fromEntries(catalogue.paymentMethods.map((m) => [m.code, m]));
    expect(Object.keys(methods).sort()).toEqual(['apple_pay', 'bank_transfer', 'card', 'google_pay', 'pix', 'sepa']);
    expect(methods.card!.limits[EUR.id]).toEqual({ min: '13.80', max: '11040.00' });
    expect(Object.keys(methods.sepa!.limits)).toEqual([String(EUR.id)]);
    expect(Object.keys(methods.bank_transfer!.limits)).toEqual([String(GBP.id)]);
    expect(methods.card!.fee).toBe('2.49%');
  });

  it('honours the caller’s abort signal', async () => {
    await expect(harness.adapter.getCatalogue(AbortSignal.abort())).rejects.toThrow(ProviderUnavailableError);
  });
});

describe('quotes', () => {
  const base = { fiat: EUR, crypto: ETH, fiatAmount: '100.00', paymentMethod: 'card', country: 'DE', externalUserId: 'user-1' };

  it('prices a card purchase in decimal strings with fees in the fiat currency', async () => {
    const quote = await harness.adapter.getQuote(base);
    expect(quote).toEqual({
      fiatAmount: '100.00',
      cryptoAmount: expect.stringMatching(/^0\.0\d+$/),
      processingFee: '2.49',
      networkFee: '0.69',
      paymentMethod: 'card',
    });
  });

  it('prices a bank transfer in pounds cheaper than a card', async () => {
    const bank = await harness.adapter.getQuote({ ...base, fiat: GBP, paymentMethod: 'bank_transfer', country: 'GB' });
    const card = await harness.adapter.getQuote({ ...base, fiat: GBP, country: 'GB' });
    expect(Number(bank.processingFee)).toBeLessThan(Number(card.processingFee));
  });

  it('refuses amounts out of limits with the limits, including an asset’s own minimum', async () => {
    await expect(harness.adapter.getQuote({ ...base, fiatAmount: '5.00' })).rejects.toMatchObject({
      code: 'limits',
      details: { minAmount: '13.80', maxAmount: '11040.00' },
    });
    await expect(harness.adapter.getQuote({ ...base, crypto: BTC, fiatAmount: '20.00' })).rejects.toMatchObject({
      code: 'limits',
      details: { minAmount: '27.60' },
    });
  });

  it('refuses a method, a pair or an asset Ramp does not offer', async () => {
    await expect(harness.adapter.getQuote({ ...base, paymentMethod: 'ach' })).rejects.toMatchObject({ code: 'payment_method' });
    await expect(harness.adapter.getQuote({ ...base, paymentMethod: 'pix' })).rejects.toMatchObject({ code: 'payment_method' });
    await expect(harness.adapter.getQuote({ ...base, crypto: currency('XLM', 'stellar') as CryptoCurrency })).rejects.toMatchObject({
      code: 'currency',
    });
  });
});

describe('orders', () => {
  it('creates one widget URL per order: calling twice gives one purchase', async () => {
    const request = orderRequest();
    const first = await harness.adapter.createOrder(request);
    const second = await harness.adapter.createOrder(request);
    expect(second.redirectUrl).toBe(first.redirectUrl);
    expect(first).toMatchObject({ orderId: request.orderId, status: 'created', providerStatus: 'NO_PURCHASE_YET' });
    const url = new URL(first.redirectUrl);
    const statusUrl = new URL(url.searchParams.get('webhookStatusUrl')!);
    expect(`${statusUrl.origin}${statusUrl.pathname}`).toBe(`${harness.config.brokerPublicUrl}/api/webhooks/ramp`);
    expect(Object.fromEntries(statusUrl.searchParams)).toEqual(rampWebhookQuery(harness.config.webhookUrlSecret, request.orderId));
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ status: 'created' });

    const before = harness.simulator.purchaseList().length;
    const page = await fetch(first.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Ramp Network');
    await fetch(second.redirectUrl);
    expect(harness.simulator.purchaseList().length).toBe(before + 1);
  });

  it('pay: every status change reaches the order’s own webhook URL, signed, and the order completes', async () => {
    const { request, order, created } = await openedOrder();
    expect(created).toMatchObject({ providerStatus: 'INITIALIZED', status: 'pending', providerOrderId: expect.stringContaining(':') });

    const answer = await checkout(order.redirectUrl, 'pay');
    expect(answer).toMatchObject({ status: 200, body: { status: 'PAYMENT_STARTED' } });
    const events = await harness.waitForEvents(request.orderId, 6);
    expect(events.map((e) => e.providerStatus)).toEqual([
      'INITIALIZED',
      'PAYMENT_STARTED',
      'PAYMENT_IN_PROGRESS',
      'PAYMENT_EXECUTED',
      'RELEASING',
      'RELEASED',
    ]);
    expect(events.map((e) => e.status)).toEqual(['pending', 'pending', 'pending', 'processing', 'processing', 'complete']);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(6);
    expect(harness.strays).toEqual([]);
    const last = events.at(-1)!;
    expect(last.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Number(last.cryptoAmount)).toBeGreaterThan(0);

    const snapshot = await harness.adapter.getOrder(request.orderId, created.providerOrderId);
    expect(snapshot).toMatchObject({
      orderId: request.orderId,
      status: 'complete',
      providerStatus: 'RELEASED',
      transactionHash: last.transactionHash,
    });
    expect(await checkout(order.redirectUrl, 'expire')).toMatchObject({
      status: 409,
      body: { error: { code: 'invalid_action', allowed: [] } },
    });
  });

  it('hold stops at PAYMENT_IN_PROGRESS; pay from there goes on to RELEASED', async () => {
    const { request, order } = await openedOrder({ fiat: GBP, paymentMethod: 'bank_transfer', country: 'GB' });
    await checkout(order.redirectUrl, 'hold');
    await harness.waitForEvents(request.orderId, 3);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await harness.eventsFor(request.orderId)).map((e) => e.providerStatus)).toEqual([
      'INITIALIZED',
      'PAYMENT_STARTED',
      'PAYMENT_IN_PROGRESS',
    ]);
    await checkout(order.redirectUrl, 'pay');
    const events = await harness.waitForEvents(request.orderId, 6);
    expect(events.slice(3).map((e) => e.status)).toEqual(['processing', 'processing', 'complete']);
  });

  it('fail: the payment fails and the purchase is cancelled', async () => {
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'fail');
    const events = await harness.waitForEvents(request.orderId, 4);
    expect(events.map((e) => e.providerStatus)).toEqual(['INITIALIZED', 'PAYMENT_STARTED', 'PAYMENT_FAILED', 'CANCELLED']);
    expect(events.at(-1)).toMatchObject({ status: 'failed', failureReason: 'cancelled_at_provider' });
  });

  it('expire: an unpaid purchase expires', async () => {
    const { request, order } = await openedOrder();
    await checkout(order.redirectUrl, 'expire');
    const events = await harness.waitForEvents(request.orderId, 2);
    expect(events.at(-1)).toMatchObject({ providerStatus: 'EXPIRED', status: 'expired' });
  });

  it('refund: a held payment is returned', async () => {
    const { request, order, created } = await openedOrder();
    await checkout(order.redirectUrl, 'hold');
    await harness.waitForEvents(request.orderId, 3);
    await checkout(order.redirectUrl, 'refund');
    const events = await harness.waitForEvents(request.orderId, 4);
    expect(events.at(-1)).toMatchObject({ providerStatus: 'RETURNED', status: 'refunded' });
    expect(await harness.adapter.getOrder(request.orderId, created.providerOrderId)).toMatchObject({ status: 'refunded' });
  });
});

describe('authentication', () => {
  it('refuses a wrong host API key', async () => {
    const wrong = createRampAdapter({ ...harness.config, hostApiKey: 'not-the-key' }, currencyDictionary);
    await expect(wrong.getCatalogue()).rejects.toThrow(ProviderUnavailableError);
    const quote = await fetch(`${harness.config.apiUrl}/host-api/v3/onramp/quote/all`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cryptoAssetSymbol: 'ETH_ETH', fiatCurrency: 'EUR', fiatValue: 100 }),
    });
    expect(quote.status).toBe(401);
    expect(await quote.json()).toMatchObject({ code: 'SERVICES.HOST_API.INVALID_HOST_API_KEY' });
    const widget = await fetch(
      `${harness.config.widgetUrl}?hostApiKey=nope&swapAsset=ETH_ETH&fiatCurrency=EUR&fiatValue=100&userAddress=${WALLET}`,
    );
    expect(widget.status).toBe(401);
  });

  it('refuses a purchase read with the wrong view token', async () => {
    const { request, created } = await openedOrder();
    const purchaseId = created.providerOrderId!.split(':')[0]!;
    await expect(harness.adapter.getOrder(request.orderId, `${purchaseId}:wrong-token`)).rejects.toBeInstanceOf(ProviderRejectedError);
  });

  it('the adapter refuses forged and tampered webhooks', async () => {
    const { request } = await openedOrder();
    const genuine = harness.webhooks.find((w) => w.query.order_id === request.orderId)!;
    const body = JSON.parse(genuine.rawBody.toString());
    body.purchase.status = 'RELEASED';
    await expect(harness.adapter.parseWebhook({ ...genuine, rawBody: Buffer.from(JSON.stringify(body)) })).rejects.toThrow(
      'signature does not match',
    );
    const forger = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    const forged = {
      ...genuine,
      rawBody: Buffer.from(JSON.stringify(body)),
      headers: { 'x-body-signature': sign('sha256', Buffer.from(stableStringify(body)), forger.privateKey).toString('base64') },
    };
    await expect(harness.adapter.parseWebhook(forged)).rejects.toThrow('signature does not match');
  });
});

describe('faults', () => {
  it('an outage surfaces as ProviderUnavailableError', async () => {
    harness.simulator.faults.errorRate = 1;
    await expect(
      harness.adapter.getQuote({ fiat: EUR, crypto: ETH, fiatAmount: '100.00', paymentMethod: 'card', country: 'DE', externalUserId: 'u' }),
    ).rejects.toThrow(ProviderUnavailableError);
  });

  it('with webhooks dropped after the first, getOrder still follows the purchase to RELEASED', async () => {
    const { request, order, created } = await openedOrder();
    harness.simulator.faults.dropWebhooks = true;
    await checkout(order.redirectUrl, 'pay');
    const snapshot = await eventually(async () => {
      const s = await harness.adapter.getOrder(request.orderId, created.providerOrderId);
      return s.status === 'complete' ? s : undefined;
    }, 'the purchase to be released');
    expect(snapshot.providerStatus).toBe('RELEASED');
    expect(await harness.eventsFor(request.orderId)).toHaveLength(1);
  });
});

describe('reported terms', () => {
  const PAID_WALLET = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';

  it("without the paid-terms switches, every webhook and the status answer report the order's own terms and the purchase id", async () => {
    const { request, order, created } = await openedOrder();
    await checkout(order.redirectUrl, 'pay');
    const events = await harness.waitForEvents(request.orderId, 6);
    const ordered = { walletAddress: WALLET, cryptoCurrency: ETH.id, fiatCurrency: EUR.id, fiatAmount: '150' };
    for (const event of events)
      expect(event).toMatchObject({ orderId: request.orderId, providerOrderId: created.providerOrderId, reported: ordered });
    expect(await harness.adapter.getOrder(request.orderId, created.providerOrderId)).toMatchObject({
      providerOrderId: created.providerOrderId,
      reported: ordered,
    });
  });

  it('with the switches on, the webhooks from payment on and the status answer report what was paid', async () => {
    const faults = await fetch(`${harness.urls.simulatorUrl}/ramp/_simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paidFiatAmount: '175.25', paidFiatCurrency: 'GBP', paidWalletAddress: PAID_WALLET }),
    });
    expect(faults.status).toBe(200);
    const { request, order, created } = await openedOrder();
    expect(created.reported).toEqual({ walletAddress: WALLET, cryptoCurrency: ETH.id, fiatCurrency: EUR.id, fiatAmount: '150' });
    await checkout(order.redirectUrl, 'pay');
    const events = await harness.waitForEvents(request.orderId, 6);
    const paid = { walletAddress: PAID_WALLET, cryptoCurrency: ETH.id, fiatCurrency: GBP.id, fiatAmount: '175.25' };
    for (const event of events.slice(1)) expect(event).toMatchObject({ providerOrderId: created.providerOrderId, reported: paid });
    expect((await harness.adapter.getOrder(request.orderId, created.providerOrderId)).reported).toEqual(paid);
  });
});
