/**
 * Attack: a provider's genuinely signed event naming an order of another provider. The sandbox's
 * development secret is in the repository, so anyone can sign a sandbox event; it must never move a
 * MoonPay order, whether MoonPay runs against its simulator or live.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { MOONPAY_SIMULATOR_CREDENTIALS } from '../../src/providers/moonpay';
import { callApi } from '../helpers/http';
import { offerThenOrder } from '../helpers/orders';
import { freePort } from '../helpers/ports';
import { orderMemo, postWebhook, refusedReports, searchAttributes, signedSandboxEvent } from '../helpers/provider-events';
import { journeyOrder } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
const stacks: LocalStack[] = [];

beforeAll(async () => {
  env = await startTemporal();
});

afterAll(async () => {
  await Promise.all(stacks.map((s) => s.stop()));
  await env?.teardown();
});

async function moonpayOrder(stack: LocalStack) {
  const created = await offerThenOrder(stack.apiUrl, journeyOrder({ code: 'moonpay', market: 'US-CA', paymentMethod: 'card' }));
  expect(created.status).toBe(200);
  return created.body as { id: string; status: string };
}

async function expectUnmoved(stack: LocalStack, orderId: string) {
  const memo = await refusedReports(env.client, orderId);
  expect(memo.order.status).toBe('created');
  expect(memo.sequence).toBe(1);
  expect(memo.integrityAlert).toBe('report_refused');
  expect((await searchAttributes(env.client, orderId)).IntegrityAlert).toBe('report_refused');
  const status = await callApi(stack.apiUrl, `/api/on_ramp/orders/moonpay?code=${orderId}`);
  expect(status.body).toMatchObject({ status: 'created' });
  expect(status.body.extras).not.toHaveProperty('transaction_hash');
}

test('a sandbox event signed with the public development secret never moves a MoonPay order', async () => {
  const stack = await startTestStack(env);
  stacks.push(stack);
  const order = await moonpayOrder(stack);

  const forged = signedSandboxEvent(order.id);
  const response = await postWebhook(stack.apiUrl, 'sandbox', forged);
  // The signature is genuine for the sandbox, so the broker acknowledges it; the order refuses it.
  expect(response.status).toBe(200);
  await expectUnmoved(stack, order.id);
});

test('nor a MoonPay order in live mode', async () => {
  // MoonPay configured with credentials (live mode) against a host on this machine.
  const simulatorPort = await freePort();
  const moonpayHost = `http://127.0.0.1:${simulatorPort}/moonpay`;
  const stack = await startTestStack(env, {
    simulatorPort,
    env: {
      MOONPAY_PUBLISHABLE_KEY: MOONPAY_SIMULATOR_CREDENTIALS.publishableKey,
      MOONPAY_SECRET_KEY: MOONPAY_SIMULATOR_CREDENTIALS.secretKey,
      MOONPAY_WEBHOOK_KEY: MOONPAY_SIMULATOR_CREDENTIALS.webhookKey,
      MOONPAY_API_URL: moonpayHost,
      MOONPAY_WIDGET_URL: `${moonpayHost}/widget`,
    },
  });
  stacks.push(stack);
  expect(stack.config.providers.moonpay.mode).toBe('live');
  const order = await moonpayOrder(stack);

  for (const status of ['PAYMENT_RECEIVED', 'COMPLETED']) {
    expect((await postWebhook(stack.apiUrl, 'sandbox', signedSandboxEvent(order.id, { status }))).status).toBe(200);
  }
  await refusedReports(env.client, order.id, 2);
  await expectUnmoved(stack, order.id);
  expect((await orderMemo(env.client, order.id)).refusedReports).toBe(2);
});
