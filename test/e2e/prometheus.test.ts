/**
 * A real Prometheus scrapes a running API, a worker process's metrics port (behind its token) and
 * the Temporal SDK exporter of that worker; the test drives orders through the broker and reads
 * the series back through Prometheus's HTTP API: orders created, status transitions, integrator
 * webhook attempts (one failed, then delivered), provider calls from the API and from the worker,
 * provider webhooks signalled, open orders counted from Temporal visibility, and the worker's pollers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { LocalStack } from '../../src/dev/local-stack';
import { orderWorkflowId, type OrderMemo } from '../../src/temporal/order-contract';
import { eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { checkout, draftOrder, offerThenOrder, waitForStatus } from '../helpers/orders';
import { freePort } from '../helpers/ports';
import { startPrometheus, type PrometheusServer } from '../helpers/prometheus';
import { startTestStack } from '../helpers/stack';
import { startTemporal, workflowBundle } from '../helpers/temporal';
import { WorkerProcess } from '../helpers/worker-process';

jest.setTimeout(180_000);

const TOKEN = 'worker-metrics-token-0123456789';
let dir: string;
let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: IntegratorReceiver;
let worker: WorkerProcess;
let prometheus: PrometheusServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'onramp-metrics-'));
  const bundlePath = join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, (await workflowBundle()).code);
  const temporalPort = await freePort();
  env = await startTemporal({ ip: '127.0.0.1', port: temporalPort });
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  const webhookUrl = await receiver.start();
  // The API and the simulators in this process; the worker in its own, as in production.
  stack = await startTestStack(env, { worker: false, env: { ONRAMP_WEBHOOK_URL: webhookUrl } });
  const [workerMetricsPort, sdkMetricsPort] = [await freePort(), await freePort()];
  worker = new WorkerProcess({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
    TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue,
    WORKFLOW_BUNDLE_PATH: bundlePath,
    SANDBOX_URL: stack.simulatorUrl,
    ONRAMP_WEBHOOK_URL: webhookUrl,
    METRICS_TOKEN: TOKEN,
    WORKER_METRICS_PORT: String(workerMetricsPort),
    TEMPORAL_SDK_METRICS_PORT: String(sdkMetricsPort),
    OPEN_ORDERS_METRICS_INTERVAL_SECONDS: '1',
  });
  await worker.start();
  prometheus = await startPrometheus([
    { job: 'onramp-api', target: new URL(stack.apiUrl).host },
    { job: 'onramp-worker', target: `127.0.0.1:${workerMetricsPort}`, bearerToken: TOKEN },
    { job: 'onramp-worker-temporal', target: `127.0.0.1:${sdkMetricsPort}` },
  ]);
});

afterAll(async () => {
  await prometheus?.stop();
  await worker?.stop();
  await stack?.stop();
  await receiver?.stop();
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

/** The value of a query that sums to one number (0 when it has no series), once it equals `expected`. */
async function expectValue(expr: string, expected: number, timeoutMs = 30_000): Promise<void> {
  let last: number | undefined;
  try {
    await eventually(
      async () => {
        const result = await prometheus.query(expr);
        last = result.reduce((sum, r) => sum + r.value, 0);
        return last === expected ? true : undefined;
      },
      expr,
      timeoutMs,
    );
  } catch {
    throw new Error(`${expr}: ${last} after ${timeoutMs} ms, expected ${expected}`);
  }
}

async function valueOf(expr: string): Promise<number> {
  return (await prometheus.query(expr)).reduce((sum, r) => sum + r.value, 0);
}

test('Prometheus scrapes all three targets', async () => {
  await expectValue('sum(up{job=~"onramp-.*"})', 3);
});

test('an order through its lifecycle moves the counters by what happened', async () => {
  // The integrator's endpoint fails the first webhook once; the worker retries it.
  receiver.answerNext({ status: 503 });
  const paid = await offerThenOrder(stack.apiUrl, draftOrder());
  expect(paid.status).toBe(200);
  expect((await checkout(paid.body.redirect_url, 'pay')).status).toBe(200);
  await waitForStatus(stack.apiUrl, 'sandbox', paid.body.id, 'complete', 60_000);
  const memo = (await env.client.workflow.getHandle(orderWorkflowId(paid.body.id)).describe()).memo as unknown as OrderMemo;
  await eventually(
    () => Promise.resolve(receiver.delivered(paid.body.id).length === memo.sequence ? true : undefined),
    'every webhook delivered',
    30_000,
  );

  // Orders and their transitions: counted by the worker, once each.
  await expectValue('sum(onramp_orders_created_total{job="onramp-worker", provider="sandbox"})', 1);
  await expectValue('sum(onramp_order_transitions_total{job="onramp-worker", provider="sandbox", to="complete"})', 1);
  await expectValue('sum(onramp_order_transitions_total{job="onramp-worker", provider="sandbox"})', memo.sequence - 1);
  expect(await valueOf('sum(onramp_order_transitions_total{from="created"})')).toBe(1);

  // Integrator webhooks: one failed attempt, then every status change delivered.
  await expectValue('sum(onramp_integrator_webhook_attempts_total{integrator="dev", outcome="failed"})', 1);
  await expectValue('sum(onramp_integrator_webhook_attempts_total{integrator="dev", outcome="delivered"})', memo.sequence);
  await expectValue('sum(onramp_integrator_webhooks_settled_total{integrator="dev", outcome="delivered"})', memo.sequence);
  await expectValue('sum(onramp_integrator_webhook_attempt_duration_seconds_count{integrator="dev"})', memo.sequence + 1);

  // Provider calls: quotes and catalogues from the API, the order's creation from the worker.
  expect(
    await valueOf('sum(onramp_provider_requests_total{job="onramp-api", provider="sandbox", operation="quote", outcome="ok"})'),
  ).toBeGreaterThanOrEqual(1);
  expect(
    await valueOf('sum(onramp_provider_requests_total{job="onramp-api", provider="sandbox", operation="catalogue"})'),
  ).toBeGreaterThanOrEqual(1);
  await expectValue('sum(onramp_provider_requests_total{job="onramp-worker", provider="sandbox", operation="create", outcome="ok"})', 1);
  expect(await valueOf('sum(onramp_provider_request_duration_seconds_count{job="onramp-worker", operation="create"})')).toBe(1);

  // Offers and HTTP: by route template, and the sandbox's webhooks signalled to the order.
  expect(await valueOf('sum(onramp_offer_outcomes_total{provider="sandbox", reason="ok"})')).toBe(1);
  expect(await valueOf('sum(onramp_offers_per_request_count)')).toBe(1);
  expect(await valueOf('sum(onramp_http_requests_total{route="/api/on_ramp/orders", method="POST", status_class="2xx"})')).toBe(1);
  // Eventually: the API's own scrape may predate the webhooks although the worker's already counts their changes.
  await eventually(
    async () => ((await valueOf('sum(onramp_provider_webhooks_signalled_total{provider="sandbox"})')) >= 1 ? true : undefined),
    'the sandbox webhooks signalled, in a scrape of the API',
    30_000,
  );
  expect(await valueOf('sum(onramp_provider_webhooks_received_total{provider="sandbox"})')).toBeGreaterThanOrEqual(
    await valueOf('sum(onramp_provider_webhooks_signalled_total{provider="sandbox"})'),
  );
});

test('an unpaid order is an open order of its status, counted from visibility', async () => {
  const unpaid = await offerThenOrder(stack.apiUrl, draftOrder());
  expect(unpaid.status).toBe(200);
  await expectValue('sum(onramp_orders_created_total{job="onramp-worker"})', 2);
  await expectValue(
    `sum(onramp_open_orders{job="onramp-worker", provider="sandbox", status="${unpaid.body.status}", age_bucket="under_1h"})`,
    1,
  );
  // The completed order's workflow has closed: it is no open order.
  await expectValue('sum(onramp_open_orders{job="onramp-worker", status="complete"})', 0);
  expect(await valueOf('time() - max(onramp_open_orders_counted_timestamp_seconds)')).toBeLessThan(30);
});

test("the worker's Temporal SDK metrics: it polls, and the not-polling alert's expression is quiet", async () => {
  expect(await valueOf('sum(temporal_num_pollers{job="onramp-worker-temporal", poller_type="workflow_task"})')).toBeGreaterThan(0);
  expect(await prometheus.query('absent(temporal_num_pollers{poller_type="workflow_task"} > 0)')).toEqual([]);
  expect(await valueOf('sum(temporal_worker_task_slots_available{job="onramp-worker-temporal"})')).toBeGreaterThan(0);
});
