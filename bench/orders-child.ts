/**
 * Child-process entry of `npm run bench:orders` for what is not a broker process (the broker's API and
 * worker run from their own production entries, src/api/main.ts and src/worker/main.ts):
 *
 *   sim            the provider simulators (createSimulatorHost) with no settle delay, on SIMULATOR_PORT,
 *                  posting webhooks to BROKER_URL; they stand for the providers' own servers
 *   bench-workers  one Temporal worker on BENCH_QUEUE for the baseline and the floor workflows
 *                  (bench/baseline/workflows.ts, bundled by the parent into BENCH_BUNDLE_PATH),
 *                  connected to TEMPORAL_ADDRESS
 *
 * Stops on SIGTERM or SIGINT; bench/lib/order-children.ts starts and stops them.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

async function sim(): Promise<() => Promise<void>> {
  const [{ createSimulatorHost }, { sandboxCredentials }, { parseSimulatorEnv }] = await Promise.all([
    import('../src/simulators'),
    import('../src/config'),
    import('../src/config/simulator-env'),
  ]);
  const env = parseSimulatorEnv();
  const host = createSimulatorHost({
    sandbox: sandboxCredentials(env),
    secret: env.SIMULATOR_SECRET,
    brokerUrl: env.BROKER_URL.replace(/\/+$/, ''),
    publicUrl: `http://127.0.0.1:${env.SIMULATOR_PORT}`,
    settleDelayMs: 0,
  });
  const server = createServer(host.app);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(env.SIMULATOR_PORT, '127.0.0.1', resolve));
  return async () => {
    host.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

async function benchWorkers(): Promise<() => Promise<void>> {
  const [{ DefaultLogger, NativeConnection, Runtime, Worker }, { createBaselineActivities }] = await Promise.all([
    import('@temporalio/worker'),
    import('./baseline/activities'),
  ]);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    taskQueue: process.env.BENCH_QUEUE!,
    workflowBundle: { code: readFileSync(process.env.BENCH_BUNDLE_PATH!, 'utf8') },
    activities: createBaselineActivities(),
  });
  const running = worker.run();
  return async () => {
    worker.shutdown();
    await running;
    await connection.close();
  };
}

const role = process.argv[2];
(role === 'sim' ? sim() : role === 'bench-workers' ? benchWorkers() : Promise.reject(new Error(`unknown role ${role}`))).then(
  (stop) => {
    const onSignal = () =>
      void stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    process.once('SIGTERM', onSignal).once('SIGINT', onSignal);
    process.stderr.write(`[bench:orders] ${role} ready\n`);
  },
  (err: unknown) => {
    process.stderr.write(`${role}: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
