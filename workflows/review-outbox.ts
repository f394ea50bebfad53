/**
 * The order's messages to its review (src/temporal/review-contract.ts): a reason the order raised,
 * an operator action's outcome. One at a time, oldest first, each an activity retried until it is
 * told (a worker that cannot tell reviews leaves it for one that can); a closing run lets the one in
 * flight finish, and the rest go along in the resume state. Workflow code: no Node built-ins, no I/O.
 */
import { condition, log, proxyActivities } from '@temporalio/workflow';
import type { ReviewActivities } from '../activities/review';
import type { ReviewMessage } from '../src/temporal/review-contract';

const { tellReview } = proxyActivities<ReviewActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

export class ReviewOutbox {
  private telling = false;
  private closing = false;

  constructor(private readonly pending: ReviewMessage[]) {}

  add(message: ReviewMessage): void {
    this.pending.push(message);
  }

  get empty(): boolean {
    return this.pending.length === 0;
  }

  get idle(): boolean {
    return !this.telling;
  }

  /** The messages not yet told, for the next run. */
  get carried(): ReviewMessage[] {
    return this.pending;
  }

  close(): void {
    this.closing = true;
  }

  async deliver(): Promise<never> {
    for (;;) {
      await condition(() => this.pending.length > 0 && !this.closing);
      this.telling = true;
      try {
        await tellReview(this.pending[0]!);
        this.pending.shift();
      } catch (err) {
        // Retried without a bound, so only a failure no retry can mend gets here (a message the
        // review refuses): the order does not wait on it for ever. The log names it.
        log.error('review not told: message dropped', { error: (err as Error).message, message: this.pending.shift() });
      } finally {
        this.telling = false;
      }
    }
  }
}
