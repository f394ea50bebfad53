import type { Client } from '@temporalio/client';
// Not re-exported by the package's index: the functions the client itself decodes search attributes with.
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { requiredTsToMs } from '@temporalio/common/lib/time';
import type { Logger } from '../logging';
import { openOrders, openOrdersCountedAt, openOrdersCountErrors } from '../metrics/metrics';
import { ORDER_STATUS_KEY, PROVIDER_CODE_KEY } from '../temporal/order-contract';
import { rawExecutions } from '../temporal/raw-visibility';

/**
 * Age buckets of onramp_open_orders, by the upper bound of each (the last has none): 1 day is the
 * default payment window, 5 days the default review time (ORDER_PAYMENT_WINDOW_SECONDS, ORDER_REVIEW_AFTER_SECONDS).
 */
export const AGE_BUCKETS: readonly { label: string; underMs: number }[] = [
  { label: 'under_1h', underMs: 3_600_000 },
  { label: '1h_to_6h', underMs: 6 * 3_600_000 },
  { label: '6h_to_1d', underMs: 86_400_000 },
  { label: '1d_to_2d', underMs: 2 * 86_400_000 },
  { label: '2d_to_5d', underMs: 5 * 86_400_000 },
  { label: 'over_5d', underMs: Infinity },
];

export function ageBucket(ageMs: number): string {
  return AGE_BUCKETS.find((bucket) => ageMs < bucket.underMs)!.label;
}

const OPEN_ORDERS_QUERY = "WorkflowType = 'orderWorkflow' AND ExecutionStatus = 'Running'";

export interface OpenOrdersCounterOptions {
  client: Client;
  logger: Logger;
  intervalMs: number;
  /** Orders listed at most per count (the rest are left out, and a warning says so). */
  maxOrders?: number;
  now?: () => number;
}

/**
 * Counts the running order workflows from Temporal visibility by their OrderStatus and ProviderCode
 * search attributes and the age of their run, into onramp_open_orders, every `intervalMs`. The
 * server counts with GROUP BY only by ExecutionStatus, so the open orders are listed, a page of
 * 1000 at a time, and counted here. Visibility answers each execution with its memo too; the
 * pages are read straight from the workflow service (not `client.workflow.list()`, which decodes
 * every memo through the data converter), and only the search attributes (never encrypted) and
 * the start time are read: no memo is decrypted, so no customer data is loaded for a count and a
 * memo under a retired key does not fail it. One process should do it: the worker does, with
 * WORKER_METRICS_PORT and OPEN_ORDERS_METRICS_INTERVAL_SECONDS above 0.
 */
export class OpenOrdersCounter {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(private readonly options: OpenOrdersCounterOptions) {}

  start(): void {
    const tick = () => {
      this.running = this.countOnce().finally(() => {
        if (this.timer !== undefined) this.timer = setTimeout(tick, this.options.intervalMs).unref();
      });
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One count; a failure is logged and counted, and the gauge keeps its last values. */
  async countOnce(): Promise<void> {
    const { logger, maxOrders = 100_000, now = Date.now } = this.options;
    try {
      const counts = new Map<string, { status: string; provider: string; age_bucket: string; count: number }>();
      const at = now();
      let listed = 0;
      for await (const execution of rawExecutions(this.options.client, OPEN_ORDERS_QUERY)) {
        if (++listed > maxOrders) {
          logger.warn({ maxOrders }, 'open orders: more running orders than are counted; the gauge shows the first ones');
          break;
        }
        const attributes = decodeTypedSearchAttributes(execution.searchAttributes?.indexedFields);
        const status = attributes.get(ORDER_STATUS_KEY) ?? 'none';
        const provider = attributes.get(PROVIDER_CODE_KEY) ?? 'none';
        const age_bucket = ageBucket(at - requiredTsToMs(execution.startTime, 'startTime'));
        const key = `${status}\0${provider}\0${age_bucket}`;
        const entry = counts.get(key) ?? { status, provider, age_bucket, count: 0 };
        entry.count++;
        counts.set(key, entry);
      }
      openOrders.reset();
      for (const { count, ...labels } of counts.values()) openOrders.set(labels, count);
      openOrdersCountedAt.set(at / 1000);
    } catch (err) {
      openOrdersCountErrors.inc();
      logger.warn({ err }, 'open orders: counting from Temporal visibility failed');
    }
  }
}
