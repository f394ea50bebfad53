/**
 * Feeds the ranking's statistics and the returning-customer memory with orders as they settle (the
 * worker, on each integrator notification) and creations the provider refused (the API). Ranking
 * is advice: a store that fails is logged and counted, never allowed to fail a webhook or an order.
 */
import type { Logger } from '../logging';
import { rankingOutcomesRecorded } from '../metrics/metrics';
import { outcomeOfOrder, refusedOutcome, type OrderMarket, type SettledOrder } from './order-outcome';
import type { OrderOutcome } from './outcome';

/** Where outcomes are folded (the statistics store); false when the outcome was folded before. */
export interface OutcomeSink {
  record(outcome: OrderOutcome): Promise<boolean>;
}

/** Where a customer's completed purchases are remembered (the returning-customer store). */
export interface CompletionSink {
  recordCompletion(input: { integratorId: string; externalUserId: string; providerCode: string; finishedAtMs: number }): Promise<unknown>;
}

/** What became of one outcome: folded now, folded before (by any process), or not known (the store failed). */
export type RecordResult = 'folded' | 'repeated' | 'failed';

export class OutcomeRecorder {
  constructor(private readonly options: { stats: OutcomeSink; customers?: CompletionSink; logger?: Logger }) {}

  /** An order's status changed: recorded when it is settled. */
  async settled(change: SettledOrder): Promise<void> {
    const outcome = outcomeOfOrder(change);
    if (outcome) await this.record(outcome);
  }

  /**
   * A creation of `integratorId`'s (when known) was rejected with `rejection`: recorded when the
   * provider refused it. Whether this call was the first to record it (the store's deduplication,
   * shared by every process), `failed` when the store could not say, `not_counted` for a
   * rejection that is no outcome (an invalid wallet address).
   */
  async refused(
    attemptId: string,
    market: OrderMarket,
    rejection: string,
    options: { atMs?: number; integratorId?: string } = {},
  ): Promise<RecordResult | 'not_counted'> {
    const outcome = refusedOutcome(attemptId, market, rejection, options.atMs ?? Date.now(), options.integratorId);
    return outcome ? this.recordResult(outcome) : 'not_counted';
  }

  /**
   * `rememberCustomer` false: the statistics only. A rebuild passes it, so that a customer deleted
   * before a flush of the store (its tombstone gone with it) is not brought back from Temporal.
   */
  async record(reported: OrderOutcome, rememberCustomer = true): Promise<boolean> {
    return (await this.recordResult(reported, rememberCustomer)) === 'folded';
  }

  private async recordResult(reported: OrderOutcome, rememberCustomer = true): Promise<RecordResult> {
    // A clock ahead of the others must not date an outcome in the future: every later one would
    // then fold as late, decayed toward nothing, until real time caught up.
    const outcome = reported.finishedAtMs > Date.now() ? { ...reported, finishedAtMs: Date.now() } : reported;
    let result: RecordResult = 'failed';
    try {
      result = (await this.options.stats.record(outcome)) ? 'folded' : 'repeated';
      rankingOutcomesRecorded.inc({ kind: outcome.kind, result });
    } catch (err) {
      rankingOutcomesRecorded.inc({ kind: outcome.kind, result: 'error' });
      this.options.logger?.warn({ err: (err as Error).message, kind: outcome.kind }, 'ranking: an outcome could not be recorded');
    }
    const { customers } = this.options;
    if (rememberCustomer && customers && outcome.kind === 'complete' && outcome.integratorId && outcome.externalUserId) {
      try {
        await customers.recordCompletion({
          integratorId: outcome.integratorId,
          externalUserId: outcome.externalUserId,
          providerCode: outcome.providerCode,
          finishedAtMs: outcome.finishedAtMs,
        });
      } catch (err) {
        this.options.logger?.warn({ err: (err as Error).message }, 'ranking: a completed purchase could not be remembered');
      }
    }
    return result;
  }
}
