/**
 * The sandbox adapter against the sandbox simulator over real HTTP on 127.0.0.1: what its webhooks
 * and status answers report of the order's terms, with and without the simulator's paid-terms switches,
 * and its cancel of an unpaid order.
 */
import { randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { createSandboxAdapter, SANDBOX_INFO } from '../../../../src/providers/sandbox';
import { ProviderRejectedError, ProviderUnavailableError, type CreateProviderOrderRequest } from '../../../../src/providers/types';
import { SandboxSimulator } from '../../../../src/simulators/sandbox/server';
import { checkout } from '../../../helpers/orders';
import { useProviderHarness } from '../../../helpers/provider-harness';
import { rejectionOf } from '../../../helpers/rejection';
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

/** A new order the customer has reached the payment step of (`AWAITING_PAYMENT`, its webhook received). */
async function unpaidOrder() {
  const request = orderRequest();
  const order = await harness.adapter.createOrder(request);
  expect((await fetch(order.redirectUrl)).status).toBe(200);
  await harness.waitForEvents(request.orderId, 1);
  return { request, order };
}

describe('cancelOrder', () => {
  test('ends an unpaid order failed: its signed webhook and the next lookup say so', async () => {
    const { request, order } = await unpaidOrder();

    await harness.adapter.cancelOrder!(request.orderId, order.providerOrderId);

    const events = await harness.waitForEvents(request.orderId, 2);
    expect(events.map((e) => e.providerStatus)).toEqual(['AWAITING_PAYMENT', 'FAILED']);
    expect(events[1]).toMatchObject({ orderId: request.orderId, status: 'failed', failureReason: 'cancelled_by_partner' });
    expect(await harness.adapter.getOrder(request.orderId, order.providerOrderId)).toMatchObject({
      providerStatus: 'FAILED',
      status: 'failed',
      failureReason: 'cancelled_by_partner',
    });
    // The customer can no longer pay it.
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(409);
  });

  test('finds the provider order by the broker order id when its id is not known', async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);

    await harness.adapter.cancelOrder!(request.orderId, undefined);

    const [event] = await harness.waitForEvents(request.orderId, 1);
    expect(event).toMatchObject({ providerStatus: 'FAILED', status: 'failed' });
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ providerOrderId: order.providerOrderId, status: 'failed' });
  });

  test('an order on hold is still unpaid and can be cancelled', async () => {
    const { request, order } = await unpaidOrder();
    expect((await checkout(order.redirectUrl, 'hold')).status).toBe(200);

    await harness.adapter.cancelOrder!(request.orderId, order.providerOrderId);

    expect(await harness.adapter.getOrder(request.orderId, order.providerOrderId)).toMatchObject({ status: 'failed' });
  });

  test('a paid order is refused and keeps its course', async () => {
    const { request, order } = await unpaidOrder();
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    await harness.waitForEvents(request.orderId, (events) => events.some((e) => e.status === 'complete'));

    const refusal = await rejectionOf(harness.adapter.cancelOrder!(request.orderId, order.providerOrderId), ProviderRejectedError);
    expect(refusal.code).toBe('rejected');
    expect(refusal.message).toMatch(/COMPLETED/);
    expect(await harness.adapter.getOrder(request.orderId, order.providerOrderId)).toMatchObject({ status: 'complete' });
  });

  test('an order already ended unpaid is refused: nothing is sent again', async () => {
    const { request, order } = await unpaidOrder();
    expect((await checkout(order.redirectUrl, 'expire')).status).toBe(200);
    await harness.waitForEvents(request.orderId, 2);

    const refusal = await rejectionOf(harness.adapter.cancelOrder!(request.orderId, order.providerOrderId), ProviderRejectedError);
    expect(refusal.code).toBe('rejected');
    expect(await harness.eventsFor(request.orderId)).toHaveLength(2);
  });

  test('an unknown order is not_found, by provider order id and by broker order id', async () => {
    const byId = await rejectionOf(harness.adapter.cancelOrder!(randomUUID(), randomUUID()), ProviderRejectedError);
    expect(byId.code).toBe('not_found');
    const byReference = await rejectionOf(harness.adapter.cancelOrder!(randomUUID(), undefined), ProviderRejectedError);
    expect(byReference.code).toBe('not_found');
  });

  test('a provider outage is ProviderUnavailableError, and the order stays as it was', async () => {
    const { request, order } = await unpaidOrder();
    harness.simulator.faults.errorRate = 1;

    await rejectionOf(harness.adapter.cancelOrder!(request.orderId, order.providerOrderId), ProviderUnavailableError);

    harness.resetFaults();
    expect(await harness.adapter.getOrder(request.orderId, order.providerOrderId)).toMatchObject({ providerStatus: 'AWAITING_PAYMENT' });
  });

  test('the simulator refuses a cancel without the API key', async () => {
    const { request, order } = await unpaidOrder();
    const response = await fetch(`${harness.urls.publicUrl}/v1/orders/${order.providerOrderId}/cancel`, { method: 'POST' });
    expect(response.status).toBe(401);
    expect(await harness.adapter.getOrder(request.orderId, order.providerOrderId)).toMatchObject({ providerStatus: 'AWAITING_PAYMENT' });
  });

  test('the caller’s signal (the activity’s cancellation) aborts the call: ProviderUnavailableError', async () => {
    const { request, order } = await unpaidOrder();
    harness.simulator.faults.latencyMs = 2_000;
    const controller = new AbortController();
    const cancel = harness.adapter.cancelOrder!(request.orderId, order.providerOrderId, controller.signal);
    setTimeout(() => controller.abort(), 50);
    await rejectionOf(cancel, ProviderUnavailableError);
  });
});
