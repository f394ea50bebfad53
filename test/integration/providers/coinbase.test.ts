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
import { coinbaseSimulatorCredentials } from '../../../src/providers/coinbase/config';
import { useProviderHarness } from '../../helpers/provider-harness';
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
