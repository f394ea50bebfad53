/**
 * Issue 30, "no integrator can slow another": a burst of one integrator's requests is worked on a
 * few at a time, so that it never takes the API process's event loop, or the providers, from the
 * others at once. The real API over HTTP, the simulated providers over HTTP, two integrators.
 * Integrator A sends 60 offers requests at once (distinct amounts: nothing is shared) to a slow
 * sandbox provider; the simulator counts the quote calls it holds at once. With A's admission at
 * 4 requests, it never holds more than A's 4 requests' calls, while B's offers go straight in.
 */
import type { SimulatorHost } from '../../src/simulators';
import { callApi } from '../helpers/http';
import { BTC, USD } from '../helpers/orders';
import { startTwoIntegratorStack, type TwoIntegratorStack } from '../helpers/two-integrators';

const A_KEY = 'obk_test_admission_burst_a_0000000000000000';
const B_KEY = 'obk_test_admission_quiet_b_0000000000000000';
const LATENCY_MS = 300;
const ADMITTED = 4;
const BURST = 60;

let stack: TwoIntegratorStack;
let apiUrl: string;
let host: SimulatorHost;
/** Quote calls the simulator is answering now, and the most it answered at once. */
let quoting = 0;
let mostQuoting = 0;

beforeAll(async () => {
  stack = await startTwoIntegratorStack(
    { a: A_KEY, b: B_KEY },
    { integratorAdmission: { concurrency: ADMITTED, queued: 1000 } },
    (req, res) => {
      if (req.url?.includes('/quotes')) {
        quoting++;
        mostQuoting = Math.max(mostQuoting, quoting);
        res.once('close', () => quoting--);
      }
    },
  );
  ({ apiUrl, host } = stack);
});

afterAll(() => stack?.stop());

type Answer = { ms: number; doneAt: number; status: number; body: Record<string, unknown> };

async function offers(key: string, amount: string): Promise<Answer> {
  const query = new URLSearchParams({
    provider_codes: 'sandbox',
    external_user_id: 'user-1',
    currency_from: String(USD),
    currency_to: String(BTC),
    amount_from: amount,
    country: 'GB',
    payment_method: 'card',
  });
  const started = performance.now();
  const res = await callApi(apiUrl, `/api/on_ramp/offers?${query.toString()}`, { apiKey: key });
  const doneAt = performance.now();
  return { ms: doneAt - started, doneAt, status: res.status, body: res.body as Record<string, unknown> };
}

test("A's burst is worked on a few requests at a time, and B's offers go straight in", async () => {
  expect((await offers(B_KEY, '100')).body.sandbox).toBeDefined();
  host.get('sandbox').faults.latencyMs = LATENCY_MS;
  await offers(B_KEY, '101');
  mostQuoting = 0;

  const burst = Array.from({ length: BURST }, (_, i) => offers(A_KEY, `${300 + i}.5`));
  await new Promise((r) => setTimeout(r, LATENCY_MS));
  const b = await offers(B_KEY, '102');
  const answers = await Promise.all(burst);

  // One quote call per request (one method): never more than A's admitted requests, plus B's one.
  expect(mostQuoting).toBeLessThanOrEqual(ADMITTED + 1);
  // Every one of A's requests is answered in its turn; none is refused (the line holds them all).
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  expect(answers.filter((a) => a.body.sandbox !== undefined).length).toBeGreaterThan(BURST / 2);
  // B did not wait behind A's line: it was answered while most of A's line still waited. An order
  // of answers, not a time: a loaded CI machine slows both alike (a wall-clock bound was flaky).
  expect(b.body.sandbox).toBeDefined();
  const answeredBeforeB = answers.filter((a) => a.doneAt < b.doneAt).length;
  expect(answeredBeforeB).toBeLessThan(BURST / 2);
}, 60_000);
