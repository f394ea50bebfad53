/**
 * The Revolut Ramp adapter in simulator mode against the Revolut simulator over real HTTP on
 * 127.0.0.1, with a small HTTP receiver playing the broker's webhook endpoint. No Temporal.
 */
import { randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../src/domain/currency';
import { createRevolutAdapter, revolutConfig, RevolutEnvSchema } from '../../../src/providers/revolut';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  WebhookVerificationError,
  type CreateProviderOrderRequest,
} from '../../../src/providers/types';
import { createRevolutSimulator } from '../../../src/simulators/revolut/server';
import { revolutWebhookHeaders } from '../../../src/simulators/revolut/signing';
import { currencyId as idOf } from '../../helpers/currencies';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { rejectionOf } from '../../helpers/rejection';

jest.setTimeout(20_000);

const GBP = currencyDictionary.fiat(idOf('GBP')) as FiatCurrency;
const BTC = currencyDictionary.crypto(idOf('BTC', 'bitcoin')) as CryptoCurrency;
const USDC_BASE = currencyDictionary.crypto(idOf('USDC', 'base')) as CryptoCurrency;
const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

const harness = useProviderHarness({
  code: 'revolut',
  config: (urls) => revolutConfig(RevolutEnvSchema.parse({}), { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: urls.brokerUrl }),
  simulator: (urls, config) =>
    createRevolutSimulator({
      publicUrl: urls.publicUrl,
      brokerWebhookUrl: urls.webhookUrl,
      credentials: { apiKey: config.apiKey, webhookSecret: config.webhookSecret },
      stepDelayMs: 40,
    }),
  adapter: (config) => createRevolutAdapter(config, currencyDictionary),
});

function orderRequest(overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest {
  return {
    orderId: randomUUID(),
    fiat: GBP,
    crypto: BTC,
    fiatAmount: '100.00',
    walletAddress: WALLET,
    paymentMethod: 'card',
    country: 'GB',
    externalUserId: 'user-42',
    extras: { return_url: 'https://integrator.example/done' },
    ...overrides,
  };
}

describe('catalogue', () => {
  test('maps the configuration to broker ids: assets, fiat with limits, countries, payment options', async () => {
    const catalogue = await harness.adapter.getCatalogue();
    expect(catalogue.crypto).toEqual(expect.arrayContaining([idOf('BTC', 'bitcoin'), idOf('USDT', 'ethereum'), idOf('USDC', 'base')]));
    expect(catalogue.crypto).toHaveLength(17); // every simulated asset but the one on Flare, which the broker lacks
    expect(catalogue.fiat).toEqual(expect.arrayContaining([idOf('GBP'), idOf('EUR'), idOf('USD')]));
    expect(catalogue.countries).toEqual(expect.arrayContaining([{ code: 'GB' }, { code: 'US' }, { code: 'DE' }]));
    expect(catalogue.paymentMethods.map((m) => m.code).sort()).toEqual(['apple_pay', 'card', 'google_pay', 'revolut_pay']);
    expect(catalogue.paymentMethods[0]!.limits[idOf('GBP')]).toEqual({ min: '11.85', max: '7110' });
  });
});

describe('quotes', () => {
  const quoteRequest = { fiat: GBP, crypto: BTC, paymentMethod: 'card', country: 'GB', externalUserId: 'user-42' };

  test('a quote in decimal strings, fees in fiat', async () => {
    const quote = await harness.adapter.getQuote({ ...quoteRequest, fiatAmount: '100.00' });
    expect(quote).toMatchObject({ fiatAmount: '100.00', paymentMethod: 'card', processingFee: '1.49', networkFee: '0.76' });
    expect(quote.cryptoAmount).toMatch(/^0\.\d{1,8}$/);
  });

  test('Revolut Pay is cheaper than the card', async () => {
    const card = await harness.adapter.getQuote({ ...quoteRequest, fiatAmount: '200' });
    const revolut = await harness.adapter.getQuote({ ...quoteRequest, paymentMethod: 'revolut_pay', fiatAmount: '200' });
    expect(Number(revolut.processingFee)).toBeLessThan(Number(card.processingFee));
  });

  test('refusals from the configuration: limits, country, asset, method', async () => {
    const limits = await rejectionOf(harness.adapter.getQuote({ ...quoteRequest, fiatAmount: '5' }), ProviderRejectedError);
    expect(limits).toMatchObject({ code: 'limits', details: { minAmount: '11.85', maxAmount: '7110.00' } });
    await expect(harness.adapter.getQuote({ ...quoteRequest, country: 'BR', fiatAmount: '100' })).rejects.toMatchObject({
      code: 'country',
    });
    const dai = currencyDictionary.crypto(idOf('DAI', 'ethereum')) as CryptoCurrency;
    await expect(harness.adapter.getQuote({ ...quoteRequest, crypto: dai, fiatAmount: '100' })).rejects.toMatchObject({ code: 'currency' });
    await expect(harness.adapter.getQuote({ ...quoteRequest, paymentMethod: 'sepa', fiatAmount: '100' })).rejects.toMatchObject({
      code: 'payment_method',
    });
  });

  test('an outage is ProviderUnavailableError', async () => {
    await harness.adapter.getCatalogue(); // the configuration is cached
    harness.simulator.faults.errorRate = 1;
    await expect(harness.adapter.getQuote({ ...quoteRequest, fiatAmount: '100' })).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});

describe('orders', () => {
  test('a redirect URL, then the customer pays: every status by webhook and by lookup, with the terms', async () => {
    const request = orderRequest();
    const created = await harness.adapter.createOrder(request);
    expect(created).toMatchObject({
      orderId: request.orderId,
      providerOrderId: `${request.orderId}:${WALLET}`,
      providerStatus: 'NO_ORDER_YET',
      status: 'created',
    });
    const url = new URL(created.redirectUrl);
    expect(url.origin + url.pathname).toBe(`${harness.urls.publicUrl}/widget`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      fiatCurrency: 'GBP',
      amount: '10000',
      cryptoCurrency: 'BTC',
      walletAddress: WALLET,
      externalOrderId: request.orderId,
      partnerRedirectUrl: 'https://integrator.example/done',
    });
    await expect(harness.adapter.getOrder(request.orderId, created.providerOrderId)).resolves.toMatchObject({ status: 'created' });

    const page = await fetch(created.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-action="pay"');
    expect((await checkout(created.redirectUrl, 'pay')).status).toBe(200);

    // Revolut retries a delivery the broker was slow to acknowledge (a loaded machine): the same event, once.
    const distinct = <T extends { eventId?: string }>(all: T[]) =>
      all.filter((e, i) => all.findIndex((f) => f.eventId === e.eventId) === i);
    const events = distinct(await harness.waitForEvents(request.orderId, (all) => distinct(all).length >= 3));
    expect(events.map((e) => e.providerStatus)).toEqual(['ORDER_CREATED', 'ORDER_PROCESSING', 'ORDER_COMPLETED']);
    expect(events.map((e) => e.status)).toEqual(['pending', 'processing', 'complete']);
    const terms = { walletAddress: WALLET, cryptoCurrency: BTC.id, fiatCurrency: GBP.id, fiatAmount: '100' };
    expect(events.every((e) => e.providerOrderId === created.providerOrderId)).toBe(true);
    expect(events[2]).toMatchObject({ reported: terms, transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    await expect(harness.adapter.getOrder(request.orderId, created.providerOrderId)).resolves.toMatchObject({
      orderId: request.orderId,
      providerStatus: 'COMPLETED',
      status: 'complete',
      reported: terms,
    });
    // A repeated create finds the order the customer started.
    await expect(harness.adapter.createOrder(request)).resolves.toMatchObject({ status: 'complete' });
    expect((await checkout(created.redirectUrl, 'pay')).status).toBe(409);
  });

  test('fail and expire', async () => {
    const failed = await harness.adapter.createOrder(orderRequest());
    await checkout(failed.redirectUrl, 'fail');
    const [, fail] = await harness.waitForEvents(failed.orderId, 2);
    expect(fail).toMatchObject({ providerStatus: 'ORDER_FAILED', status: 'failed', failureReason: 'payment_declined' });

    const expired = await harness.adapter.createOrder(orderRequest());
    await checkout(expired.redirectUrl, 'expire');
    const [, expiry] = await harness.waitForEvents(expired.orderId, 2);
    expect(expiry).toMatchObject({ status: 'expired' });
    await expect(harness.adapter.getOrder(expired.orderId, expired.providerOrderId)).resolves.toMatchObject({
      providerStatus: 'FAILED:PAYMENT_NOT_RECEIVED',
      status: 'expired',
    });
    expect((await checkout(expired.redirectUrl, 'refund')).status).toBe(409);
  });

  test('a token on another chain, and other paid terms reported as paid', async () => {
    Object.assign(harness.simulator.faults, { paidFiatAmount: '10.00', paidFiatCurrency: 'EUR' });
    const request = orderRequest({ crypto: USDC_BASE, walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7' });
    const order = await harness.adapter.createOrder(request);
    expect(new URL(order.redirectUrl).searchParams.get('cryptoCurrency')).toBe('USDC-BASE');
    await checkout(order.redirectUrl, 'pay');
    const events = await harness.waitForEvents(order.orderId, 3);
    expect(events[2]!.reported).toEqual({
      walletAddress: request.walletAddress,
      cryptoCurrency: USDC_BASE.id,
      fiatCurrency: idOf('EUR'),
      fiatAmount: '10',
    });
  });

  test('without the order key there is nothing to look up', async () => {
    await expect(harness.adapter.getOrder(randomUUID())).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('webhooks', () => {
  test('a webhook signed with another secret, or too old, is refused', async () => {
    const body = JSON.stringify({ order_id: randomUUID(), wallet: WALLET, event: 'ORDER_COMPLETED' });
    const forged = { headers: revolutWebhookHeaders('wsk_guess', body, Date.now()), rawBody: Buffer.from(body), query: {} };
    await expect(harness.adapter.parseWebhook(forged)).rejects.toBeInstanceOf(WebhookVerificationError);
    const old = {
      headers: revolutWebhookHeaders(harness.config.webhookSecret, body, Date.now() - 6 * 60_000),
      rawBody: Buffer.from(body),
      query: {},
    };
    await expect(harness.adapter.parseWebhook(old)).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  test('a genuine event about an order Revolut does not show is not_found', async () => {
    const body = JSON.stringify({ order_id: randomUUID(), wallet: WALLET, event: 'ORDER_COMPLETED' });
    const webhook = {
      headers: revolutWebhookHeaders(harness.config.webhookSecret, body, Date.now()),
      rawBody: Buffer.from(body),
      query: {},
    };
    await expect(harness.adapter.parseWebhook(webhook)).rejects.toMatchObject({ code: 'not_found' });
  });

  test('webhooks are managed through the API with X-API-KEY', async () => {
    const base = `${harness.urls.publicUrl}/partners/api/1.0/webhooks`;
    expect((await fetch(base)).status).toBe(401);
    const created = await fetch(base, {
      method: 'POST',
      headers: { 'x-api-key': harness.config.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://broker.example/api/webhooks/revolut', events: ['ORDER_COMPLETED'] }),
    });
    const hook = (await created.json()) as { id: string; signing_secret: string };
    expect(hook.signing_secret).toBe(harness.config.webhookSecret);
    const listed = (await (await fetch(base, { headers: { 'x-api-key': harness.config.apiKey } })).json()) as { id: string }[];
    expect(listed.map((h) => h.id)).toContain(hook.id);
    expect((await fetch(`${base}/${hook.id}`, { method: 'DELETE', headers: { 'x-api-key': harness.config.apiKey } })).status).toBe(204);
  });
});
