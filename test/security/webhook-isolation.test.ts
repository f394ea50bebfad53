/**
 * One integrator's hanging webhook endpoint must not slow another's webhooks or orders (issue 30,
 * item 4). A real Temporal dev server and one worker with few activity slots; two integrators with
 * real HTTP receivers. Integrator A's endpoint never answers while A has three times as many open
 * orders as the worker has activity slots; integrator B's first webhook must still arrive within a
 * second of its order, and B's order must still be polled (the simulated provider sends no webhooks,
 * so only a status poll can see B's payment) and its webhook for the payment arrive at once.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import { sha256Hex } from '../../src/config/integrators';
import type { LocalStack } from '../../src/dev/local-stack';
import { FAST_TIMINGS } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { checkout, draftOrder, offersQuery, waitForStatus, type OrderDraft } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const KEY_A = 'obk_test_isolation_alpha_0000000000000000';
const KEY_B = 'obk_test_isolation_bravo_0000000000000000';
const ACTIVITY_SLOTS = 10;
const A_ORDERS = 3 * ACTIVITY_SLOTS;
/** B's first webhook, from its order's answer to the receiver: about 20 ms on an idle stack. */
const FIRST_WEBHOOK_BOUND_MS = 1_000;

let env: TestWorkflowEnvironment;
let stack: LocalStack;
const receiverA = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
const receiverB = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);

beforeAll(async () => {
  const [urlA, urlB] = await Promise.all([receiverA.start(), receiverB.start()]);
  receiverA.answerNext(...Array.from({ length: 10_000 }, () => 'hang' as const));
  env = await startTemporal();
  stack = await startTestStack(env, {
    // Only polls can move orders: B's payment is seen by a status poll.
    faults: { dropWebhooks: true },
    env: { WORKER_ACTIVITY_SLOTS: String(ACTIVITY_SLOTS), WEBHOOK_ATTEMPTS_PER_WORKER: '6', WEBHOOK_ATTEMPTS_PER_INTEGRATOR: '2' },
    config: {
      integrators: [
        { id: 'alpha', name: 'Alpha', api_key_sha256: [sha256Hex(KEY_A)], webhook_url: urlA, webhook_secret: DEFAULT_DEV_WEBHOOK_SECRET },
        { id: 'bravo', name: 'Bravo', api_key_sha256: [sha256Hex(KEY_B)], webhook_url: urlB, webhook_secret: DEFAULT_DEV_WEBHOOK_SECRET },
      ],
      // The production attempt timeout (WEBHOOK_TIMEOUT_SECONDS=10): each hanging attempt holds its place 10 s.
      webhooks: { allowPrivateNetworks: true, timeoutMs: 10_000 },
      orderTimings: { ...FAST_TIMINGS, webhookAttemptTimeoutMs: 15_000 },
      // A loaded machine must not cost the test its offers.
      offersDeadline: { multiplier: 3, floorMs: 5_000 },
    },
  });
});

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
  await Promise.all([receiverA.stop(), receiverB.stop()]);
});

async function order(apiKey: string, draft: OrderDraft = draftOrder()) {
  const offers = await callApi(stack.apiUrl, `/api/on_ramp/offers?${offersQuery(draft)}`, { apiKey });
  expect(offers.status).toBe(200);
  const created = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft, apiKey });
  expect(created.status).toBe(200);
  return created.body as { id: string; redirect_url: string };
}

test("A's hanging endpoint with many orders delays neither B's webhooks nor B's status polls", async () => {
  for (let i = 0; i < A_ORDERS; i += 5) await Promise.all(Array.from({ length: 5 }, () => order(KEY_A)));
  // A's first webhooks have been handed to the worker and hang at A's endpoint.
  await eventually(() => Promise.resolve(receiverA.received.length > 0 ? true : undefined), "A's first webhook attempts");
  await new Promise((r) => setTimeout(r, 500));

  const ordered = Date.now();
  const b = await order(KEY_B);
  const answered = Date.now();
  const first = await eventually(
    () => Promise.resolve(receiverB.received.find((w) => w.body.data.id === b.id)),
    "B's first webhook",
    60_000,
  );
  const firstWebhookMs = first.receivedAt - answered;
  console.log(`B's first webhook ${firstWebhookMs} ms after its order's answer (${answered - ordered} ms to create)`);
  expect(first.verified).toBe(true);
  expect(first.body.data.status).toBe('created');
  expect(firstWebhookMs).toBeLessThan(FIRST_WEBHOOK_BOUND_MS);

  // B's customer pays; the provider sends nothing, so a status poll must run to see it (polls every
  // 0.5-2 s here), and B's webhook for it must follow at once.
  const paid = Date.now();
  expect((await checkout(b.redirect_url, 'pay')).status).toBe(200);
  await waitForStatus(stack.apiUrl, 'sandbox', b.id, 'complete', 60_000).catch(() => undefined);
  const completeWebhook = await eventually(
    () => Promise.resolve(receiverB.received.find((w) => w.body.data.id === b.id && w.body.data.status === 'complete')),
    "B's webhook for its completed order",
    60_000,
  );
  const completeMs = completeWebhook.receivedAt - paid;
  console.log(`B's payment seen by a poll and its webhook received ${completeMs} ms after paying`);
  // The sandbox settles a payment one step (50 ms) later; a poll sees it within the 2 s poll interval.
  expect(completeMs).toBeLessThan(4_000);

  // A's endpoint held at most its share of the worker's places (two), never the worker's ten: each
  // request it took hangs until the 10 s timeout, so no 9 s window saw more than two of them.
  const times = receiverA.received.map((w) => w.receivedAt).sort((x, y) => x - y);
  const mostAtOnce = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 9_000).length));
  console.log(`A's endpoint: ${times.length} requests, at most ${mostAtOnce} within 9 s`);
  expect(mostAtOnce).toBeLessThanOrEqual(2);
}, 180_000);
