/**
 * The simulator switches that play customers and providers badly, on every provider, through the
 * real API, workflows, adapters and simulators: `completionRate` decides whether a payment at the
 * provider's checkout goes through (else the order fails as the checkout's `fail` makes it), and
 * `createErrorRate` / `createRejectRate` fail the calls each adapter makes to create an order,
 * while quotes answer as usual.
 */
import type { ProviderCode } from '../../src/providers/manifest';
import type { SimulatorFaults } from '../../src/simulators/kit/faults';
import { checkout, draftOrder, offerThenOrder, waitForStatus, type OrderDraft } from '../helpers/orders';
import { JOURNEYS, journeyOrder } from '../helpers/provider-journeys';
import { useTestStack } from '../helpers/stack';

const started = useTestStack({ config: { orderCreateTimeoutMs: 60_000 } });

const PROVIDERS: readonly { code: ProviderCode; draft: () => OrderDraft }[] = [
  { code: 'sandbox', draft: () => draftOrder() },
  ...JOURNEYS.map((journey) => ({ code: journey.code, draft: () => journeyOrder(journey) })),
];
const CODES = PROVIDERS.map((p) => p.code);

/** The providers whose adapter makes no call to create an order (a signed widget URL is the order): nothing to fail. */
const NO_CREATION_CALL: readonly ProviderCode[] = ['mercuryo', 'onramp_money', 'ramp'];

function switchAll(faults: Partial<SimulatorFaults>): void {
  for (const code of CODES) Object.assign(started.stack.simulators.get(code).faults, faults);
}

afterEach(() => switchAll({ completionRate: 1, createErrorRate: 0, createRejectRate: 0 }));

/** Each provider's outcome, by its code (every provider at once: the switches are each simulator's own). */
async function byProvider<T>(outcome: (provider: (typeof PROVIDERS)[number]) => Promise<T>): Promise<Record<string, T>> {
  return Object.fromEntries(await Promise.all(PROVIDERS.map(async (p) => [p.code, await outcome(p)] as const)));
}

const everyProvider = <T>(value: (code: ProviderCode) => T) => Object.fromEntries(CODES.map((code) => [code, value(code)]));

/** An order of `draft` made, its checkout opened and paid; the broker's status once it is `until`, and the checkout's answer. */
async function paidOrder(code: ProviderCode, draft: OrderDraft, action: string, until: string) {
  const { apiUrl } = started.stack;
  const created = await offerThenOrder(apiUrl, draft);
  if (created.status !== 200) throw new Error(`${code}: order not created: ${created.status} ${JSON.stringify(created.body)}`);
  const url = created.body.redirect_url as string;
  expect((await fetch(url)).status).toBe(200);
  const answer = await checkout(url, action);
  const order = await waitForStatus(apiUrl, code, created.body.id, until, 20_000);
  return { checkout: answer.status, status: order.status as string, answered: answer.body };
}

/** The status a checkout answer reports, wherever the provider's answer puts it. */
const answeredStatus = (body: Record<string, any>): unknown => body.status ?? body.state ?? body.data?.status;

test('with completionRate 1 a paid order completes at every provider', async () => {
  switchAll({ completionRate: 1 });
  const outcomes = await byProvider(async ({ code, draft }) => (await paidOrder(code, draft(), 'pay', 'complete')).status);
  expect(outcomes).toEqual(everyProvider(() => 'complete'));
}, 90_000);

test("with completionRate 0 a paid order fails at every provider, answered as the checkout's fail", async () => {
  const failed = await byProvider(async ({ code, draft }) => paidOrder(code, draft(), 'fail', 'failed'));
  switchAll({ completionRate: 0 });
  const paid = await byProvider(async ({ code, draft }) => paidOrder(code, draft(), 'pay', 'failed'));
  expect(everyProvider((code) => paid[code]!.status)).toEqual(everyProvider(() => 'failed'));
  expect(everyProvider((code) => paid[code]!.checkout)).toEqual(everyProvider(() => 200));
  const failedAnswers = everyProvider((code) => answeredStatus(failed[code]!.answered));
  expect(Object.values(failedAnswers)).not.toContain(undefined);
  expect(everyProvider((code) => answeredStatus(paid[code]!.answered))).toEqual(failedAnswers);
}, 90_000);

/** Each provider's answer to an order placed on its offer (offerThenOrder throws when there is no offer). */
const creationOutcomes = () =>
  byProvider(async ({ draft }) => {
    const res = await offerThenOrder(started.stack.apiUrl, draft());
    return res.status === 200 ? 'created' : `${res.status} ${res.body.code}`;
  });

test('with createRejectRate 1 order creation is refused (provider_rejected) where the adapter makes a call; offers still answer', async () => {
  switchAll({ createRejectRate: 1 });
  const outcomes = await creationOutcomes();
  expect(outcomes).toEqual(everyProvider((code) => (NO_CREATION_CALL.includes(code) ? 'created' : '422 provider_rejected')));
}, 60_000);

test('with createErrorRate 1 order creation fails (provider_unavailable) where the adapter makes a call; offers still answer', async () => {
  switchAll({ createErrorRate: 1 });
  // Each failing creation runs out of attempts (about 31 s of backoff); all at once.
  const outcomes = await creationOutcomes();
  expect(outcomes).toEqual(everyProvider((code) => (NO_CREATION_CALL.includes(code) ? 'created' : '503 provider_unavailable')));
}, 90_000);
