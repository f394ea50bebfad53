import {
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import {
  actionOutcomeSignal,
  operatorActionSignal,
  reviewNoticeSignal,
  reviewRecordQuery,
  type ReviewInput,
  type ReviewRecord,
} from '../src/temporal/review-contract';
import { ReviewBook, type CarriedReview } from './review-book';

const HISTORY_EVENTS_BEFORE_CONTINUE = 1_000;

/**
 * One review (docs/operations.md, "Review queue"): what about an order, or a provider transaction
 * the broker never had, needs a person, and the audit of every operator action on it. Started by
 * the first signal sent to it (signal-with-start: a reason from the order's workflow or a
 * reconciliation, or an operator's action), it stays open, queryable and in the queue while a reason
 * is open, and for `keepMs` after its last change; continues as new past its history bound, carrying
 * the record. Its rules are in ReviewBook.
 */
export async function reviewWorkflow(input: ReviewInput, carried?: CarriedReview): Promise<ReviewRecord> {
  const book = new ReviewBook(input, { now: () => Date.now(), upsertMemo, upsertSearchAttributes, log }, carried);
  setHandler(reviewNoticeSignal, (notice) => void book.raise(notice));
  setHandler(operatorActionSignal, (action) => void book.act(action));
  setHandler(actionOutcomeSignal, (outcome) => void book.settle(outcome));
  setHandler(reviewRecordQuery, () => book.record());
  // A continued run publishes what it carries (its memo and search attributes start from the start options').
  if (carried) book.publish();

  const historyLimit = input.historyEventsBeforeContinue ?? HISTORY_EVENTS_BEFORE_CONTINUE;
  for (;;) {
    const seen = book.version;
    const changedNow = () => book.version !== seen;
    // While a reason is open the review waits for a person however long it takes; then it is kept.
    if (book.open().length > 0) await condition(changedNow);
    else if (!(await condition(changedNow, Math.max(book.changedAtMs + input.keepMs - Date.now(), 1))) && !changedNow()) {
      return book.record();
    }
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > historyLimit) {
      await condition(allHandlersFinished);
      // Read after the wait: what arrived meanwhile goes along.
      return continueAsNew<typeof reviewWorkflow>(input, book.carry());
    }
  }
}
