/**
 * `npm run bench:orders`: order throughput through the whole broker against a baseline workflow of
 * the same Temporal shape, on the same dev server in the same run. Prints a table; the last line of
 * stdout is one JSON object (bench/README.md).
 */
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { ensureTemporalCli } from '../scripts/lib/temporal-cli';
import { buildConfig, parseEnv } from '../src/config';
import { DEFAULT_DEV_API_KEY } from '../src/config/env';
import { startLocalStack, type LocalStack } from '../src/dev/local-stack';
import { createLogger } from '../src/logging';
import { ORDER_SEARCH_ATTRIBUTES } from '../src/temporal/shared';
import { WORKFLOW_BUNDLE_OPTIONS } from '../src/worker/build';
import { createBaselineActivities } from './baseline/activities';
import { baselineCreateUpdate, baselineEventSignal, baselineWorkflow } from './baseline/workflow';
import { payAtCheckout } from './lib/checkout';
import { CompletionReceiver } from './lib/completion-receiver';
import { percentile, runConcurrently, type Run } from './lib/concurrency';
import { median, renderTable, round } from './lib/table';

const LIFECYCLES = Number(process.env.BENCH_ORDERS_LIFECYCLES ?? 150);
const CREATES = Number(process.env.BENCH_ORDERS_CREATES ?? 150);
const CONCURRENCY = Number(process.env.BENCH_ORDERS_CONCURRENCY ?? 20);
const ROUNDS = Number(process.env.BENCH_ORDERS_ROUNDS ?? 2);
const BASELINE_QUEUE = 'bench-baseline';
/** The provider webhooks a paid sandbox order sends: awaiting payment, payment received, completed. */
const PROVIDER_SIGNALS = 3;

const progress = (message: string) => process.stderr.write(`[bench:orders] ${message}\n`);

async function api<T>(stack: LocalStack, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': DEFAULT_DEV_API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const ORDER = {
  provider_code: 'sandbox',
  from_currency: 1,
  to_currency: 13,
  from_amount: '100.00',
  payment_method: 'card',
  country_code: 'GB',
};
const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

/** Asks for offers so that orders of `user` have a live one to match (offers live 120 s). */
async function offerFor(stack: LocalStack, user: string): Promise<void> {
  const query = new URLSearchParams({
    external_user_id: user,
    currency_from: '1',
    currency_to: '13',
    amount_from: ORDER.from_amount,
    country: ORDER.country_code,
    payment_method: ORDER.payment_method,
    provider_codes: 'sandbox',
  });
  const offers = await api<Record<string, unknown>>(stack, `/api/on_ramp/offers?${query.toString()}`);
  if (!offers.sandbox) throw new Error(`no sandbox offer: ${JSON.stringify(offers)}`);
}

async function createOrder(stack: LocalStack, user: string): Promise<{ id: string; redirect_url: string }> {
  return api<{ id: string; redirect_url: string }>(stack, '/api/on_ramp/orders', {
    ...ORDER,
    wallet_address: WALLET,
    external_user_id: user,
    external_order_id: `bench-${randomUUID()}`,
  });
}

async function brokerLifecycles(stack: LocalStack, receiver: CompletionReceiver, count: number): Promise<Run> {
  const user = `bench-${randomUUID()}`;
  await offerFor(stack, user);
  return runConcurrently(count, CONCURRENCY, async () => {
    const order = await createOrder(stack, user);
    const completed = receiver.completed(order.id);
    await payAtCheckout(order.redirect_url);
    await completed;
  });
}

async function baselineLifecycles(env: TestWorkflowEnvironment, count: number): Promise<Run> {
  return runConcurrently(count, CONCURRENCY, async () => {
    const start = new WithStartWorkflowOperation(baselineWorkflow, {
      workflowId: `bench-baseline-${randomUUID()}`,
      taskQueue: BASELINE_QUEUE,
      args: [PROVIDER_SIGNALS],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    await env.client.workflow.executeUpdateWithStart(baselineCreateUpdate, { startWorkflowOperation: start });
    const handle = await start.workflowHandle();
    for (let i = 0; i < PROVIDER_SIGNALS; i++) await handle.signal(baselineEventSignal, `event-${i}`);
    await handle.result();
  });
}

async function creates(stack: LocalStack, count: number): Promise<Run> {
  const user = `bench-${randomUUID()}`;
  await offerFor(stack, user);
  return runConcurrently(count, CONCURRENCY, async () => void (await createOrder(stack, user)));
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const cli = process.env.TEMPORAL_CLI_PATH ?? ensureTemporalCli();
  progress('starting the Temporal dev server and bundling workflows');
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: cli }, searchAttributes: [...ORDER_SEARCH_ATTRIBUTES] },
  });
  const receiver = new CompletionReceiver();
  const webhookUrl = await receiver.start();
  const quiet = new DefaultLogger('ERROR');
  const [orderBundle, baselineBundle] = await Promise.all([
    bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: quiet }),
    bundleWorkflowCode({ workflowsPath: require.resolve('./baseline/workflow'), logger: quiet }),
  ]);
  const config = buildConfig(
    parseEnv({
      NODE_ENV: 'development',
      LOG_LEVEL: 'silent',
      ONRAMP_WEBHOOK_URL: webhookUrl,
      RATE_LIMIT_REQUESTS: '0',
      RATE_LIMIT_IP_REQUESTS: '0',
    }),
  );
  const stack = await startLocalStack({
    config: { ...config, temporal: { ...config.temporal, taskQueue: 'bench-orders' } },
    client: env.client,
    connection: env.nativeConnection,
    logger: createLogger('silent', 'bench'),
    settleDelayMs: 0,
    workflowBundle: orderBundle,
  });
  const baselineWorker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: BASELINE_QUEUE,
    workflowBundle: baselineBundle,
    activities: createBaselineActivities(),
  });
  const baselineRunning = baselineWorker.run();

  try {
    progress('warming up');
    await baselineLifecycles(env, CONCURRENCY);
    await brokerLifecycles(stack, receiver, CONCURRENCY);

    const baseline: Run[] = [];
    const broker: Run[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      progress(`round ${round}/${ROUNDS}: baseline`);
      baseline.push(await baselineLifecycles(env, LIFECYCLES));
      progress(`round ${round}/${ROUNDS}: broker`);
      broker.push(await brokerLifecycles(stack, receiver, LIFECYCLES));
    }
    progress('order creation');
    const created = await creates(stack, CREATES);

    const perSecond = (runs: Run[]) => median(runs.map((r) => r.count / r.seconds));
    const all = (runs: Run[]) => runs.flatMap((r) => r.latenciesMs);
    const lifecyclePerS = perSecond(broker);
    const baselinePerS = perSecond(baseline);
    const rows: (string | number)[][] = [
      ['baseline lifecycle', ROUNDS * LIFECYCLES, CONCURRENCY, baselinePerS, percentile(all(baseline), 50), percentile(all(baseline), 99)],
      ['broker lifecycle', ROUNDS * LIFECYCLES, CONCURRENCY, lifecyclePerS, percentile(all(broker), 50), percentile(all(broker), 99)],
      [
        'order creation',
        CREATES,
        CONCURRENCY,
        created.count / created.seconds,
        percentile(created.latenciesMs, 50),
        percentile(created.latenciesMs, 99),
      ],
    ];
    process.stdout.write(`${renderTable(['run', 'count', 'concurrency', 'per s', 'p50 ms', 'p99 ms'], rows)}\n\n`);
    process.stdout.write(
      `${JSON.stringify({
        create_per_s: round(created.count / created.seconds, 2),
        create_p50_ms: round(percentile(created.latenciesMs, 50), 1),
        create_p99_ms: round(percentile(created.latenciesMs, 99), 1),
        lifecycle_per_s: round(lifecyclePerS, 2),
        baseline_lifecycle_per_s: round(baselinePerS, 2),
        lifecycle_ratio: round(lifecyclePerS / baselinePerS, 3),
      })}\n`,
    );
  } finally {
    baselineWorker.shutdown();
    await baselineRunning;
    await stack.stop();
    await receiver.stop();
    await env.teardown();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
