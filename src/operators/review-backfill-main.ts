/**
 * `npm run reviews:backfill [-- --dry-run]`: run once after upgrading to the version with the review
 * queue, with the worker's configuration (docs/operations.md, "Review queue"). Exits 1 when any
 * order could not be given its review (running it again retries those and opens nothing twice).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { encryptingDataConverter } from '../temporal/codec';
import { createTemporalClient } from '../temporal/connection';
import { ReviewTeller } from '../temporal/reviews';
import { backfillReviews, formatReviewBackfill } from './review-backfill';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'dry-run': { type: 'boolean', default: false } } });
  const config = loadConfig();
  const client = createTemporalClient(config.temporal, encryptingDataConverter(config.encryption.keys, config.encryption));
  const { address, namespace, taskQueue } = config.temporal;
  process.stdout.write(`Temporal ${address}, namespace ${namespace}, task queue ${taskQueue}${values['dry-run'] ? ' (dry run)' : ''}\n`);
  try {
    const summary = await backfillReviews({
      client,
      teller: new ReviewTeller({ client, taskQueue, keepMs: config.reviews.keepMs }),
      dryRun: values['dry-run'],
    });
    process.stdout.write(formatReviewBackfill(summary));
    return summary.failed.length > 0 ? 1 : 0;
  } finally {
    await client.connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`reviews:backfill: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
