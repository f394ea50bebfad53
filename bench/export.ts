/**
 * `npm run bench:export`: GET /api/on_ramp/orders/export over 100,000 orders (BENCH_EXPORT_ORDERS),
 * measured from the client's side (time, rows, bytes) and the API process's (peak RSS, CPU).
 *
 * One Temporal dev server. The orders are seeded straight into it as order workflows whose first
 * task is a year away (no worker runs them): the same memo (encrypted with the API's key), search
 * attributes and request times the API gives a real order, spread over 30 days, with every status.
 * An API process from the production entry reads them at the default visibility budget
 * (ORDER_SEARCH_CALLS_PER_SECOND 5: the pace an integrator gets) and, with BENCH_EXPORT_UNPACED=1,
 * a second one with the budget off (the export's own speed). Each exports the whole window once as
 * CSV and once as JSON lines, one after another; the bench checks every order came exactly once,
 * newest first. Prints a table; the last line of stdout is one JSON object (bench/README.md).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { encryptionConfig } from '../src/config/encryption';
import { sha256Hex } from '../src/config/integrators';
import { ORDER_STATUSES } from '../src/domain/order-status';
import { encryptingDataConverter, searchableHash } from '../src/temporal/codec';
import {
  EXTERNAL_ORDER_ID_KEY,
  EXTERNAL_USER_ID_KEY,
  INTEGRATOR_ID_KEY,
  ORDER_QUOTE_MEMO_KEY,
  ORDER_REQUESTED_AT_KEY,
  ORDER_STATUS_KEY,
  orderWorkflowId,
  PROVIDER_CODE_KEY,
  type OrderMemo,
} from '../src/temporal/order-contract';
import { runConcurrently } from './lib/concurrency';
import { cpuSeconds } from './lib/load';
import { rssOf } from './lib/memory';
import { startBenchDevServer } from './lib/dev-server';
import { freePort, killAll, startChild, waitFor, type ChildHandle } from './lib/order-children';
import { renderTable, round } from './lib/table';

const int = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ORDERS = int('BENCH_EXPORT_ORDERS', 100_000);
const SEED_CONCURRENCY = int('BENCH_EXPORT_SEED_CONCURRENCY', 64);
const TIMEOUT_S = int('BENCH_EXPORT_TIMEOUT_S', 3600);
const WINDOW_DAYS = 30;
const INTEGRATOR = 'exporter';
const KEY = `bench-export-${randomBytes(12).toString('hex')}`;
const ENCRYPTION_KEYS = `bench:${randomBytes(32).toString('base64')}`;

const progress = (message: string) => process.stderr.write(`[bench:export] ${message}\n`);

/** The memo, search attributes and request time the API and workflow give order `i` of the seeded window. */
function seededOrder(i: number, windowEndMs: number, hashUser: (id: string) => string) {
  const id = randomUUID();
  // Spread evenly over the window, newest first by i; a few share a millisecond.
  const requestedAtMs = windowEndMs - Math.floor((i * WINDOW_DAYS * 86_400_000) / ORDERS) - 1000;
  const createdAt = new Date(requestedAtMs + 800).toISOString();
  const status = ORDER_STATUSES[i % ORDER_STATUSES.length]!;
  const user = `user-${i % 5000}`;
  const memo: OrderMemo = {
    order: {
      id,
      status,
      redirect_url: `https://checkout.example/orders/${id}`,
      from_currency: 3,
      from_amount: (50 + (i % 950)).toFixed(2),
      to_currency: 13,
      to_amount: (0.0005 + (i % 950) * 0.00001).toFixed(8),
      wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      payment_method: 'card',
      country_code: 'GB',
      external_user_id: user,
      external_order_id: `order-${i}`,
      created_at: createdAt,
      updated_at: createdAt,
      extras: { provider_order_id: `P-${i}`, provider_status: status.toUpperCase(), campaign: `c${i % 7}` },
    },
    integratorId: INTEGRATOR,
    providerCode: 'sandbox',
    requestHash: randomBytes(32).toString('hex'),
    sequence: 1 + (i % 4),
    providerOrderId: `P-${i}`,
  };
  return {
    id,
    requestedAtMs,
    memo: { ...memo, [ORDER_QUOTE_MEMO_KEY]: { total_fee_amount: (1 + (i % 50) / 10).toFixed(2) } },
    searchAttributes: [
      { key: PROVIDER_CODE_KEY, value: 'sandbox' },
      { key: INTEGRATOR_ID_KEY, value: INTEGRATOR },
      { key: EXTERNAL_ORDER_ID_KEY, value: `order-${i}` },
      { key: EXTERNAL_USER_ID_KEY, value: hashUser(user) },
      { key: ORDER_REQUESTED_AT_KEY, value: new Date(requestedAtMs) },
      { key: ORDER_STATUS_KEY, value: status },
    ] as const,
  };
}

interface ExportFigures {
  api: string;
  format: string;
  seconds: number;
  rows: number;
  mb: number;
  rowsPerS: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
  apiCpuS: number;
}

/** One whole-window export, read as it comes; checks each order once, newest first. */
async function exportOnce(
  apiUrl: string,
  pid: number,
  label: string,
  format: 'csv' | 'jsonl',
  from: string,
  to: string,
): Promise<ExportFigures> {
  const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);
  const rssBefore = rssOf(pid).rssBytes;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(pid).rssBytes)), 50);
  const cpuBefore = cpuSeconds(pid);
  const started = performance.now();
  const res = await fetch(`${apiUrl}/api/on_ramp/orders/export?requested_from=${from}&requested_to=${to}&format=${format}`, {
    headers: { 'x-api-key': KEY, 'accept-encoding': 'identity' },
  });
  if (res.status !== 200) throw new Error(`${label} ${format}: ${res.status} ${await res.text()}`);
  const seen = new Set<string>();
  let bytes = 0;
  let pending = '';
  let header = format === 'csv';
  let lastRequested = '9999';
  const decoder = new TextDecoder();
  const line = (text: string) => {
    if (header) {
      header = false;
      return;
    }
    const id = format === 'csv' ? text.slice(0, 36) : (JSON.parse(text) as { id: string }).id;
    if (seen.has(id)) throw new Error(`${label} ${format}: order ${id} twice`);
    seen.add(id);
    const requested = format === 'csv' ? text.split(',')[8]! : (JSON.parse(text) as { requested_at: string }).requested_at;
    if (requested > lastRequested) throw new Error(`${label} ${format}: order ${id} out of order`);
    lastRequested = requested;
  };
  for await (const chunk of res.body! as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split(format === 'csv' ? '\r\n' : '\n');
    pending = lines.pop()!;
    for (const text of lines) line(text);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (pending !== '') throw new Error(`${label} ${format}: the body ended inside a line`);
  if (seen.size !== ORDERS) throw new Error(`${label} ${format}: ${seen.size} orders of ${ORDERS}`);
  return {
    api: label,
    format,
    seconds: round(seconds, 1),
    rows: seen.size,
    mb: mb(bytes),
    rowsPerS: Math.round(seen.size / seconds),
    rssBeforeMb: mb(rssBefore),
    rssPeakMb: mb(rssPeak),
    rssAfterMb: mb(rssOf(pid).rssBytes),
    apiCpuS: round(cpuSeconds(pid) - cpuBefore, 1),
  };
}

async function main(): Promise<void> {
  progress(`starting the Temporal dev server; ${ORDERS} orders to seed`);
  const { env } = await startBenchDevServer({ timeoutS: TIMEOUT_S, timeoutVariable: 'BENCH_EXPORT_TIMEOUT_S', progress });
  const children: ChildHandle[] = [];
  try {
    const { keys } = encryptionConfig({ NODE_ENV: 'development', ENCRYPTION_KEYS });
    const client = new Client({ connection: env.connection, namespace: 'default', dataConverter: encryptingDataConverter(keys) });
    // Ended two minutes ago: an export's window must end ORDER_CREATE_TIMEOUT_SECONDS + 60 s in the past.
    const windowEndMs = Date.now() - 120_000;
    const seedStarted = performance.now();
    let seeded = 0;
    await runConcurrently(ORDERS, SEED_CONCURRENCY, async (i) => {
      const order = seededOrder(i, windowEndMs, (id) => searchableHash(keys[0]!, id));
      await client.workflow.start('orderWorkflow', {
        workflowId: orderWorkflowId(order.id),
        taskQueue: 'bench-export-nobody',
        args: [],
        // Never run: the record is what the export reads.
        startDelay: '365 days',
        memo: order.memo,
        typedSearchAttributes: [...order.searchAttributes],
      });
      if (++seeded % 10_000 === 0)
        progress(`${seeded} orders seeded (${Math.round(seeded / ((performance.now() - seedStarted) / 1000))}/s)`);
    });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const from = encodeURIComponent(new Date(windowEndMs - (WINDOW_DAYS + 1) * 86_400_000).toISOString());
    const to = encodeURIComponent(new Date(windowEndMs).toISOString());
    await waitFor('visibility', async () => (await client.workflow.count(`IntegratorId = '${INTEGRATOR}'`)).count === ORDERS, 120_000);

    const dir = mkdtempSync(join(tmpdir(), 'bench-export-'));
    const integratorsFile = join(dir, 'integrators.json');
    writeFileSync(
      integratorsFile,
      JSON.stringify({ integrators: [{ id: INTEGRATOR, name: 'Exporter', api_key_sha256: [sha256Hex(KEY)] }] }),
    );
    const apis: { label: string; url: string; pid: number }[] = [];
    const sides: [string, string][] = [['paced', '5']];
    if (process.env.BENCH_EXPORT_UNPACED === '1') sides.push(['unpaced', '0']);
    for (const [label, perSecond] of sides) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const child = startChild(
        `api-${label}`,
        'src/api/main.ts',
        [],
        {
          NODE_ENV: 'development',
          LOG_LEVEL: 'silent',
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_BASE_URL: url,
          ONRAMP_INTEGRATORS_FILE: integratorsFile,
          ENCRYPTION_KEYS,
          TEMPORAL_ADDRESS: env.address,
          ORDER_SEARCH_CALLS_PER_SECOND: perSecond,
          ORDER_EXPORT_MAX_SECONDS: String(TIMEOUT_S),
          RATE_LIMIT_IP_REQUESTS: '0',
        },
        join(dir, `api-${label}.log`),
      );
      children.push(child);
      await waitFor(`api ${label}`, async () => (await fetch(`${url}/healthz`)).ok);
      apis.push({ label, url, pid: child.pid });
    }
    const figures: ExportFigures[] = [];
    for (const api of apis) {
      for (const format of ['csv', 'jsonl'] as const) {
        progress(`exporting ${ORDERS} orders as ${format} from the ${api.label} API`);
        const figure = await exportOnce(api.url, api.pid, api.label, format, from, to);
        progress(JSON.stringify(figure));
        figures.push(figure);
      }
    }
    process.stdout.write(
      renderTable(
        ['API', 'format', 's', 'rows', 'MB', 'rows/s', 'RSS before MB', 'RSS peak MB', 'RSS after MB', 'API CPU s'],
        figures.map((f) => [f.api, f.format, f.seconds, f.rows, f.mb, f.rowsPerS, f.rssBeforeMb, f.rssPeakMb, f.rssAfterMb, f.apiCpuS]),
      ) + '\n',
    );
    process.stdout.write(`${JSON.stringify({ orders: ORDERS, seed_seconds: round(seedSeconds, 1), exports: figures })}\n`);
  } finally {
    for (const child of children) await child.stop();
    await env.teardown();
  }
}

main().catch((err: unknown) => {
  progress(`failed: ${(err as Error).stack ?? String(err)}`);
  killAll();
  process.exit(1);
});
