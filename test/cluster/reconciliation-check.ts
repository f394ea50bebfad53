/**
 * The fault run's reconciliation (issue 35): once every order has settled, each provider's books
 * are made to differ in every way a reconciliation finds (an order dropped, a status and an amount
 * drifted, a purchase only the provider holds) where the provider has a list, and every provider's
 * window of the run is reconciled in the cluster. Each seeded mismatch must be reported, and
 * nothing else: the orders the faults disturbed still agree with their providers.
 */
import { Client, Connection } from '@temporalio/client';
import type { Mismatch } from '../../src/domain/reconciliation';
import { reconcileNow, reconciliationReport } from '../../src/reconciliation/reports';
import { encryptingDataConverter } from '../../src/temporal/codec';
import { encryptionConfig } from '../../src/config/encryption';
import { DEFAULT_TASK_QUEUE } from '../../src/temporal/order-contract';
import type { ReconciliationReport } from '../../src/temporal/reconciliation-contract';
import { addPhantom, BOOKS_DRIFT, setBooks } from '../helpers/books';
import type { FinalState } from './final-state';
import type { Check } from './invariants';
import type { OrderRecord } from './order-driver';

export interface ReconciliationCheckOptions {
  temporalAddress: string;
  /** The cluster's ENCRYPTION_KEYS (its secrets file): reports are encrypted like every payload. */
  encryptionKeys: string;
  simulatorsUrl: string;
  providers: readonly string[];
  records: readonly OrderRecord[];
  finals: ReadonlyMap<string, FinalState>;
  /** The window: from the run's start to now and a minute. */
  fromMs: number;
  /** The cluster's payment window (the reconciliation's margin). */
  marginMs: number;
  log: (line: string) => void;
}

/** What a seeded mismatch is known by: its kind and the order (or, for a phantom, the provider order). */
const keyOf = (m: Pick<Mismatch, 'kind' | 'orderId' | 'providerOrderId'>) =>
  `${m.kind} ${m.kind === 'missing_here' ? `provider order ${m.providerOrderId}` : `order ${m.orderId}`}`;

/** Seeds the provider's books (where it has a list and three complete orders); the mismatches expected. */
async function seed(options: ReconciliationCheckOptions, code: string): Promise<string[]> {
  const drift = BOOKS_DRIFT[code];
  if (!drift) return [];
  const complete = options.records
    .filter((r) => r.plan.provider === code && r.orderId && options.finals.get(r.orderId)?.status === 'complete')
    .map((r) => r.orderId!);
  if (complete.length < 3) return [];
  const [dropped, drifted, resized] = complete as [string, string, string];
  await setBooks(options.simulatorsUrl, code, dropped, { dropped: true });
  await setBooks(options.simulatorsUrl, code, drifted, { status: drift.drift });
  await setBooks(options.simulatorsUrl, code, resized, { fiatAmount: '1234.56' });
  const phantom = await addPhantom(options.simulatorsUrl, code);
  return [
    keyOf({ kind: 'missing_at_provider', orderId: dropped }),
    keyOf({ kind: 'status_differs', orderId: drifted }),
    keyOf({ kind: 'terms_differ', orderId: resized }),
    keyOf({ kind: 'missing_here', providerOrderId: phantom }),
  ];
}

async function reportOf(client: Client, code: string, fromMs: number, toMs: number, askedMs: number): Promise<ReconciliationReport> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const report = await reconciliationReport(client, code, fromMs, toMs);
    if (report && report.ranAtMs >= askedMs) return report;
    if (Date.now() > deadline) throw new Error(`no ${code} report within 5 minutes`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

export async function checkReconciliation(options: ReconciliationCheckOptions): Promise<Check> {
  const name = "reconciliation reports every seeded mismatch with the providers' books, and nothing else";
  const connection = await Connection.connect({ address: options.temporalAddress });
  const { keys } = encryptionConfig({ NODE_ENV: 'test', ENCRYPTION_KEYS: options.encryptionKeys });
  const client = new Client({ connection, namespace: 'default', dataConverter: encryptingDataConverter(keys) });
  const failures: string[] = [];
  const rows: string[] = [];
  try {
    const toMs = Date.now() + 60_000;
    const timings = { marginMs: options.marginMs, settleMs: 0, keepReportMs: 86_400_000 };
    const expected = new Map<string, string[]>();
    for (const code of options.providers) expected.set(code, await seed(options, code));
    const askedMs = Date.now();
    await Promise.all(
      options.providers.map((providerCode) =>
        reconcileNow(client, { providerCode, fromMs: options.fromMs, toMs, timings }, DEFAULT_TASK_QUEUE),
      ),
    );
    for (const code of options.providers) {
      const report = await reportOf(client, code, options.fromMs, toMs, askedMs);
      const found = report.mismatches.map(keyOf).sort();
      const wanted = [...expected.get(code)!].sort();
      for (const key of wanted.filter((k) => !found.includes(k))) failures.push(`${code}: seeded ${key} not reported`);
      for (const key of found.filter((k) => !wanted.includes(k))) failures.push(`${code}: ${key} reported, not seeded`);
      if (report.unreadable > 0) failures.push(`${code}: ${report.unreadable} rows or lookups unreadable`);
      rows.push(`${code} (${report.source}): ${report.orders} orders, ${report.matched} matched, ${found.length} mismatches`);
    }
    for (const row of rows) options.log(`reconciliation: ${row}`);
    const seeded = [...expected.values()].reduce((n, keys) => n + keys.length, 0);
    return {
      name,
      ok: failures.length === 0,
      summary: `${options.providers.length} providers reconciled; ${seeded} seeded mismatches${failures.length === 0 ? ', each reported, nothing else' : ''}`,
      failures,
    };
  } catch (err) {
    return { name, ok: false, summary: 'the reconciliation did not run', failures: [(err as Error).message] };
  } finally {
    await connection.close();
  }
}
