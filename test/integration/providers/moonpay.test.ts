/**
 * The MoonPay adapter against the MoonPay simulator over real HTTP on 127.0.0.1: catalogue, quotes,
 * signed widget orders, the customer's actions, signed webhooks to a small receiver playing the
 * broker, lookups by our order id, authentication refusals and fault switches. No Temporal.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../src/domain/currency';
import { createMoonpayAdapter, MOONPAY_SIMULATOR_CREDENTIALS, moonpayConfig, type MoonpayConfig } from '../../../src/providers/moonpay';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  WebhookVerificationError,
  type CreateProviderOrderRequest,
  type ProviderAdapter,
  type ProviderWebhookEvent,
} from '../../../src/providers/types';
import { SimulatorHost } from '../../../src/simulators/kit/host';
import { createMoonpaySimulator, type MoonpaySimulator } from '../../../src/simulators/moonpay/server';
import { moonpayWebhookSignature } from '../../../src/simulators/moonpay/signing';
import { signedWidgetUrl } from '../../../src/providers/moonpay/widget';
import { eventually } from '../../helpers/http';

interface Received {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

const listen = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
/** Requests the simulator left unanswered on purpose (latency faults after stop) must not hold the close. */
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

const fiat = (ticker: string) => currencyDictionary.currencies.find((c) => c.ticker === ticker && c.currency_type === 'fiat') as FiatCurrency;
const crypto = (ticker: string, network: string) =>
  currencyDictionary.currencies.find((c) => c.ticker === ticker && c.network === network) as CryptoCurrency;

let simulatorServer: Server;
let receiverServer: Server;
let host: SimulatorHost;
let simulator: MoonpaySimulator;
let config: MoonpayConfig;
let adapter: ProviderAdapter;
let simulatorBase: string;
const received: Received[] = [];

beforeAll(async () => {
  receiverServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, rawBody: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  const receiverPort = await listen(receiverServer);

  simulatorServer = createServer();
  const simulatorPort = await listen(simulatorServer);
  simulatorBase = `http://127.0.0.1:${simulatorPort}`;
  simulator = createMoonpaySimulator({
    publicUrl: `${simulatorBase}/moonpay`,
    brokerWebhookUrl: `http://127.0.0.1:${receiverPort}/api/webhooks/moonpay`,
    credentials: MOONPAY_SIMULATOR_CREDENTIALS,
    stepDelayMs: 40,
  });
  host = new SimulatorHost([simulator]);
  simulatorServer.on('request', host.app);

  const result = moonpayConfig({}, { simulatorUrl: simulatorBase, brokerPublicUrl: `http://127.0.0.1:${receiverPort}` });
  if (result.mode !== 'simulator') throw new Error('expected simulator mode');
  config = result.config;
  adapter = createMoonpayAdapter(config, currencyDictionary);
});

afterAll(async () => {
  host.stop();
  await Promise.all([close(simulatorServer), close(receiverServer)]);
});

afterEach(() => {
  Object.assign(simulator.faults, { errorRate: 0, latencyMs: 0, dropWebhooks: false });
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

/** The webhooks received for one of our orders, each verified and parsed by the adapter, in arrival order. */
async function eventsFor(orderId: string): Promise<ProviderWebhookEvent[]> {
  const events: ProviderWebhookEvent[] = [];
  for (const webhook of received) {
    const event = await adapter.parseWebhook({ headers: webhook.headers, rawBody: webhook.rawBody, query: {} });
    if (event.orderId === orderId) events.push(event);
  }
  return events;
}

async function statusesFor(orderId: string, count: number): Promise<string[]> {
  return eventually(async () => {
    const events = await eventsFor(orderId);
    return events.length >= count ? events.map((e) => `${e.providerStatus}:${e.status}`) : undefined;
  }, `${count} webhooks for ${orderId}`);
}

async function act(redirectUrl: string, action: string): Promise<{ status: number; body: any }> {
  const response = await fetch(redirectUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action }) });
  return { status: response.status, body: await response.json() };
}

/** A fresh order whose widget the customer has opened (MoonPay creates the transaction then). */
async function openedOrder(overrides: Partial<CreateProviderOrderRequest> = {}) {
  const request = orderRequest(overrides);
  const order = await adapter.createOrder(request);
  const page = await fetch(order.redirectUrl);
  expect(page.status).toBe(200);
  return { request, order };
}

describe('catalogue', () => {
  test("MoonPay's currencies as broker IDs, countries with US states, methods with fees and limits", async () => {
    const catalogue = await adapter.getCatalogue();
    expect(catalogue.fiat).toEqual(expect.arrayContaining([fiat('USD').id, fiat('EUR').id, fiat('GBP').id, fiat('BRL').id]));
    expect(catalogue.crypto).toEqual(
      expect.arrayContaining([crypto('BTC', 'bitcoin').id, crypto('USDT', 'tron').id, crypto('USDC', 'solana').id, crypto('ETH', 'base').id, crypto('BNB', 'bsc').id]),
    );
    // Cardano is not offered to test keys; SHIB is not in the broker's dictionary.
    expect(catalogue.crypto).not.toContain(crypto('ADA', 'cardano').id);
    const us = catalogue.countries.find((c) => c.code === 'US');
    expect(us?.states).toEqual(expect.arrayContaining(['CA', 'TX', 'DC']));
    expect(us?.states).not.toContain('NY');
    expect(catalogue.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['GB', 'DE']));
    expect(catalogue.countries.map((c) => c.code)).not.toContain('CU');
    const methods = Object.fromEntries(catalogue.paymentMethods.map((m) => [m.code, m]));
    expect(methods.card?.fee).toBe('4.5%');
    expect(methods.card?.limits[fiat('USD').id]).toEqual({ min: '20', max: '30000' });
    expect(Object.keys(methods.sepa?.limits ?? {})).toEqual([String(fiat('EUR').id)]);
    expect(methods.sepa?.fee).toBe('1%');
    expect(Object.keys(methods.pix?.limits ?? {})).toEqual([String(fiat('BRL').id)]);
  });
});

describe('quotes', () => {
  test('a card quote: fees come out of the amount the customer pays', async () => {
    const quote = await adapter.getQuote({
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
    const sepa = await adapter.getQuote({ ...base, paymentMethod: 'sepa' });
    const card = await adapter.getQuote({ ...base, paymentMethod: 'card' });
    expect(Number(sepa.cryptoAmount)).toBeGreaterThan(Number(card.cryptoAmount));
  });

  test('out of limits, and an asset excluded in the country, are refusals', async () => {
    const request = { fiat: fiat('USD'), crypto: crypto('BTC', 'bitcoin'), paymentMethod: 'card', country: 'US', state: 'CA', externalUserId: 'u' };
    const low = await adapter.getQuote({ ...request, fiatAmount: '5' }).catch((err: unknown) => err);
    expect(low).toBeInstanceOf(ProviderRejectedError);
    expect(low).toMatchObject({ code: 'limits', details: { minAmount: '20', maxAmount: '30000' } });
    const stablecoinInCanada = await adapter
      .getQuote({ ...request, fiat: fiat('CAD'), crypto: crypto('USDC', 'ethereum'), country: 'CA', state: undefined, fiatAmount: '100' })
      .catch((err: unknown) => err);
    expect(stablecoinInCanada).toMatchObject({ code: 'country' });
  });
});

describe('orders', () => {
  test('createOrder twice gives one signed widget URL and no transaction until the customer opens it', async () => {
    const request = orderRequest();
    const first = await adapter.createOrder(request);
    const second = await adapter.createOrder(request);
    expect(second.redirectUrl).toBe(first.redirectUrl);
    expect(first.redirectUrl.startsWith(`${simulatorBase}/moonpay/widget?apiKey=`)).toBe(true);
    expect(new URL(first.redirectUrl).searchParams.get('externalTransactionId')).toBe(request.orderId);
    expect(first).toMatchObject({ orderId: request.orderId, status: 'created', providerStatus: 'noTransactionYet' });
    expect(await adapter.getOrder(request.orderId)).toMatchObject({ status: 'created' });

    const page = await fetch(first.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('MoonPay (simulator)');
    await fetch(second.redirectUrl);
    const byExternalId = [...simulator.transactions.values()].filter((tx) => tx.externalTransactionId === request.orderId);
    expect(byExternalId).toHaveLength(1);
    expect(await adapter.getOrder(request.orderId)).toMatchObject({ status: 'pending', providerStatus: 'waitingPayment' });
    expect((await adapter.createOrder(request)).status).toBe('pending');
  });

  test('pay: waitingPayment -> pending -> completed, one verified webhook each, then getOrder reports complete', async () => {
    const { request, order } = await openedOrder();
    const paid = await act(order.redirectUrl, 'pay');
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('pending');
    expect(await statusesFor(request.orderId, 3)).toEqual(['waitingPayment:pending', 'pending:processing', 'completed:complete']);
    const snapshot = await adapter.getOrder(request.orderId);
    expect(snapshot).toMatchObject({ status: 'complete', providerStatus: 'completed' });
    expect(snapshot.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Number(snapshot.cryptoAmount)).toBeGreaterThan(0);
    const refused = await act(order.redirectUrl, 'refund');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'action_not_allowed', allowed: [] });
  });

  test('hold puts the payment on verification; pay continues from there', async () => {
    const { request, order } = await openedOrder({ fiat: fiat('GBP'), paymentMethod: 'bank_transfer', country: 'GB', state: undefined, fiatAmount: '80' });
    expect((await act(order.redirectUrl, 'hold')).body.status).toBe('waitingAuthorization');
    expect((await adapter.getOrder(request.orderId)).status).toBe('hold');
    await act(order.redirectUrl, 'pay');
    expect(await statusesFor(request.orderId, 4)).toEqual([
      'waitingPayment:pending',
      'waitingAuthorization:hold',
      'pending:processing',
      'completed:complete',
    ]);
  });

  test('fail, expire and refund end as failed, expired and refunded', async () => {
    const failed = await openedOrder();
    expect((await act(failed.order.redirectUrl, 'fail')).body.status).toBe('failed');
    const expired = await openedOrder({ fiat: fiat('EUR'), paymentMethod: 'sepa', country: 'DE', state: undefined });
    await act(expired.order.redirectUrl, 'expire');
    const refunded = await openedOrder();
    await act(refunded.order.redirectUrl, 'hold');
    await act(refunded.order.redirectUrl, 'refund');

    expect(await statusesFor(failed.request.orderId, 2)).toEqual(['waitingPayment:pending', 'failed:failed']);
    expect(await statusesFor(expired.request.orderId, 2)).toEqual(['waitingPayment:pending', 'failed:expired']);
    expect(await statusesFor(refunded.request.orderId, 3)).toEqual(['waitingPayment:pending', 'waitingAuthorization:hold', 'failed:refunded']);
    expect(await adapter.getOrder(failed.request.orderId)).toMatchObject({ status: 'failed', failureReason: 'payment_authorization_declined' });
    expect((await adapter.getOrder(expired.request.orderId)).status).toBe('expired');
    expect((await adapter.getOrder(refunded.request.orderId)).status).toBe('refunded');
  });
});

describe('authentication', () => {
  test('a wrong publishable key, a wrong secret key and a tampered widget URL are refused', async () => {
    const quote = await fetch(`${simulatorBase}/moonpay/v3/currencies/btc/buy_quote?apiKey=pk_test_wrong&baseCurrencyCode=usd&baseCurrencyAmount=100`);
    expect(quote.status).toBe(401);
    expect(await quote.json()).toMatchObject({ type: 'UnauthorizedError' });

    const wrongSecret = createMoonpayAdapter({ ...config, secretKey: 'sk_test_wrong' }, currencyDictionary);
    await expect(wrongSecret.getOrder(randomUUID())).rejects.toBeInstanceOf(ProviderUnavailableError);

    const order = await adapter.createOrder(orderRequest());
    const tampered = order.redirectUrl.replace('baseCurrencyAmount=150.00', 'baseCurrencyAmount=15000.00');
    const page = await fetch(tampered);
    expect(page.status).toBe(400);
    expect(await page.json()).toMatchObject({ message: 'Invalid signature' });
    const unsigned = await fetch(order.redirectUrl.split('&signature=')[0]!);
    expect(await unsigned.json()).toMatchObject({ message: 'Missing signature' });
    const params = Object.fromEntries(new URL(order.redirectUrl.split('&signature=')[0]!).searchParams);
    const signedByOther = await fetch(signedWidgetUrl(config.widgetUrl, 'sk_test_other', params));
    expect(signedByOther.status).toBe(400);
  });

  test('the adapter refuses a forged webhook', async () => {
    const body = JSON.stringify({ type: 'transaction_updated', data: { id: 'x', createdAt: 'a', updatedAt: 'b', status: 'completed', externalTransactionId: randomUUID() } });
    const forged = moonpayWebhookSignature('wk_test_forger', body, Math.floor(Date.now() / 1000));
    await expect(adapter.parseWebhook({ headers: { 'moonpay-signature-v2': forged }, rawBody: Buffer.from(body), query: {} })).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );
  });
});

describe('faults', () => {
  test('errorRate makes the API answer 503: ProviderUnavailableError', async () => {
    await fetch(`${simulatorBase}/moonpay/_simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errorRate: 1 }),
    });
    await expect(adapter.getCatalogue()).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(adapter.getOrder(randomUUID())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  test("the caller's AbortSignal ends a slow catalogue or quote", async () => {
    simulator.faults.latencyMs = 2000;
    const started = Date.now();
    const quote = { fiat: fiat('USD'), crypto: crypto('BTC', 'bitcoin'), fiatAmount: '100', paymentMethod: 'card', country: 'US', state: 'CA', externalUserId: 'u' };
    await expect(adapter.getQuote(quote, AbortSignal.timeout(100))).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(adapter.getCatalogue(AbortSignal.timeout(100))).rejects.toBeInstanceOf(ProviderUnavailableError);
    const cold = createMoonpayAdapter(config, currencyDictionary);
    await expect(cold.getQuote(quote, AbortSignal.timeout(100))).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  test('dropWebhooks: none arrive, the lookup by our order id still follows the order', async () => {
    simulator.faults.dropWebhooks = true;
    const { request, order } = await openedOrder();
    await act(order.redirectUrl, 'pay');
    const snapshot = await eventually(async () => {
      const current = await adapter.getOrder(request.orderId);
      return current.status === 'complete' ? current : undefined;
    }, 'the order to complete');
    expect(snapshot.providerStatus).toBe('completed');
    await simulator.webhooks.drain();
    expect(await eventsFor(request.orderId)).toEqual([]);
  });
});
