/**
 * An integrator endpoint that answers 500 must not hold an order up. On Temporal's time-skipping
 * test server: the endpoint fails for the order's first hours while the customer pays and the
 * provider completes the order; the order's run continues as new meanwhile (a low history limit).
 * The order must complete on time, and its webhooks must then arrive in order, each with the
 * `webhook-id` and the place in the retry schedule it had before continue-as-new.
 */
import type { temporal } from '@temporalio/proto';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import {
  DEFAULT_ORDER_TIMINGS,
  getOrderQuery,
  integratorWebhookId,
  orderWorkflowId,
  type OrderMemo,
} from '../../src/temporal/order-contract';
import type { orderWorkflow } from '../../workflows';
import { eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { checkout, workflowInput } from '../helpers/orders';
import { startTimeSkipping, type TimeSkippingStack } from '../helpers/time-skipping';

const TASK_QUEUE = 'integrator-endpoint-down';
const ORDER_ID = '00000000-0000-5000-8000-00000000d0e1';

let stack: TimeSkippingStack;
let receiver: IntegratorReceiver;

beforeAll(async () => {
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  const webhookUrl = await receiver.start();
  stack = await startTimeSkipping({
    taskQueue: TASK_QUEUE,
    settleDelayMs: 10,
    integrators: [
      { id: 'dev', name: 'Dev', api_key_sha256: ['0'.repeat(64)], webhook_url: webhookUrl, webhook_secret: DEFAULT_DEV_WEBHOOK_SECRET },
    ],
  });
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

test('webhooks failing for hours hold up neither the order nor its continue-as-new, and resume where they were', async () => {
  receiver.answerNext(...Array.from({ length: 1000 }, () => ({ status: 500 })));
  const { env } = stack;
  const handle = await env.client.workflow.start<typeof orderWorkflow>('orderWorkflow', {
    workflowId: orderWorkflowId(ORDER_ID),
    taskQueue: TASK_QUEUE,
    args: [
      // Default polling and webhook schedule (5 s, 5 min, 30 min, 2 h, ...); a history limit low
      // enough that the run continues as new within the first minutes, while the first webhook is retried.
      workflowInput(ORDER_ID, { timings: { ...DEFAULT_ORDER_TIMINGS, historyEventsBeforeContinue: 40 } }),
    ],
  });
  const created = await eventually(async () => (await handle.query(getOrderQuery)) ?? undefined, 'order created');
  const createdAt = Date.parse(created.order.created_at);

  // Twenty minutes of polling (about ten polls) while the endpoint fails: the run continues as new.
  await env.sleep('20 minutes');
  const firstRun = handle.firstExecutionRunId;
  const latest = env.client.workflow.getHandle(orderWorkflowId(ORDER_ID));
  expect((await latest.describe()).runId).not.toBe(firstRun);

  // The customer pays; within the hour the order must be complete, the endpoint still failing.
  await checkout(created.order.redirect_url, 'pay');
  await env.sleep('1 hour');
  const memo: OrderMemo | null = await latest.query(getOrderQuery);
  expect(memo?.order.status).toBe('complete');
  expect(receiver.received.every((w) => w.answered === 500)).toBe(true);

  // The endpoint recovers; the webhooks arrive at the next scheduled attempt, in order.
  receiver.clearScript();
  await env.sleep('3 hours');
  const result: OrderMemo = await latest.result();
  expect(result.order.status).toBe('complete');
  const delivered = receiver.delivered(ORDER_ID);
  expect(delivered.map((w) => w.webhookId)).toEqual(
    Array.from({ length: result.sequence }, (_, i) => integratorWebhookId(ORDER_ID, i + 1)),
  );
  expect(delivered.map((w) => w.body.data.status).at(-1)).toBe('complete');
  // The first webhook kept its place in the schedule across the new run: attempts at 0, 5 s, 5 min
  // and 30 min later failed (all within the hour and twenty minutes of 500s), the fifth, 2 h after
  // the fourth, was delivered. Started over in the new run, it would have had more attempts.
  const first = receiver.attempts(integratorWebhookId(ORDER_ID, 1));
  expect(first.map((w) => w.answered)).toEqual([500, 500, 500, 500, 204]);
  // No run closed with a webhook attempt still open: one scheduled as the run began closing would
  // outlive it, its outcome lost, and be made again by the next run.
  let runId: string | undefined = handle.firstExecutionRunId;
  let runs = 0;
  while (runId) {
    const events: temporal.api.history.v1.IHistoryEvent[] =
      (await env.client.workflow.getHandle(orderWorkflowId(ORDER_ID), runId).fetchHistory()).events ?? [];
    const open = new Set(events.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => Number(e.eventId)));
    for (const e of events) {
      const closed = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
      if (closed) open.delete(Number(closed.scheduledEventId));
    }
    expect([...open]).toEqual([]);
    runs++;
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  expect(runs).toBeGreaterThan(1);
  const firstTimestamps = first.map((w) => Date.parse(w.body.timestamp));
  expect(new Set(firstTimestamps).size).toBe(1);
  expect(firstTimestamps[0]).toBe(createdAt);
});
