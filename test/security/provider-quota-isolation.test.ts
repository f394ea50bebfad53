/**
 * Issue 30, item 6: one integrator's burst of offers must not take a provider away from another.
 * The real API over HTTP, the simulated providers over HTTP, two integrators with their own keys.
 * The sandbox provider is slow (it answers every quote in LATENCY_MS); integrator A spends its whole
 * rate limit at once on distinct amounts (no two calls can be shared), far more calls than the
 * provider's quote cap lets through in a deadline. Meanwhile integrator B asks for offers now and
 * then: each answer must still carry the sandbox provider's offer (not `timeout`, neither its own
 * nor "left out: timed out in recent requests"), within about one provider latency.
 */
import type { SandboxSimulator } from '../../src/simulators/sandbox/server';
import { callApi } from '../helpers/http';
import { BTC, USD } from '../helpers/orders';
import { startTwoIntegratorStack, type TwoIntegratorStack } from '../helpers/two-integrators';

const A_KEY = 'obk_test_quota_burst_a_000000000000000000';
const B_KEY = 'obk_test_quota_quiet_b_00000000000000000';
/** The slow provider's latency, the quote cap per provider, and A's rate limit (its whole burst). */
const LATENCY_MS = 500;
const CONCURRENCY = 16;
const RATE_LIMIT = 120;
/**
 * B also asks a healthy provider, so that a sandbox turned slow would be left out of B's answers
 * (when every provider asked is slow, all are asked); A asks the sandbox alone.
 */
const B_PROVIDERS = 'sandbox,transak';

let stack: TwoIntegratorStack;
let simulator: SandboxSimulator;
let apiUrl: string;

beforeAll(async () => {
  stack = await startTwoIntegratorStack(
    { a: A_KEY, b: B_KEY },
    {
      providerQuoteConcurrency: CONCURRENCY,
      rateLimit: { limit: RATE_LIMIT, windowMs: 60_000 },
      // B's deadline is at least three latencies, so that a pause of a busy machine (CI runs other
      // suites beside this one) does not cut B off; waiting behind A's queue still would.
      offersDeadline: { multiplier: 2, floorMs: 3 * LATENCY_MS },
      // The provider's cap alone is under test: A's whole burst reaches it at once, as without admission.
      integratorAdmission: { concurrency: 0, queued: 1 },
    },
  );
  apiUrl = stack.apiUrl;
  simulator = stack.host.get('sandbox');
});

afterAll(() => stack?.stop());

interface Asked {
  ms: number;
  status: number;
  body: Record<string, { error?: { code: string; message: string }; amount_expected_to?: string }>;
}

/** One offers request of `key`'s integrator (B's or A's providers) for `amount` USD of BTC in GB, errors included, timed. */
async function offers(key: string, amount: string): Promise<Asked> {
  const query = new URLSearchParams({
    provider_codes: key === B_KEY ? B_PROVIDERS : 'sandbox',
    external_user_id: 'user-1',
    currency_from: String(USD),
    currency_to: String(BTC),
    amount_from: amount,
    country: 'GB',
    include_errors: 'true',
  });
  const started = performance.now();
  const res = await callApi(apiUrl, `/api/on_ramp/offers?${query.toString()}`, { apiKey: key });
  return { ms: performance.now() - started, status: res.status, body: res.body };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("A's burst at its rate limit against a slow provider leaves B that provider's quotes, in about its latency", async () => {
  // Catalogues load fast; then the sandbox turns slow and B's answers teach it its deadline (the 1.5 s floor).
  expect((await offers(B_KEY, '100')).body.sandbox?.amount_expected_to).toBeDefined();
  simulator.faults.latencyMs = LATENCY_MS;
  // Six at a time: two calls each (the sandbox quotes two methods), within B's share of the cap.
  for (let round = 0; round < 4; round++) {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => offers(B_KEY, `${110 + round * 10 + i}`)));
    for (const answer of answers) expect(answer.body.sandbox?.error).toBeUndefined();
  }
  const alone: Asked[] = [];
  for (let i = 0; i < 3; i++) alone.push(await offers(B_KEY, `${200 + i}`));
  for (const answer of alone) expect(answer.body.sandbox?.amount_expected_to).toBeDefined();

  // A spends its whole rate limit at once, each request a distinct amount (nothing to share).
  const burst = Array.from({ length: RATE_LIMIT }, (_, i) => offers(A_KEY, `${300 + i}.5`));
  const during: Asked[] = [];
  for (let i = 0; i < 8; i++) {
    await sleep(400);
    during.push(await offers(B_KEY, `${210 + i}`));
  }
  const aAnswers = await Promise.all(burst);

  // The burst did overload the provider's cap: most of A's requests timed out waiting for a slot.
  expect(aAnswers.every((a) => a.status === 200)).toBe(true);
  const aTimeouts = aAnswers.filter((a) => a.body.sandbox?.error?.code === 'timeout').length;
  expect(aTimeouts).toBeGreaterThan(RATE_LIMIT / 2);

  // Each of B's answers has the sandbox offer: not a timeout (waiting behind A's queue of hundreds
  // of calls would cost a whole deadline), not "left out" (A's waits did not make it slow).
  const seen = during.map((b) => `${b.status} ${b.body.sandbox?.error?.message ?? 'offer'}`);
  expect(seen).toEqual(during.map(() => '200 offer'));
  // In about one provider latency, as alone: the median within 1.5 times B's alone (the machine is
  // busy with A's burst, and a pause of the process now and then slows every provider alike).
  const median = (answers: Asked[]) => answers.map((a) => a.ms).sort((x, y) => x - y)[Math.floor(answers.length / 2)]!;
  expect(median(during)).toBeLessThan(1.5 * median(alone) + 100);
}, 90_000);
