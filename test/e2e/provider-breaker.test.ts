/**
 * The provider circuit breaker through the real API, workflows and sandbox simulator: order
 * creations that fail open it (the provider leaves the offers with `provider_unavailable` and its
 * orders are refused before anything starts), and after the open time a probe order that succeeds
 * brings the provider back. Orders that fail for the customer's reasons never open it: an
 * integrator cannot take a provider away from the others with bad orders of its own.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { orderIdFor } from '../../src/orders/request';
import { orderWorkflowId } from '../../src/temporal/order-contract';
import { callApi, eventually } from '../helpers/http';
import { draftOrder, fetchOffers, offersQuery, offerThenOrder, type OrderDraft } from '../helpers/orders';
import { useTestStack } from '../helpers/stack';

const OPEN_MS = 3000;
const started = useTestStack({
  config: {
    orderCreateTimeoutMs: 60_000,
    providerBreaker: { failures: 2, failureRate: 0.5, window: 4, openMs: OPEN_MS, probes: 1 },
  },
});

afterEach(() => {
  Object.assign(started.stack.simulator.faults, { createErrorRate: 0, createRejectRate: 0 });
});

const sandboxOutcome = async (draft: OrderDraft) =>
  (await callApi(started.stack.apiUrl, `/api/on_ramp/offers?${offersQuery(draft)}&include_errors=true`)).body.sandbox;

const placed = (draft: OrderDraft) => callApi(started.stack.apiUrl, '/api/on_ramp/orders', { body: draft });

test("orders refused for the customer's own reasons never take the provider out of offers", async () => {
  const { simulator } = started.stack;
  simulator.faults.createRejectRate = 1;
  for (let i = 0; i < 4; i++) {
    const d = draftOrder();
    const refused = await offerThenOrder(started.stack.apiUrl, d);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('provider_rejected');
    const badAddress = await offerThenOrder(started.stack.apiUrl, draftOrder({ wallet_address: 'not-an-address' }));
    expect(badAddress.body.code).toBe('invalid_wallet_address');
  }
  simulator.faults.createRejectRate = 0;
  const draft = draftOrder();
  expect(await sandboxOutcome(draft)).toHaveProperty('amount_expected_to');
  const created = await placed(draft);
  expect(created.status).toBe(200);
  expect(created.body.status).toBe('created');
}, 60_000);

test('creations that fail open the breaker; after the open time a probe that succeeds closes it', async () => {
  const { apiUrl, simulator } = started.stack;
  // An offer taken while the provider was fine, ordered once it is out.
  const late = draftOrder();
  expect(await sandboxOutcome(late)).toHaveProperty('amount_expected_to');

  simulator.faults.createErrorRate = 1;
  // Each creation runs out of attempts (about 31 s of backoff); both at once.
  const failed = await Promise.all([offerThenOrder(apiUrl, draftOrder()), offerThenOrder(apiUrl, draftOrder())]);
  for (const res of failed) {
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('provider_unavailable');
  }

  // Each failure is settled once its run is known (a describe and the shared record of the run): just after the answers.
  const leftOut = await eventually(
    async () => {
      const outcome = await sandboxOutcome(draftOrder());
      return outcome?.error?.code === 'provider_unavailable' ? outcome : undefined;
    },
    'the breaker to open',
    5000,
  );
  expect(leftOut.error.message).toMatch(/^left out: order creation failing, next probe in [1-3] s$/);

  const ordersBefore = simulator.orders.size;
  const asked = Date.now();
  const refused = await placed(late);
  expect(Date.now() - asked).toBeLessThan(2000);
  expect(refused.status).toBe(503);
  expect(refused.body.code).toBe('provider_unavailable');
  expect(refused.body.detail).toMatch(/out of service/);
  // The same request's other live offers, ranked, so that the customer can choose again at once.
  const alternatives = refused.body.alternatives as { provider_code: string; amount_from: string; ranking: { rank: number } }[];
  expect(alternatives.length).toBeGreaterThan(1);
  expect(alternatives.map((a) => a.provider_code)).not.toContain('sandbox');
  expect(alternatives.map((a) => a.ranking.rank)).toEqual(alternatives.map((_, i) => i + 1));
  expect(alternatives.every((a) => a.amount_from === late.from_amount)).toBe(true);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  // Refused before anything started: no workflow, and nothing at the provider.
  const { env } = started;
  const workflow = env.client.workflow.getHandle(
    orderWorkflowId(orderIdFor(started.stack.config.integrators[0]!.id, late.external_order_id)),
  );
  await expect(workflow.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  expect(simulator.orders.size).toBe(ordersBefore);
  // The first alternative takes the same request with its provider code.
  const other = await placed({ ...late, provider_code: alternatives[0]!.provider_code });
  expect(other.status).toBe(200);

  // The provider recovers; once the open time is over it is offered again, and its first order is the probe.
  simulator.faults.createErrorRate = 0;
  const probeDraft = draftOrder();
  await eventually(
    async () => ((await sandboxOutcome(probeDraft))?.error ? undefined : true),
    'the provider offered again',
    OPEN_MS + 5000,
  );
  const probe = await placed(probeDraft);
  expect(probe.status).toBe(200);
  expect(probe.body.status).toBe('created');
  // Closed: orders go through as before, several at once.
  const after = await Promise.all([offerThenOrder(apiUrl, draftOrder()), offerThenOrder(apiUrl, draftOrder())]);
  expect(after.map((res) => res.status)).toEqual([200, 200]);
  const offers = await fetchOffers(apiUrl, draftOrder());
  expect(offers.body.sandbox).toHaveProperty('amount_expected_to');
}, 120_000);
