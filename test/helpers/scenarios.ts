import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { LocalStack } from '../../src/dev/local-stack';
import { OrderRejectedError } from '../../src/orders/errors';
import { orderIdFor } from '../../src/orders/request';
import { OrderService } from '../../src/orders/service';
import { orderWorkflowId } from '../../src/temporal/order-contract';
import { FAST_TIMINGS, TEST_API_KEY } from './config';
import type { IntegratorReceiver } from './integrator-receiver';
import { checkout, draftOrder, offerThenOrder, waitForStatus, workflowInput } from './orders';
import type { TestStackOptions } from './stack';
import { DEV_SANDBOX_API_KEY, DEV_SANDBOX_WEBHOOK_SECRET } from '../../src/providers/sandbox/config';
import { signSandboxPayload } from '../../src/simulators/sandbox/signing';
import { offerThenSellOrder } from './sell-orders';

/** A recorded order path: how to set the stack up, and what to do once the order exists. */
export interface Scenario {
  name: string;
  stack?: TestStackOptions;
  walletAddress?: string;
  /** Scripts the integrator's answers before the order is created. */
  prepare?(integrator: IntegratorReceiver): void;
  /** Drives the order; resolves once the workflow has closed. */
  run(stack: LocalStack, order: { id: string; redirect_url: string }, client: Client): Promise<void>;
}

async function closed(client: Client, orderId: string): Promise<void> {
  await client.workflow
    .getHandle(orderWorkflowId(orderId))
    .result()
    .catch(() => undefined);
}

const noPolling = { orderTimings: { ...FAST_TIMINGS, pollInitialMs: 60_000, pollMaxMs: 60_000 } };

/** Every path the order workflow can take, recorded into test/replay/histories by scripts/record-histories.ts. */
export const SCENARIOS: Scenario[] = [
  {
    name: 'complete',
    stack: { config: noPolling },
    async run(stack, order, client) {
      await fetch(order.redirect_url);
      await checkout(order.redirect_url, 'pay');
      await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'complete');
      await closed(client, order.id);
    },
  },
  {
    // The integrator answers the created webhook only after 2.5 s: the worker makes no local attempt
    // for it for a while (src/webhooks/local-attempt-gate.ts), so the payment's first attempt is
    // deferred to an ordinary activity.
    name: 'local-attempt-deferred',
    stack: { config: noPolling },
    prepare(integrator) {
      integrator.answerNext({ status: 204, delayMs: 2_500 });
    },
    async run(stack, order, client) {
      await checkout(order.redirect_url, 'pay');
      await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'complete');
      await closed(client, order.id);
    },
  },
  {
    name: 'failed',
    async run(stack, order, client) {
      await checkout(order.redirect_url, 'fail');
      await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'failed');
      await closed(client, order.id);
    },
  },
  {
    name: 'failed-then-refunded',
    stack: { config: { orderTimings: { ...FAST_TIMINGS, settledGraceMs: 30_000 } } },
    async run(stack, order, client) {
      await checkout(order.redirect_url, 'fail');
      await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'failed');
      await checkout(order.redirect_url, 'refund');
      await closed(client, order.id);
    },
  },
  {
    name: 'expired',
    stack: { config: { orderTimings: { ...FAST_TIMINGS, paymentWindowMs: 1500 } } },
    async run(_stack, order, client) {
      await closed(client, order.id);
    },
  },
  {
    name: 'hold-then-complete',
    async run(stack, order, client) {
      await checkout(order.redirect_url, 'hold');
      await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'hold');
      await checkout(order.redirect_url, 'pay');
      await closed(client, order.id);
    },
  },
  {
    name: 'webhooks-lost-polling-completes',
    stack: { faults: { dropWebhooks: true } },
    async run(_stack, order, client) {
      await checkout(order.redirect_url, 'pay');
      await closed(client, order.id);
    },
  },
  {
    // The customer pays a tenth of the order: it completes with the provider's figure and a discrepancy.
    name: 'payment-differs',
    stack: { faults: { paidFiatAmount: '10.00' } },
    async run(stack, order, client) {
      await checkout(order.redirect_url, 'pay');
      await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'complete');
      await closed(client, order.id);
    },
  },
  {
    // The crypto goes to another wallet: every report is refused, and the unpaid order expires.
    name: 'report-refused',
    stack: {
      faults: { paidWalletAddress: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' },
      config: { orderTimings: { ...FAST_TIMINGS, paymentWindowMs: 3000 } },
    },
    async run(_stack, order, client) {
      await checkout(order.redirect_url, 'pay');
      await closed(client, order.id);
    },
  },
  {
    // A short history limit makes the polling order continue as new before the customer pays.
    name: 'continue-as-new',
    stack: { config: { orderTimings: { ...FAST_TIMINGS, pollInitialMs: 100, pollMaxMs: 100, historyEventsBeforeContinue: 40 } } },
    async run(stack, order, client) {
      await waitForRuns(client, order.id, 2);
      await checkout(order.redirect_url, 'pay');
      await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'complete');
      await closed(client, order.id);
    },
  },
];

/** Every run of an order's workflow, oldest first (more than one after continue-as-new). */
export async function workflowRuns(client: Client, orderId: string): Promise<string[]> {
  const runs: { runId: string; startTime: Date }[] = [];
  for await (const execution of client.workflow.list({ query: `WorkflowId = '${orderWorkflowId(orderId)}'` })) {
    runs.push({ runId: execution.runId, startTime: execution.startTime });
  }
  return runs.sort((a, b) => a.startTime.getTime() - b.startTime.getTime()).map((r) => r.runId);
}

async function waitForRuns(client: Client, orderId: string, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await workflowRuns(client, orderId)).length < count) {
    if (Date.now() > deadline) throw new Error(`order ${orderId} did not continue as new`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A creation the workflow refuses (invalid wallet address): recorded as a failed workflow. */
export const REJECTED_SCENARIO = { name: 'rejected-invalid-address', walletAddress: 'not-a-wallet-address' };

/**
 * Starts the rejected scenario's order through the API's order service, past the API's own address
 * check (which refuses before any workflow starts), so that the workflow's check, kept as a second
 * line, refuses it; resolves with the order id once the workflow has failed.
 */
export async function startRejectedOrder(stack: LocalStack, client: Client): Promise<string> {
  const integratorId = stack.config.integrators[0]!.id;
  const externalOrderId = `order-${randomUUID()}`;
  const orderId = orderIdFor(integratorId, externalOrderId);
  const orders = new OrderService({
    client,
    taskQueue: stack.config.temporal.taskQueue,
    createTimeoutMs: 30_000,
    claimLifetimeMs: 60_000,
    orderIdReservation: stack.config.orderIdReservation,
  });
  const input = workflowInput(orderId, { integratorId, timings: stack.config.orderTimings });
  const refused = await orders
    .create({
      ...input,
      request: { ...input.request, external_order_id: externalOrderId, wallet_address: REJECTED_SCENARIO.walletAddress },
    })
    .then(
      () => undefined,
      (err: unknown) => err,
    );
  if (!(refused instanceof OrderRejectedError) || refused.reason !== 'invalid_wallet_address') {
    throw new Error(`the rejected scenario was not refused for its address: ${String(refused)}`);
  }
  await client.workflow
    .getHandle(orderWorkflowId(orderId))
    .result()
    .catch(() => undefined);
  return orderId;
}

export async function startScenarioOrder(stack: LocalStack, walletAddress?: string) {
  const draft = draftOrder(walletAddress ? { wallet_address: walletAddress } : {});
  const res = await offerThenOrder(stack.apiUrl, draft);
  return { draft, res };
}

/** A sell order's path: how to set the stack up, and what to do once the order exists. */
export interface SellScenario {
  name: string;
  /** The provider the order is placed with (the sandbox when absent), in the EUR sell market. */
  provider?: string;
  stack?: TestStackOptions;
  run(stack: LocalStack, order: { id: string; redirect_url: string; extras: Record<string, unknown> }, client: Client): Promise<void>;
}

/** A sandbox sell webhook about the provider's record of `providerOrderId` with `change`, signed with the sandbox's development secret. */
async function signedSellWebhook(stack: LocalStack, providerOrderId: string, change: (order: Record<string, any>) => Record<string, any>) {
  const record = (await (
    await fetch(`${stack.simulatorUrl}/sandbox/v1/sell/orders/${providerOrderId}`, {
      headers: { authorization: `Bearer ${DEV_SANDBOX_API_KEY}` },
    })
  ).json()) as Record<string, any>;
  const body = JSON.stringify({
    event_id: `scenario-${randomUUID()}`,
    event_type: 'sell_order.status_changed',
    side: 'sell',
    order: change(record),
  });
  const response = await fetch(`${stack.apiUrl}/api/webhooks/sandbox`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'sandbox-signature': signSandboxPayload(DEV_SANDBOX_WEBHOOK_SECRET, body, Math.floor(Date.now() / 1000)),
    },
    body,
  });
  if (response.status !== 200) throw new Error(`sell webhook answered ${response.status}`);
}

/** Every path the sell order workflow can take, recorded beside the buy ones by scripts/record-histories.ts. */
export const SELL_SCENARIOS: SellScenario[] = [
  {
    name: 'sell-complete',
    stack: { config: noPolling },
    async run(_stack, order, client) {
      await checkout(order.redirect_url, 'pay');
      await closed(client, order.id);
    },
  },
  {
    name: 'sell-failed-then-refunded',
    stack: { config: { orderTimings: { ...noPolling.orderTimings, settledGraceMs: 30_000 } } },
    async run(_stack, order, client) {
      await checkout(order.redirect_url, 'fail');
      await checkout(order.redirect_url, 'refund');
      await closed(client, order.id);
    },
  },
  {
    // No deposit within the provider's window (shortened): the provider expires the order, and it closes after its grace.
    name: 'sell-expired',
    stack: { depositWindowMs: 1_000, config: { orderTimings: { ...FAST_TIMINGS, settledGraceMs: 1_000 } } },
    async run(_stack, order, client) {
      await closed(client, order.id);
    },
  },
  {
    // A message signed with the provider's key naming another deposit address: refused, flagged; the genuine walk then completes.
    name: 'sell-deposit-refused',
    stack: { config: noPolling },
    async run(stack, order, client) {
      await signedSellWebhook(stack, String(order.extras.provider_order_id), (record) => ({
        ...record,
        status: 'DEPOSIT_CONFIRMING',
        deposit: { ...record.deposit, address: '0xde709f2102306220921060314715629080e2fb77' },
      }));
      await checkout(order.redirect_url, 'pay');
      await closed(client, order.id);
    },
  },
  {
    // The integrator confirms the customer's transaction (Banxa's sell confirmation): the update, its activity, the poll at once.
    name: 'sell-deposit-confirmed',
    provider: 'banxa',
    stack: { config: noPolling },
    async run(stack, order, client) {
      await checkout(order.redirect_url, 'ready');
      await waitForSellStatus(stack.apiUrl, 'banxa', order.id, (o) => o.status === 'waiting_for_deposit' && o.deposit !== undefined);
      const confirmed = await fetch(`${stack.apiUrl}/api/off_ramp/orders/banxa/deposit_confirmation?code=${order.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': TEST_API_KEY },
        body: JSON.stringify({ transaction_hash: `0x${'5e'.repeat(32)}` }),
      });
      if (confirmed.status !== 200) throw new Error(`deposit confirmation answered ${confirmed.status}`);
      await closed(client, order.id);
    },
  },
];

/** Polls the sell order until `done` says so. */
async function waitForSellStatus(apiUrl: string, provider: string, orderId: string, done: (order: Record<string, any>) => boolean) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${apiUrl}/api/off_ramp/orders/${provider}?code=${orderId}`, { headers: { 'x-api-key': TEST_API_KEY } });
    if (response.status === 200 && done((await response.json()) as Record<string, any>)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`sell order ${orderId} did not get there in 30 s`);
}

export async function startSellScenarioOrder(stack: LocalStack, provider = 'sandbox') {
  const { created } = await offerThenSellOrder(stack.apiUrl, {}, provider);
  return created;
}
