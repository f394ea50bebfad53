/**
 * The Coinbase adapter against the Coinbase simulator over real HTTP on 127.0.0.1: catalogue, quotes,
 * session-token orders, the customer's actions, signed webhooks to a small receiver playing the
 * broker, lookups by our order id and the JWT refusal. No Temporal.
 */
import { randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../src/domain/currencies';
import { COINBASE_SIMULATOR_CREDENTIALS, coinbaseConfig, createCoinbaseAdapter } from '../../../src/providers/coinbase';
import { ProviderRejectedError, ProviderUnavailableError, type CreateProviderOrderRequest } from '../../../src/providers/types';
import { createCoinbaseSimulator } from '../../../src/simulators/coinbase/server';
import { COINBASE_LIST_PAGE_SIZE } from '../../../src/providers/coinbase/client';
import { coinbaseSimulatorCredentials } from '../../../src/providers/coinbase/config';
import { parseCdpSecret, signCdpJwt } from '../../../src/providers/coinbase/jwt';
import { useProviderHarness } from '../../helpers/provider-harness';
import { transactionListSuite } from '../../helpers/transaction-list';
import { cryptoOf as crypto, fiatOf as fiat } from '../../helpers/currencies';

const harness = useProviderHarness({
  code: 'coinbase',
  config: (urls) => coinbaseConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: urls.brokerUrl }),
  simulator: (urls) =>
    createCoinbaseSimulator({
      publicUrl: urls.publicUrl,
      brokerWebhookUrl: urls.webhookUrl,
      credentials: COINBASE_SIMULATOR_CREDENTIALS,
      stepDelayMs: 40,
    }),
  adapter: (config) => createCoinbaseAdapter(config, currencyDictionary),
});

function orderRequest(overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest {
  return {
    orderId: randomUUID(),
    fiat: fiat('USD'),
    crypto: crypto('USDC', 'base'),
    fiatAmount: '150.00',
    walletAddress: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
    paymentMethod: 'card',
    country: 'US',
    state: 'CA',
    externalUserId: 'user-1',
    ip: '127.0.0.1',
    extras: {},
    ...overrides,
  };
}

async function act(url: string, action: string): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action }) });
  await res.arrayBuffer();
  return res.status;
}

test("catalogue: countries with US states, the place's currencies, methods with fees and limits, and exclusions", async () => {
  const catalogue = await harness.adapter.getCatalogue();
  expect(catalogue.fiat).toEqual(expect.arrayContaining([fiat('USD').id, fiat('EUR').id, fiat('GBP').id]));
  expect(catalogue.crypto).toEqual(
    expect.arrayContaining([crypto('BTC', 'bitcoin').id, crypto('USDC', 'base').id, crypto('USDC', 'solana').id]),
  );
  expect(catalogue.countries.find((c) => c.code === 'US')?.states).not.toContain('NY');
  expect(catalogue.paymentMethods.map((m) => m.code).sort()).toEqual(['ach', 'apple_pay', 'card']);
  expect(catalogue.paymentMethods.find((m) => m.code === 'card')?.fee).toBe('2.5%');
  expect(catalogue.cryptoNotSoldIn?.[crypto('DOGE', 'dogecoin').id]?.countries.sort()).toEqual(['CA', 'GB']);
});

test('a quote: fees included in the amount, and limits refused before Coinbase is asked', async () => {
  const request = { ...orderRequest(), externalUserId: 'u' };
  const quote = await harness.adapter.getQuote(request);
  expect(quote).toMatchObject({ fiatAmount: '150.00', processingFee: '3.75', networkFee: '0.35', paymentMethod: 'card' });
  await expect(harness.adapter.getQuote({ ...request, fiatAmount: '1.00' })).rejects.toMatchObject({ code: 'limits' });
  await expect(harness.adapter.getQuote({ ...request, paymentMethod: 'sepa' })).rejects.toBeInstanceOf(ProviderRejectedError);
});

test('an order: the page opens the transaction, pay walks it to SUCCESS with signed webhooks, lookups agree', async () => {
  const request = orderRequest();
  const order = await harness.adapter.createOrder(request);
  expect(order.status).toBe('created');
  expect(new URL(order.redirectUrl).searchParams.get('partnerUserRef')).toBe(request.orderId);
  expect((await fetch(order.redirectUrl)).status).toBe(200);
  expect(await act(order.redirectUrl, 'pay')).toBe(200);
  const events = await harness.waitForEvents(request.orderId, 3);
  expect(events.map((e) => `${e.providerStatus}:${e.status}`)).toEqual([
    'ONRAMP_TRANSACTION_STATUS_CREATED:pending',
    'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS:processing',
    'ONRAMP_TRANSACTION_STATUS_SUCCESS:complete',
  ]);
  const snapshot = await harness.adapter.getOrder(request.orderId, events[0]!.providerOrderId);
  expect(snapshot).toMatchObject({
    orderId: request.orderId,
    status: 'complete',
    transactionHash: expect.any(String),
    reported: {
      walletAddress: request.walletAddress,
      cryptoCurrency: crypto('USDC', 'base').id,
      fiatCurrency: fiat('USD').id,
      fiatAmount: '150.00',
    },
  });
});

test('fail ends the transaction FAILED with its reason; an unknown token is refused by the page', async () => {
  const request = orderRequest({ crypto: crypto('BTC', 'bitcoin'), walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
  const order = await harness.adapter.createOrder(request);
  expect(await act(order.redirectUrl, 'fail')).toBe(200);
  const events = await harness.waitForEvents(request.orderId, 2);
  expect(events.at(-1)).toMatchObject({ status: 'failed', failureReason: 'FAILURE_REASON_BUY_FAILED' });
  expect((await fetch(order.redirectUrl.replace(/sessionToken=[^&]+/, 'sessionToken=forged'))).status).toBe(400);
});

test('a JWT signed with another key is refused, as an unavailable provider', async () => {
  const other = createCoinbaseAdapter(
    { ...harness.config, ...coinbaseSimulatorCredentials('not the simulator secret') },
    currencyDictionary,
  );
  await expect(other.getOrder(randomUUID())).rejects.toBeInstanceOf(ProviderUnavailableError);
});

describe('transaction list (GET /onramp/v1/buy/transactions)', () => {
  transactionListSuite({
    harness: () => harness,
    paidOrder: async () => {
      const request = orderRequest();
      const order = await harness.adapter.createOrder(request);
      expect((await fetch(order.redirectUrl)).status).toBe(200);
      expect(await act(order.redirectUrl, 'pay')).toBe(200);
      const events = await harness.waitForEvents(request.orderId, 3);
      expect(events.map((e) => `${e.providerStatus}:${e.status}`).at(-1)).toBe('ONRAMP_TRANSACTION_STATUS_SUCCESS:complete');
      return { orderId: request.orderId, fiatAmount: request.fiatAmount };
    },
    driftedStatus: { provider: 'ONRAMP_TRANSACTION_STATUS_FAILED', broker: 'failed' },
    phantomStatus: 'complete',
    pageLimit: COINBASE_LIST_PAGE_SIZE,
  });

  test("the simulator's list wants a JWT, and refuses bad parameters with a 400 in CDP's error shape", async () => {
    const url = new URL(`${harness.config.apiUrl}/onramp/v1/buy/transactions`);
    expect((await fetch(url)).status).toBe(401);
    const key = parseCdpSecret(harness.config.apiKeySecret)!;
    const get = async (query: string) => {
      const jwt = await signCdpJwt(harness.config.apiKeyId, key, { method: 'GET', host: url.host, path: url.pathname });
      const res = await fetch(`${url.href}?${query}`, { headers: { authorization: `Bearer ${jwt}` } });
      return { status: res.status, body: await res.json() };
    };
    const refused = { status: 400, body: { errorType: 'invalid_request', errorMessage: expect.any(String) } };
    for (const query of [
      'pageSize=0',
      'pageSize=1001',
      'pageSize=ten',
      'startDate=yesterday',
      'startDate=2025-01-03&endDate=2025-01-02',
      'pageKey=forged',
    ]) {
      expect(await get(query)).toEqual(refused);
    }
    expect(await get('pageSize=1&startDate=2025-01-02')).toMatchObject({ status: 200, body: { transactions: expect.any(Array) } });
  });
});
