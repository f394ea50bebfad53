/**
 * The sandbox adapter against the sandbox simulator over real HTTP on 127.0.0.1: what its webhooks
 * and status answers report of the order's terms, with and without the simulator's paid-terms switches.
 */
import { randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { createSandboxAdapter, SANDBOX_INFO } from '../../../../src/providers/sandbox';
import type { CreateProviderOrderRequest } from '../../../../src/providers/types';
import { SandboxSimulator } from '../../../../src/simulators/sandbox/server';
import { checkout } from '../../../helpers/orders';
import { useProviderHarness } from '../../../helpers/provider-harness';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

const CREDENTIALS = { apiKey: 'sk_sandbox_test', webhookSecret: 'sandbox_test_secret' };
const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const OTHER_WALLET = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l';

const harness = useProviderHarness({
  code: 'sandbox',
  config: (urls) => ({ mode: 'simulator' as const, config: { baseUrl: urls.simulatorUrl, ...CREDENTIALS } }),
  simulator: (urls) => new SandboxSimulator({ ...CREDENTIALS, webhookUrl: urls.webhookUrl, publicUrl: urls.publicUrl, settleDelayMs: 40 }),
  adapter: (config) => createSandboxAdapter(config, SANDBOX_INFO, currencyDictionary),
});

function orderRequest(): CreateProviderOrderRequest {
  return {
    orderId: randomUUID(),
    fiat: fiat('USD'),
    crypto: crypto('BTC', 'bitcoin'),
    fiatAmount: '100.00',
    walletAddress: WALLET,
    paymentMethod: 'card',
    country: 'GB',
    externalUserId: 'user-1',
    extras: {},
  };
}

/** Pays a new order and waits for its webhooks up to completion. */
async function paidOrder() {
  const request = orderRequest();
  const order = await harness.adapter.createOrder(request);
  expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
  const events = await harness.waitForEvents(request.orderId, (all) => all.some((e) => e.status === 'complete'));
  return { request, events, status: await harness.adapter.getOrder(request.orderId) };
}

test('without the switches, webhooks and status answers report the order its own terms', async () => {
  const { request, events, status } = await paidOrder();
  const ordered = {
    walletAddress: WALLET,
    cryptoCurrency: crypto('BTC', 'bitcoin').id,
    fiatCurrency: fiat('USD').id,
    fiatAmount: '100.00',
  };
  for (const event of events) expect(event).toMatchObject({ orderId: request.orderId, reported: ordered });
  expect(status).toMatchObject({ orderId: request.orderId, reported: ordered });
});

test('with the switches on, every webhook from payment on and the status answer report what was paid', async () => {
  Object.assign(harness.simulator.faults, { paidFiatAmount: '120.50', paidFiatCurrency: 'EUR', paidWalletAddress: OTHER_WALLET });
  const { events, status } = await paidOrder();
  const paid = {
    walletAddress: OTHER_WALLET,
    cryptoCurrency: crypto('BTC', 'bitcoin').id,
    fiatCurrency: fiat('EUR').id,
    fiatAmount: '120.50',
  };
  expect(events.map((e) => e.providerStatus)).toEqual(['AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'COMPLETED']);
  for (const event of events) expect(event.reported).toEqual(paid);
  expect(status.reported).toEqual(paid);
});
