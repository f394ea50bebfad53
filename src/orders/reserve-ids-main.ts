/**
 * `npm run orders:reserve-ids [-- [--dry-run] [--concurrency=N]]`: run once after upgrading to the
 * version that reserves order ids, with the API's configuration (docs/operations.md). Compiled into
 * dist/ like the API and the worker, so the production image runs it too. Exits 1 when any order
 * could not be reserved (running it again retries those and starts nothing for the others).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { encryptingDataConverter } from '../temporal/codec';
import { createTemporalClient } from '../temporal/connection';
import { backfillOrderIdReservations, formatBackfillSummary } from './reservation-backfill';

const USAGE = 'usage: npm run orders:reserve-ids [-- [--dry-run] [--concurrency=N]]  (N from 1 to 100, default 8)';

/** A mistake on the command line: its message and the usage are printed, no stack. */
class UsageError extends Error {}

function parseOptions(): { dryRun: boolean; concurrency: number } {
  let values;
  try {
    ({ values } = parseArgs({
      options: { 'dry-run': { type: 'boolean', default: false }, concurrency: { type: 'string', default: '8' } },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 100)
    throw new UsageError('--concurrency takes an integer from 1 to 100');
  return { dryRun: values['dry-run'], concurrency };
}

async function main(): Promise<number> {
  const { dryRun, concurrency } = parseOptions();
  const config = loadConfig();
  // The API's data converter: the reservation's input is encoded as the API would encode it.
  const client = createTemporalClient(config.temporal, encryptingDataConverter(config.encryption.keys, config.encryption));
  const { address, namespace, taskQueue } = config.temporal;
  process.stdout.write(`Temporal ${address}, namespace ${namespace}, task queue ${taskQueue}${dryRun ? ' (dry run)' : ''}\n`);
  try {
    const summary = await backfillOrderIdReservations({
      client,
      taskQueue,
      holdMs: config.orderIdReservation.holdMs,
      dryRun,
      concurrency,
    });
    process.stdout.write(formatBackfillSummary(summary));
    return summary.failed.length > 0 ? 1 : 0;
  } finally {
    await client.connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    // A message, no stack: what an operator acts on (Temporal unreachable, a variable missing).
    let message = err instanceof Error ? err.message : String(err);
    if (err instanceof UsageError) message = `${err.message}\n${USAGE}`;
    process.stderr.write(`orders:reserve-ids: ${message}\n`);
    process.exit(1);
  },
);
