/**
 * Attack: one purchase, two orders under one id. An integrator's order is paid and completes; the
 * namespace's retention deletes its closed workflow a few days later; then the same
 * `external_order_id` is sent again (a retry queue replaying an old request, or an id the customer
 * can influence). The order id is derived from it, so a new order would start under the old id,
 * and every provider that looks orders up by our id would hand it the old, completed purchase: the
 * customer is credited twice for one payment. The API must refuse the re-creation for as long as the
 * id's reservation lasts, and must not refuse a creation that merely never started.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { ORDER_ID_RESERVATION_WORKFLOW_TYPE } from '../../src/orders/claims';
import { orderIdFor } from '../../src/orders/request';
import { ORDER_RECORD_CHECK_MS, orderIdReservationId, orderWorkflowId } from '../../src/temporal/order-contract';
import { callApi, eventually } from '../helpers/http';
import { checkout, fetchOffers, offerThenOrder, waitForStatus } from '../helpers/orders';
import { JOURNEYS, journeyOrder } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const DAY_MS = 24 * 3_600_000;

let env: TestWorkflowEnvironment;
/** Reservations count as old at once: what a stack sees once its orders are past the shortest retention. */
let aged: LocalStack;
/** The production grace: a reservation younger than the shortest retention never means a deleted order. */
let fresh: LocalStack;

beforeAll(async () => {
  env = await startTemporal();
  // Reservations ask every half second whether their order is still kept (weekly in production).
  aged = await startTestStack(env, { config: { orderIdReservation: { holdMs: 730 * DAY_MS, checkEveryMs: 500, graceMs: 0 } } });
  fresh = await startTestStack(env);
});

afterAll(async () => {
  await aged?.stop();
  await fresh?.stop();
  await env?.teardown();
});

/**
 * What retention does to a closed order: its workflow is deleted, history, memo and visibility.
 * Deleted at once rather than once closed (the dev server takes about 20 s to delete a closed
 * run): what the attack needs, the order's workflow gone, is the same.
 */
async function deleteAsRetentionWould(orderId: string): Promise<void> {
  const workflowId = orderWorkflowId(orderId);
  await env.client.workflowService.deleteWorkflowExecution({
    namespace: env.namespace ?? 'default',
    workflowExecution: { workflowId },
  });
  await eventually(
    async () => {
      try {
        await env.client.workflow.getHandle(workflowId).describe();
        return undefined;
      } catch {
        return true;
      }
    },
    `order ${orderId} deleted`,
    120_000,
  );
}

/** Pays an order of the journey's provider, deletes it once complete, and asks for it again: the problem code answered (or the status). */
async function reuseAfterRetention(journey: (typeof JOURNEYS)[number]): Promise<string> {
  const draft = journeyOrder(journey);
  const created = await offerThenOrder(aged.apiUrl, draft);
  expect(created.status).toBe(200);
  const { id, redirect_url: redirectUrl } = created.body as { id: string; redirect_url: string };
  expect((await checkout(redirectUrl, 'pay')).status).toBeLessThan(400);
  await waitForStatus(aged.apiUrl, journey.code, id, 'complete', 60_000);

  await deleteAsRetentionWould(id);
  expect((await callApi(aged.apiUrl, `/api/on_ramp/orders/${journey.code}?code=${id}`)).status).toBe(404);

  const again = await offerThenOrder(aged.apiUrl, draft);
  if (again.status !== 409) return `${again.status}`;
  expect(again.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  // No order started under the old id: nothing could pick up the old purchase.
  await expect(env.client.workflow.getHandle(orderWorkflowId(id)).describe()).rejects.toThrow();
  return again.body.code as string;
}

/**
 * The refusal comes before any provider code runs, so three ways of finding an order by our id
 * stand for all: MoonPay's transaction by `externalTransactionId` (a widget URL), Banxa's repeated
 * create that finds the order it made, Coinbase's transactions by `partnerUserRef`. (Deleting a
 * paid order's workflow takes the dev server 10 to 30 s each, so not all ten.)
 */
const ATTACKED = JOURNEYS.filter((journey) => ['banxa', 'coinbase', 'moonpay'].includes(journey.code));

test('a paid order deleted by retention cannot be created again under its id, so its purchase credits nothing more', async () => {
  expect(ATTACKED).toHaveLength(3);
  // A stack's first offers load every catalogue; a provider slow then is left out for a while. Wait it out.
  for (const journey of ATTACKED) {
    await eventually(
      async () => {
        const offers = await fetchOffers(aged.apiUrl, journeyOrder(journey));
        return offers.status === 200 && offers.body[journey.code] ? true : undefined;
      },
      `a ${journey.code} offer`,
      60_000,
    );
  }
  const answers = await Promise.all(ATTACKED.map(async (journey) => [journey.code, await reuseAfterRetention(journey)] as const));
  expect(Object.fromEntries(answers)).toEqual(Object.fromEntries(ATTACKED.map((j) => [j.code, 'external_order_id_retired'])));
}, 180_000);

test('a reservation whose order never started (a crash between the two) does not refuse the repeated request', async () => {
  const draft = journeyOrder(JOURNEYS[0]!);
  // The order is created (which reserves its id), then its workflow is removed at once: what is left
  // is what a crash between the reservation and the order's start leaves.
  const first = await offerThenOrder(fresh.apiUrl, draft);
  expect(first.status).toBe(200);
  const { id } = first.body as { id: string };
  await deleteAsRetentionWould(id);
  // The reservation is seconds old: no retention deletes an order that young, so the order never existed.
  const reservation = await env.client.workflow.getHandle(orderIdReservationId(id)).describe();
  expect(reservation.type).toBe(ORDER_ID_RESERVATION_WORKFLOW_TYPE);
  expect(reservation.status.name).toBe('RUNNING');

  const again = await offerThenOrder(fresh.apiUrl, draft);
  expect(again.status).toBe(200);
  expect(again.body.id).toBe(id);
});

test('an order creation reserves its id with no workflow task: the reservation first runs a check interval later', async () => {
  const created = await offerThenOrder(fresh.apiUrl, journeyOrder(JOURNEYS[0]!));
  expect(created.status).toBe(200);
  const handle = env.client.workflow.getHandle(orderIdReservationId((created.body as { id: string }).id));
  // It holds the id already (open, so the conflict and reuse policies refuse a second start) ...
  expect((await handle.describe()).status.name).toBe('RUNNING');
  // ... with only its start in history: no task, timer or worker activation on the creation's path.
  const events = (await handle.fetchHistory()).events ?? [];
  expect(events.map((e) => e.eventType)).toHaveLength(1);
  const backoff = events[0]!.workflowExecutionStartedEventAttributes?.firstWorkflowTaskBackoff;
  expect(Number(backoff?.seconds ?? 0) * 1000).toBe(ORDER_RECORD_CHECK_MS);
});
test('a reservation closed by hand still refuses the id while Temporal keeps it', async () => {
  const draft = journeyOrder(JOURNEYS[0]!);
  const created = await offerThenOrder(aged.apiUrl, draft);
  expect(created.status).toBe(200);
  const { id } = created.body as { id: string };
  // An operator's batch terminate of "stuck" running workflows, then retention deletes the order.
  await env.client.workflow.getHandle(orderIdReservationId(id)).terminate('test: cleaning up running workflows');
  await deleteAsRetentionWould(id);

  const again = await offerThenOrder(aged.apiUrl, draft);
  expect(again.status).toBe(409);
  expect(again.body.code).toBe('external_order_id_retired');
});

test('the reservation waits while the order is kept, then holds ORDER_ID_RESERVATION_DAYS from its deletion', async () => {
  const draft = journeyOrder(JOURNEYS[0]!);
  draft.external_order_id = `order-${randomUUID()}`;
  const created = await offerThenOrder(aged.apiUrl, draft);
  expect(created.status).toBe(200);
  const { id } = created.body as { id: string };
  const handle = env.client.workflow.getHandle(orderIdReservationId(id));
  const timers = async () =>
    ((await handle.fetchHistory()).events ?? [])
      .map((e) => e.timerStartedEventAttributes?.startToFireTimeout)
      .filter((t) => t != null)
      .map((t) => Number(t.seconds ?? 0) * 1000 + Math.round((t.nanos ?? 0) / 1e6));
  const asked = async () => ((await handle.fetchHistory()).events ?? []).filter((e) => e.activityTaskCompletedEventAttributes).length;
  // While the order exists, it only asks again (half-second timers in this stack), never starts its hold.
  await eventually(async () => ((await asked()) >= 2 ? true : undefined), 'two checks of the order record');
  expect(await timers()).not.toContain(730 * DAY_MS);

  await deleteAsRetentionWould(id);
  await eventually(async () => ((await timers()).includes(730 * DAY_MS) ? true : undefined), 'the hold timer');
  expect((await handle.describe()).status.name).toBe('RUNNING');
});

test('a request with an invalid wallet address is refused before anything is started: no order, no reservation', async () => {
  const draft = { ...journeyOrder(JOURNEYS[0]!), wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7' };
  const refused = await offerThenOrder(aged.apiUrl, draft);
  expect(refused.status).toBe(422);
  expect(refused.body.code).toBe('invalid_wallet_address');
  const id = orderIdFor('dev', draft.external_order_id);
  await expect(env.client.workflow.getHandle(orderIdReservationId(id)).describe()).rejects.toThrow(WorkflowNotFoundError);
  await expect(env.client.workflow.getHandle(orderWorkflowId(id)).describe()).rejects.toThrow(WorkflowNotFoundError);
});
