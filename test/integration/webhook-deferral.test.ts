/**
 * A webhook attempt the worker defers (over the integrator's cap, src/webhooks/delivery-gate.ts) is
 * not an attempt: the order makes the same attempt again after the worker's pause, whatever its
 * retry schedule. A real Temporal dev server, one worker allowing one attempt at a time to the
 * integrator, an endpoint that takes 1 s to answer, and eight orders created at once whose
 * schedule allows two attempts in all: were a deferral counted, most webhooks would be given up
 * after two deferrals; each must arrive, as its first attempt.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import { sha256Hex } from '../../src/config/integrators';
import type { LocalStack } from '../../src/dev/local-stack';
import { integratorWebhookId } from '../../src/temporal/order-contract';
import { FAST_TIMINGS, TEST_API_KEY } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { draftOrder, fetchOffers } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const ORDERS = 8;
let env: TestWorkflowEnvironment;
let stack: LocalStack;
const receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);

beforeAll(async () => {
  const url = await receiver.start();
  receiver.answerNext(...Array.from({ length: 1_000 }, () => ({ status: 204, delayMs: 1_000 })));
  env = await startTemporal();
  stack = await startTestStack(env, {
    // Provider webhooks would make local first attempts, which this cap does not govern.
    faults: { dropWebhooks: true },
    env: { WORKER_ACTIVITY_SLOTS: '10', WEBHOOK_ATTEMPTS_PER_WORKER: '5', WEBHOOK_ATTEMPTS_PER_INTEGRATOR: '1' },
    config: {
      integrators: [
        { id: 'dev', name: 'Dev', api_key_sha256: [sha256Hex(TEST_API_KEY)], webhook_url: url, webhook_secret: DEFAULT_DEV_WEBHOOK_SECRET },
      ],
      // Two attempts in all: a failed first attempt, then one more 200 ms later.
      orderTimings: { ...FAST_TIMINGS, webhookRetryDelaysMs: [200] },
      // A loaded machine must not cost the test its offers.
      offersDeadline: { multiplier: 3, floorMs: 5_000 },
    },
  });
});

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
  await receiver.stop();
});

test('deferred attempts are made again as the same attempt until delivered, however short the schedule', async () => {
  const drafts = Array.from({ length: ORDERS }, () => draftOrder());
  for (const draft of drafts) expect((await fetchOffers(stack.apiUrl, draft)).status).toBe(200);
  // Created at once: their first webhooks meet the cap together.
  const orders = await Promise.all(
    drafts.map(async (draft) => {
      const created = await callApi<{ id: string }>(stack.apiUrl, '/api/on_ramp/orders', { body: draft });
      expect(created.status).toBe(200);
      return created.body;
    }),
  );
  for (const order of orders) {
    const first = integratorWebhookId(order.id, 1);
    await eventually(() => Promise.resolve(receiver.attempts(first).length > 0 ? true : undefined), `webhook ${first}`, 90_000);
  }
  // One request to the endpoint at a time: no two overlap (each is answered 1 s after it arrives).
  const times = receiver.received.map((w) => w.receivedAt).sort((a, b) => a - b);
  expect(times.every((t, i) => i === 0 || t - times[i - 1]! >= 900)).toBe(true);
  for (const order of orders) {
    const webhookId = integratorWebhookId(order.id, 1);
    // The order records the attempt once the endpoint has answered.
    const first = await eventually(async () => {
      const { body } = await callApi<{ deliveries: { webhook_id: string; attempt: number; outcome: string }[] }>(
        stack.apiUrl,
        `/api/on_ramp/orders/sandbox/webhooks?code=${order.id}`,
      );
      const records = body.deliveries.filter((d) => d.webhook_id === webhookId);
      return records.length > 0 ? records : undefined;
    }, `the record of ${webhookId}`);
    // Recorded once, as attempt 1, delivered: the deferrals before it are no attempts.
    expect(first).toEqual([expect.objectContaining({ attempt: 1, outcome: 'delivered' })]);
    expect(receiver.attempts(webhookId)).toHaveLength(1);
  }
}, 150_000);
