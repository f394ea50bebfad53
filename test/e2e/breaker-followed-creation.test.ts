/**
 * The provider breaker and the ranking's refusals when a failing creation outlasts the API's answer
 * (the default ORDER_CREATE_TIMEOUT_SECONDS is shorter than the workflow's creation attempts
 * against a provider answering 5xx), and when the request is repeated: each creation is followed to
 * its end in the background and counted once, however many requests joined it.
 */
import { callApi, eventually } from '../helpers/http';
import { draftOrder, offersQuery, offerThenOrder, type OrderDraft } from '../helpers/orders';
import { useTestStack } from '../helpers/stack';

const started = useTestStack({
  config: {
    // Far shorter than the ~31 s the workflow spends on a provider that answers 503.
    orderCreateTimeoutMs: 3000,
    providerBreaker: { failures: 2, failureRate: 0.5, window: 4, openMs: 600_000, probes: 1 },
  },
});

const sandboxOutcome = async (draft: OrderDraft) =>
  (await callApi(started.stack.apiUrl, `/api/on_ramp/offers?${offersQuery(draft)}&include_errors=true`)).body.sandbox;

const placed = (draft: OrderDraft) => callApi(started.stack.apiUrl, '/api/on_ramp/orders', { body: draft });

const refusedAtSandbox = async () => (await started.stack.ranking.store.snapshot()).levels.get('sandbox')?.refused ?? 0;

test('one failing creation, asked three times, is one failure and one refusal; a second opens the breaker', async () => {
  started.stack.simulator.faults.createErrorRate = 1;
  const draft = draftOrder();
  const first = await offerThenOrder(started.stack.apiUrl, draft);
  // The answer does not wait for the creation's attempts.
  expect(first.status).toBe(503);
  expect(first.body.code).toBe('service_unavailable');
  const repeats = await Promise.all([placed(draft), placed(draft)]);
  for (const res of repeats) expect(res.status).toBe(503);

  // Followed to its end: one refusal recorded, and still offered (one failure is under the threshold of two).
  await eventually(async () => ((await refusedAtSandbox()) >= 0.99 ? true : undefined), 'the refusal recorded', 60_000);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(await refusedAtSandbox()).toBeCloseTo(1, 3);
  expect(await sandboxOutcome(draftOrder())).toHaveProperty('amount_expected_to');
  // Now asked again, the failed order answers its rejection; that is no new failure either.
  expect((await placed(draft)).status).toBe(503);
  expect(await sandboxOutcome(draftOrder())).toHaveProperty('amount_expected_to');

  // Another order's creation fails too: two failures, the breaker opens.
  const second = await offerThenOrder(started.stack.apiUrl, draftOrder());
  expect(second.status).toBe(503);
  const leftOut = await eventually(
    async () => {
      const outcome = await sandboxOutcome(draftOrder());
      return outcome?.error?.code === 'provider_unavailable' ? outcome : undefined;
    },
    'the breaker to open',
    60_000,
  );
  expect(leftOut.error.message).toMatch(/^left out: order creation failing/);
  expect(await refusedAtSandbox()).toBeCloseTo(2, 3);
}, 150_000);
