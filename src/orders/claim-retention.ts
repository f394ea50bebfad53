import { tsToMs } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { ConfigError } from '../config';
import type { Logger } from '../logging';
import { CLAIM_MIN_RETENTION_MS, CLAIM_WORKFLOW_TYPE } from './claims';

/** What the API learns of the namespace before it claims provider orders. */
export interface ClaimRetentionCheck {
  retentionMs: number;
  /**
   * Claims that ended before their time (terminated, cancelled, timed out or reset: a claim stays
   * open a claim lifetime) and may still matter: their ids are all that keeps a provider order
   * claimed, for as long as retention keeps them.
   */
  closedEarlyClaims: number;
}

/** The namespace's retention cannot keep what the claims rely on; the message names the setting. */
export class ClaimRetentionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClaimRetentionError';
  }
}

const DAY_MS = 24 * 60 * 60_000;
const days = (ms: number) => `${+(ms / DAY_MS).toFixed(2)} day(s)`;

/**
 * Reads the namespace's retention and counts the claims that closed within the last claim lifetime
 * (one describe and one count); throws ClaimRetentionError when retention is too short for them:
 * - every claim: a closed claim must stay at least CLAIM_MIN_RETENTION_MS, the room for an order
 *   whose expiry a worker outage delayed past the claim's margin;
 * - a claim that closed early (one started within the last claim lifetime that is not running: an
 *   operator terminated it) holds its provider order only while retention keeps it, and an order
 *   may accept that provider order for a claim lifetime after it: retention must be at least the
 *   claim lifetime while such claims exist.
 */
export async function checkClaimRetention(client: Client, claimLifetimeMs: number, now = Date.now()): Promise<ClaimRetentionCheck> {
  const { config } = await client.workflowService.describeNamespace({ namespace: client.options.namespace });
  const ttl = config?.workflowExecutionRetentionTtl;
  const retentionMs = ttl ? tsToMs(ttl) : 0;
  const since = new Date(now - claimLifetimeMs).toISOString();
  const { count } = await client.workflow.count(
    `WorkflowType = '${CLAIM_WORKFLOW_TYPE}' AND ExecutionStatus != 'Running' AND StartTime > '${since}'`,
  );
  const closedEarlyClaims = Number(count);
  const namespace = client.options.namespace;
  if (retentionMs < CLAIM_MIN_RETENTION_MS) {
    throw new ClaimRetentionError(
      `Temporal namespace ${namespace} keeps closed workflows ${days(retentionMs)} (its workflow execution retention); ` +
        `provider order claims need at least ${days(CLAIM_MIN_RETENTION_MS)}: ` +
        `temporal operator namespace update --namespace ${namespace} --retention ${Math.ceil(CLAIM_MIN_RETENTION_MS / 3_600_000)}h`,
    );
  }
  if (closedEarlyClaims > 0 && retentionMs < claimLifetimeMs) {
    throw new ClaimRetentionError(
      `Temporal namespace ${namespace} keeps closed workflows ${days(retentionMs)} (its workflow execution retention), ` +
        `and ${closedEarlyClaims} provider order claim(s) that closed early (terminated before their time) must be kept ` +
        `a claim's lifetime, ${days(claimLifetimeMs)} (ORDER_PAYMENT_WINDOW_SECONDS + ORDER_SETTLED_GRACE_SECONDS + margins): ` +
        `temporal operator namespace update --namespace ${namespace} --retention ${Math.ceil(claimLifetimeMs / 3_600_000)}h`,
    );
  }
  return { retentionMs, closedEarlyClaims };
}

/** How often the check is tried again while Temporal does not answer at start-up. */
const RETRY_MS = 5000;

/**
 * The check as the API starts: when Temporal answers, a retention too short throws (the API does
 * not start; ConfigError names the setting). When it does not answer, the API starts anyway (as it
 * does without Temporal) and checks again in the background until Temporal answers, stopping the
 * process then if the retention is too short.
 */
export async function claimRetentionAtStart(
  client: Client,
  claimLifetimeMs: number,
  logger: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): Promise<void> {
  const attempt = () => client.withDeadline(Date.now() + RETRY_MS, () => checkClaimRetention(client, claimLifetimeMs));
  try {
    await attempt();
    return;
  } catch (err) {
    if (err instanceof ClaimRetentionError) throw new ConfigError([err.message]);
    logger.warn({ err }, 'Temporal did not answer the claim retention check; starting, and checking again until it does');
  }
  const retry = (): void => {
    setTimeout(() => {
      attempt().then(
        () => logger.info('claim retention check passed'),
        (err: unknown) => {
          if (!(err instanceof ClaimRetentionError)) return retry();
          logger.fatal(err.message);
          exit(1);
        },
      );
    }, RETRY_MS).unref();
  };
  retry();
}
