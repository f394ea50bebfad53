/**
 * The off-ramp end to end: real broker, real Temporal server, the sandbox simulator's sell protocol
 * driving each order from its checkout page, and an integrator endpoint verifying every webhook
 * with the standardwebhooks package. Sell offers, then a sell order placed against one, its deposit
 * address from the provider's answer, its walks to each final status, and every way an outsider
 * could try to change the address the customer sends crypto to.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { validateWalletAddress } from '../../src/addresses/validate';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { LocalStack } from '../../src/dev/local-stack';
import { DEV_SANDBOX_API_KEY, DEV_SANDBOX_WEBHOOK_SECRET } from '../../src/providers/sandbox/config';
import { signSandboxPayload } from '../../src/simulators/sandbox/signing';
import { orderWorkflowId } from '../../src/temporal/order-contract';
import { callApi, eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { checkout } from '../helpers/orders';
import { offerThenSellOrder, SELL_ETH as ETH, SELL_EUR as EUR } from '../helpers/sell-orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const ATTACKER = '0xde709f2102306220921060314715629080e2fb77';

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: IntegratorReceiver;

beforeAll(async () => {
  env = await startTemporal();
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  const receiverUrl = await receiver.start();
  stack = await startTestStack(env, {
    env: { ONRAMP_WEBHOOK_URL: receiverUrl },
    config: { orderTimings: { ...(await import('../helpers/config')).testConfig().orderTimings, settledGraceMs: 20_000 } },
  });
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
  await env?.teardown();
});

/** A live sell offer of the sandbox, then the sell order placed against it. */
const sellOrder = (overrides: Record<string, unknown> = {}) => offerThenSellOrder(stack.apiUrl, overrides);

const getSell = (id: string) => callApi(stack.apiUrl, `/api/off_ramp/orders/sandbox?code=${id}`);

async function deliveriesUntil(orderId: string, status: string) {
  return eventually(() => {
    const delivered = receiver.delivered(orderId);
    return Promise.resolve(delivered.some((w) => w.body.data.status === status) ? delivered : undefined);
  }, `a ${status} webhook for ${orderId}`);
}

/** The sandbox's own record of a sell order, as its API answers it (the shape its webhooks carry). */
async function providerRecord(providerOrderId: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${stack.simulatorUrl}/sandbox/v1/sell/orders/${providerOrderId}`, {
    headers: { authorization: `Bearer ${DEV_SANDBOX_API_KEY}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** A sandbox sell webhook about `order`, signed with `secret`, posted to the broker. */
async function postSellWebhook(order: Record<string, unknown>, eventId: string, secret = DEV_SANDBOX_WEBHOOK_SECRET, provider = 'sandbox') {
  const body = JSON.stringify({
    event_id: eventId,
    event_type: 'sell_order.status_changed',
    side: 'sell',
    created_at: new Date().toISOString(),
    order,
  });
  const response = await fetch(`${stack.apiUrl}/api/webhooks/${provider}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sandbox-signature': signSandboxPayload(secret, body, Math.floor(Date.now() / 1000)) },
    body,
  });
  return response.status;
}

test('offer, order, pay: the deposit from the provider, each status in sequence, kind off_ramp, the payout as offered', async () => {
  const { offer, request, created } = await sellOrder();
  expect(created.status).toBe(200);
  const order = created.body;
  expect(order).toMatchObject({ kind: 'off_ramp', from_currency: ETH, to_currency: EUR, to_amount: offer.amount_expected_to });
  expect(['created', 'waiting_for_deposit']).toContain(order.status);
  expect(order.deposit.network).toBe('ethereum');
  expect(validateWalletAddress('ethereum', order.deposit.address).valid).toBe(true);

  await checkout(order.redirect_url, 'pay');
  const delivered = await deliveriesUntil(order.id, 'complete');
  // Each status the order took, in the walk's order; a poll that finds the provider further on may
  // skip one (its webhook, arriving later, would move the order back and is ignored).
  const walk = ['created', 'waiting_for_deposit', 'deposit_received', 'processing', 'complete'];
  const statuses = delivered.map((w) => w.body.data.status);
  expect(statuses[0]).toBe('created');
  expect(statuses.at(-1)).toBe('complete');
  const steps = statuses.map((status) => walk.indexOf(status));
  expect(steps).toEqual([...new Set(steps)].sort((a, b) => a - b));
  expect(steps).not.toContain(-1);
  expect(delivered.map((w) => w.body.data.sequence)).toEqual(delivered.map((_, i) => i + 1));
  expect(delivered.every((w) => w.verified && w.body.type === 'order.status_changed' && w.body.data.kind === 'off_ramp')).toBe(true);
  expect(new Set(delivered.map((w) => w.body.data.deposit?.address))).toEqual(new Set([undefined, order.deposit.address]));

  const done = await eventually(async () => {
    const read = await getSell(order.id);
    return read.body.status === 'complete' ? read : undefined;
  }, 'complete');
  expect(done.body).toMatchObject({ status: 'complete', deposit: order.deposit, to_amount: offer.amount_expected_to });
  expect(done.body.discrepancies).toBeUndefined();
  // A sell order is no buy order: the on-ramp's status route does not know it.
  expect((await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${order.id}`)).status).toBe(404);
  // Idempotent: the same request answers the same order; another body under its id is a conflict.
  const again = await callApi(stack.apiUrl, '/api/off_ramp/orders', { body: request });
  expect(again.body).toMatchObject({ id: order.id, status: 'complete' });
  const other = await callApi(stack.apiUrl, '/api/off_ramp/orders', { body: { ...request, from_amount: '0.6' } });
  expect(other.status).toBe(409);
});

test.each([
  ['fail', 'failed'],
  ['expire', 'expired'],
  ['refund', 'refunded'],
])('%s: the sell order ends %s, and the integrator hears it', async (action, status) => {
  const { created } = await sellOrder();
  await checkout(created.body.redirect_url, action);
  const delivered = await deliveriesUntil(created.body.id, status);
  expect(delivered.every((w) => w.verified && w.body.data.kind === 'off_ramp')).toBe(true);
  // The webhook may reach the integrator a moment before the order's record shows the change (docs/api.md).
  await eventually(async () => ((await getSell(created.body.id)).body.status === status ? true : undefined), status);
});

describe('the deposit address cannot be changed from outside', () => {
  test('the integrator cannot set it: extras naming a deposit are refused', async () => {
    for (const key of ['deposit', 'deposit_address', 'deposit_memo']) {
      const { created } = await sellOrder({ extras: { [key]: ATTACKER } });
      expect(created.status).toBe(400);
      expect(created.body.code).toBe('validation_error');
    }
  });

  test('forged, replayed, cross-order and cross-provider webhooks never change it', async () => {
    const { created: a } = await sellOrder();
    const { created: b } = await sellOrder();
    const orderA = a.body;
    const orderB = b.body;
    const recordA = await providerRecord(orderA.extras.provider_order_id);
    const recordB = await providerRecord(orderB.extras.provider_order_id);

    // Forged: the attacker's address, signed with a key that is not the provider's.
    expect(
      await postSellWebhook(
        { ...recordA, status: 'DEPOSIT_CONFIRMING', deposit: { ...(recordA.deposit as object), address: ATTACKER } },
        'f-1',
        'not-the-secret',
      ),
    ).toBe(401);
    // Cross-provider: a body for order A at another provider's webhook URL does not verify there.
    expect(
      await postSellWebhook(
        { ...recordA, deposit: { ...(recordA.deposit as object), address: ATTACKER } },
        'x-1',
        DEV_SANDBOX_WEBHOOK_SECRET,
        'transak',
      ),
    ).toBeGreaterThanOrEqual(400);
    // Replayed and cross-order: order B's genuine message, sent again, is about order B alone.
    expect(await postSellWebhook(recordB, 'r-1')).toBe(200);
    expect(await postSellWebhook(recordB, 'r-1')).toBe(200);
    // The provider's own signature on a message naming another address for order A: refused by the order, flagged.
    expect(
      await postSellWebhook(
        { ...recordA, status: 'DEPOSIT_CONFIRMING', deposit: { ...(recordA.deposit as object), address: ATTACKER } },
        'c-1',
      ),
    ).toBe(200);

    const flagged = await eventually(async () => {
      const described = await env.client.workflow.getHandle(orderWorkflowId(orderA.id)).describe();
      const alert = described.searchAttributes.IntegrityAlert;
      return Array.isArray(alert) && alert[0] === 'deposit_refused' ? alert : undefined;
    }, 'the deposit_refused alert');
    expect(flagged).toEqual(['deposit_refused']);
    const nowA = (await getSell(orderA.id)).body;
    expect(nowA.deposit).toEqual(orderA.deposit);
    expect(nowA.status).toBe(orderA.status);
    expect((await getSell(orderB.id)).body.deposit).toEqual(orderB.deposit);

    // The genuine walk still completes with the address shown from the start.
    await checkout(orderA.redirect_url, 'pay');
    await deliveriesUntil(orderA.id, 'complete');
    expect((await getSell(orderA.id)).body.deposit).toEqual(orderA.deposit);
  });
});

describe("the integrator's deposit confirmation (Banxa's sell confirmation)", () => {
  const confirm = (provider: string, id: string, body: unknown, headers: Record<string, string> = {}) =>
    callApi(stack.apiUrl, `/api/off_ramp/orders/${provider}/deposit_confirmation?code=${id}`, { body, headers });

  test('passed on while the order waits for its deposit: Banxa receives it, the order completes with it', async () => {
    const { created } = await offerThenSellOrder(stack.apiUrl, {}, 'banxa');
    expect(created.status).toBe(200);
    const order = created.body;
    const hash = `0x${'5e'.repeat(32)}`;
    // Before Banxa names the deposit, nothing is confirmed.
    expect(await confirm('banxa', order.id, { transaction_hash: hash })).toMatchObject({
      status: 409,
      body: { code: 'deposit_not_awaited' },
    });
    await checkout(order.redirect_url, 'ready');
    const waiting = await eventually(async () => {
      const read = await callApi(stack.apiUrl, `/api/off_ramp/orders/banxa?code=${order.id}`);
      return read.body.status === 'waiting_for_deposit' && read.body.deposit ? read.body : undefined;
    }, 'the deposit shown');
    expect(validateWalletAddress('ethereum', waiting.deposit.address).valid).toBe(true);

    // Malformed for the order's network, or not a transaction hash at all: refused before any call.
    for (const bad of [{ transaction_hash: 'f'.repeat(64) }, { transaction_hash: '' }, { transaction_hash: hash, extra: 1 }, {}]) {
      expect(await confirm('banxa', order.id, bad)).toMatchObject({ status: 400, body: { code: 'validation_error' } });
    }
    const confirmed = await confirm('banxa', order.id, { transaction_hash: hash.toUpperCase().replace('0X', '0x') });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id: order.id, kind: 'off_ramp', deposit_confirmation: { transaction_hash: hash } });
    // One transaction per order: the same again answers the order; another is a conflict.
    expect((await confirm('banxa', order.id, { transaction_hash: hash })).status).toBe(200);
    expect(await confirm('banxa', order.id, { transaction_hash: `0x${'6f'.repeat(32)}` })).toMatchObject({
      status: 409,
      body: { code: 'deposit_already_confirmed' },
    });

    const delivered = await deliveriesUntil(order.id, 'complete');
    expect(delivered.map((w) => w.body.data.sequence)).toEqual(delivered.map((_, i) => i + 1));
    expect(delivered.at(-1)!.body.data).toMatchObject({
      status: 'complete',
      transaction_hash: hash,
      deposit_confirmation: { transaction_hash: hash },
    });
    // Once the deposit is in, there is nothing to confirm.
    expect(await confirm('banxa', order.id, { transaction_hash: `0x${'6f'.repeat(32)}` })).toMatchObject({ status: 409 });
  });

  test('the same answers once the order has ended and its workflow closed: the confirmed one 200, another 409', async () => {
    const { created } = await offerThenSellOrder(stack.apiUrl, {}, 'banxa');
    const order = created.body;
    const hash = `0x${'8c'.repeat(32)}`;
    await checkout(order.redirect_url, 'ready');
    await eventually(async () => {
      const read = await callApi(stack.apiUrl, `/api/off_ramp/orders/banxa?code=${order.id}`);
      return read.body.status === 'waiting_for_deposit' && read.body.deposit ? true : undefined;
    }, 'the deposit shown');
    expect((await confirm('banxa', order.id, { transaction_hash: hash })).status).toBe(200);
    await deliveriesUntil(order.id, 'complete');
    // A busy machine can let the order end between two requests; the answer must not depend on it.
    const handle = env.client.workflow.getHandle(orderWorkflowId(order.id));
    await eventually(async () => ((await handle.describe()).status.name === 'RUNNING' ? undefined : true), 'the workflow closed', 45_000);

    const again = await confirm('banxa', order.id, { transaction_hash: hash });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: order.id, status: 'complete', deposit_confirmation: { transaction_hash: hash } });
    expect(await confirm('banxa', order.id, { transaction_hash: `0x${'9d'.repeat(32)}` })).toMatchObject({
      status: 409,
      body: { code: 'deposit_already_confirmed' },
    });
  }, 90_000);

  test("a provider that sees the deposit itself takes none; another provider's route or order is 404", async () => {
    const { created } = await sellOrder();
    const hash = `0x${'7a'.repeat(32)}`;
    expect(await confirm('sandbox', created.body.id, { transaction_hash: hash })).toMatchObject({
      status: 422,
      body: { code: 'deposit_confirmation_unsupported' },
    });
    expect((await confirm('banxa', created.body.id, { transaction_hash: hash })).status).toBe(404);
    expect((await confirm('sandbox', '00000000-0000-5000-8000-000000000000', { transaction_hash: hash })).status).toBe(404);
    expect((await callApi(stack.apiUrl, `/api/off_ramp/orders/sandbox/deposit_confirmation?code=${created.body.id}`)).status).toBe(405);
    await checkout(created.body.redirect_url, 'pay');
    await deliveriesUntil(created.body.id, 'complete');
  });
});
