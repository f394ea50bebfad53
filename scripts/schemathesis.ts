/**
 * Schemathesis against a full local stack: a fresh in-memory Temporal dev server, the API on
 * 127.0.0.1 with the simulated providers and an order worker (so orders really run), then
 * `schemathesis run` on the served /api/openapi.json, every phase including the stateful one (the
 * document's links chain offers → orders → status). Exits with schemathesis's code and stops
 * everything it started, on success, failure or a signal.
 *
 * Run it through scripts/schemathesis.sh (`npm run test:schemathesis`), which finds schemathesis and
 * the temporal CLI and passes them in ST_PYTHON and TEMPORAL_CLI_PATH. Arguments after the script
 * name go to `schemathesis run` (e.g. `--max-examples 5`, `--include-path-regex offers`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../src/config';
import { DEFAULT_DEV_API_KEY } from '../src/config/env';
import { startLocalStack, type LocalStack } from '../src/dev/local-stack';
import { createLogger } from '../src/logging';
import { ORDER_SEARCH_ATTRIBUTES } from '../src/temporal/order-contract';

const log = (message: string) => process.stderr.write(`[schemathesis] ${message}\n`);

const MAX_EXAMPLES = process.env.ST_MAX_EXAMPLES ?? '100';
const REPORT_DIR = resolve(__dirname, '..', 'reports', 'schemathesis');

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run scripts/schemathesis.sh`);
  return value;
}

let temporal: TestWorkflowEnvironment | undefined;
let stack: LocalStack | undefined;
let schemathesis: ChildProcess | undefined;
let stopping: Promise<void> | undefined;

/** Stops what was started, newest first; safe to call more than once. */
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    if (schemathesis && schemathesis.exitCode === null && schemathesis.signalCode === null) {
      const exited = new Promise((r) => schemathesis!.once('exit', r));
      schemathesis.kill('SIGTERM');
      const timer = setTimeout(() => schemathesis?.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await stack?.stop().catch((err: unknown) => log(`stopping the stack: ${(err as Error).message}`));
    await temporal?.teardown().catch((err: unknown) => log(`stopping Temporal: ${(err as Error).message}`));
  })();
  return stopping;
}

async function main(): Promise<number> {
  const cli = required('TEMPORAL_CLI_PATH');
  const python = required('ST_PYTHON');
  const started = Date.now();
  Runtime.install({ logger: new DefaultLogger('ERROR') });

  log('starting a Temporal dev server (in memory)');
  temporal = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cli },
      ip: '127.0.0.1',
      searchAttributes: [...ORDER_SEARCH_ATTRIBUTES],
      log: { format: 'pretty', level: 'error' },
    },
  });

  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    // Schemathesis sends a few thousand requests a minute; rate limiting is tested elsewhere.
    RATE_LIMIT_REQUESTS: '1000000',
    RATE_LIMIT_IP_REQUESTS: '1000000',
  });
  log('starting the API, the simulated providers and an order worker');
  stack = await startLocalStack({
    config,
    client: temporal.client,
    connection: temporal.nativeConnection,
    logger: createLogger('silent', 'schemathesis'),
    host: '127.0.0.1',
    apiPort: 0,
    simulatorPort: 0,
    settleDelayMs: 50,
  });
  log(`stack ready in ${((Date.now() - started) / 1000).toFixed(1)}s: API ${stack.apiUrl}`);

  mkdirSync(REPORT_DIR, { recursive: true });
  // A report left by an earlier run must not be counted as this one's.
  rmSync(resolve(REPORT_DIR, 'junit.xml'), { force: true });
  const args = [
    '-c',
    'import sys; from schemathesis.cli import schemathesis; sys.argv[0] = "st"; sys.exit(schemathesis())',
    'run',
    `${stack.apiUrl}/api/openapi.json`,
    '--header',
    `X-Api-Key: ${DEFAULT_DEV_API_KEY}`,
    '--checks',
    'not_a_server_error,response_schema_conformance',
    // The stateful phase follows the document's links (offers → createOrder → getOrder), so
    // sequences are fuzzed too: an order made from a live offer, then its status.
    '--phases',
    'examples,coverage,fuzzing,stateful',
    '--max-examples',
    MAX_EXAMPLES,
    '--seed',
    '42',
    '--workers',
    '1',
    '--request-timeout',
    '10',
    // No example database in the working tree: every run is the seeded one.
    '--generation-database',
    'none',
    '--report',
    'junit',
    '--report-junit-path',
    resolve(REPORT_DIR, 'junit.xml'),
    '--no-color',
    ...process.argv.slice(2),
  ];
  log(`st ${args.slice(2).join(' ')}`);
  // Run from the report directory: schemathesis keeps the failures it found (for `st replay`) in
  // .schemathesis/ under its working directory, git-ignored there with the reports.
  schemathesis = spawn(python, args, { stdio: ['inherit', 'pipe', 'inherit'], cwd: REPORT_DIR });
  const output = createInterface({ input: schemathesis.stdout! });
  output.on('line', (line) => process.stdout.write(`${withoutClosingBanner(line)}\n`));
  const drained = once(output, 'close');
  const code = await new Promise<number>((resolveCode) => {
    schemathesis!.once('exit', (exitCode, signal) => resolveCode(exitCode ?? (signal ? 128 : 1)));
    schemathesis!.once('error', (err) => {
      log(`could not run schemathesis: ${err.message}`);
      resolveCode(2);
    });
  });
  await drained;
  const counts = junitCounts(resolve(REPORT_DIR, 'junit.xml'));
  if (counts) process.stdout.write(`schemathesis: ${counts.passed} passed, ${counts.failed} failed\n`);
  log(`schemathesis exited with ${code} after ${((Date.now() - started) / 1000).toFixed(1)}s; report in reports/schemathesis/junit.xml`);
  return code;
}

/**
 * Schemathesis closes with a pytest-style banner ("=== 3 warnings in 43.27s ===") that carries no
 * pass count; CI log readers take such a line for a pytest run that executed nothing. It is printed
 * as a plain line instead, and the counts follow from the JUnit report (`junitCounts`).
 */
function withoutClosingBanner(line: string): string {
  const banner = /^=+ (.+ (?:in|after) \d+\.\d+s|Empty test suite) =+$/.exec(line);
  return banner ? `[schemathesis] finished: ${banner[1]}` : line;
}

/** Operations passed and failed (failures and errors) in schemathesis's JUnit report. */
function junitCounts(path: string): { passed: number; failed: number } | undefined {
  let xml: string;
  try {
    xml = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const suites = /<testsuites\b([^>]*)>/.exec(xml)?.[1];
  if (suites === undefined) return undefined;
  const count = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suites)?.[1] ?? 0);
  const failed = count('failures') + count('errors');
  return { passed: count('tests') - failed - count('skipped'), failed };
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

void main()
  .catch((err: unknown) => {
    log((err as Error).stack ?? String(err));
    return 1;
  })
  .then(async (code) => {
    await stopAll();
    process.exit(code);
  });
