import { ApplicationFailure } from '@temporalio/activity';
import type { ReviewMessage } from '../src/temporal/review-contract';
import type { ReviewTeller } from '../src/temporal/reviews';

export interface ReviewDependencies {
  /** Tells reviews; a worker without one cannot, and the order's message waits for a worker that can. */
  teller?: ReviewTeller;
}

/** Activities of the order workflow's review messages (workflows/review-outbox.ts). */
export function createReviewActivities({ teller }: ReviewDependencies) {
  return {
    /** A reason the order raised, or an operator action's outcome, told to the order's review (opened by the first). */
    async tellReview(message: ReviewMessage): Promise<void> {
      if (!teller) throw ApplicationFailure.retryable('this worker cannot tell reviews', 'reviews_unavailable');
      if ('notice' in message) await teller.notice(message.subject, message.notice);
      else await teller.outcome(message.subject, message.outcome);
    },
  };
}

export type ReviewActivities = ReturnType<typeof createReviewActivities>;
