/**
 * Issue 30, "no integrator can slow another": one integrator's searches take at most their budget
 * of Temporal's visibility store (ORDER_SEARCH_CALLS_PER_SECOND, ORDER_SEARCH_CALLS_BURST), however
 * many pages it asks for one after another: the concurrency cap alone let two searches run back to
 * back forever. Past the budget, a page is 429 rate_limited with the seconds to wait, another
 * integrator's search is answered, and after the wait the first is answered again.
 *
 * Real Temporal dev server and API; the visibility calls are counted at the client (counts and list
 * reads), not timed.
 */
import { WorkflowClient } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { sha256Hex } from '../../src/config/integrators';
import type { LocalStack } from '../../src/dev/local-stack';
import { rateLimitRefusals } from '../../src/metrics/metrics';
import { testConfig } from '../helpers/config';
import { callApi } from '../helpers/http';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const OTHER_KEY = 'obk_test_other_budget_00000000000000000000';
const PER_SECOND = 2;
const BURST = 12;

let env: TestWorkflowEnvironment;
let stack: LocalStack;

beforeAll(async () => {
  env = await startTemporal();
  const base = testConfig();
  stack = await startTestStack(env, {
    config: {
      integrators: [...base.integrators, { id: 'other', name: 'Other', api_key_sha256: [sha256Hex(OTHER_KEY)] }],
      orderSearchBudget: { perSecond: PER_SECOND, burst: BURST },
    },
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

const search = (apiKey?: string) => callApi(stack.apiUrl, '/api/on_ramp/orders?limit=5', { apiKey });

test('pages one after another spend the budget, then wait the seconds they are told; another integrator is answered', async () => {
  const counted = jest.spyOn(WorkflowClient.prototype, 'count');
  const listed = jest.spyOn(env.client.workflowService, 'listWorkflowExecutions');
  const calls = () => counted.mock.calls.length + listed.mock.calls.length;
  const budgetRefusals = async () =>
    (await rateLimitRefusals.get()).values.find((v) => v.labels.limiter === 'order_search_budget')?.value ?? 0;
  try {
    const refusalsBefore = await budgetRefusals();
    const started = Date.now();
    let refused: Awaited<ReturnType<typeof search>> | undefined;
    let answered = 0;
    for (let i = 0; i < 50 && !refused; i++) {
      const res = await search();
      if (res.status === 200) answered++;
      else refused = res;
    }
    const seconds = (Date.now() - started) / 1000;
    // Refused before 50 pages: a page over no orders still counts its way down to 1970 (several calls).
    expect(refused).toBeDefined();
    expect(answered).toBeGreaterThanOrEqual(1);
    expect(refused!.status).toBe(429);
    expect(refused!.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused!.body).toMatchObject({ status: 429, code: 'rate_limited' });
    // Counted with the other 429s, so the refusals alert sees a budget spent.
    expect(await budgetRefusals()).toBe(refusalsBefore + 1);
    const retryAfter = Number(refused!.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
    // What the pages cost the store: the burst, the refill meanwhile, and one page's overshoot (9 calls and its read).
    expect(calls()).toBeLessThanOrEqual(BURST + PER_SECOND * seconds + 10);

    // Another integrator's budget is its own.
    expect((await search(OTHER_KEY)).status).toBe(200);

    await new Promise((r) => setTimeout(r, retryAfter * 1000));
    expect((await search()).status).toBe(200);
  } finally {
    counted.mockRestore();
    listed.mockRestore();
  }
}, 120_000);
