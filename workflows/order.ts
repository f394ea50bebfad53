import {
  ApplicationFailure,
  ActivityFailure,
  allHandlersFinished,
  condition,
  log,
  makeContinueAsNewFunc,
  patched,
  proxyActivities,
  proxyLocalActivities,
  proxySinks,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Sinks } from '@temporalio/workflow';
import type { OrderActivities } from '../activities';
import { isTerminal } from '../src/domain/order-status';
import {
  createOrderUpdate,
  getOrderQuery,
  providerEventSignal,
  type OrderMemo,
  type OrderRejectionType,
  type OrderWorkflowInput,
  type ProviderEvent,
  webhookDeliveriesQuery,
} from '../src/temporal/order-contract';
import { reconciliationMismatchSignal } from '../src/temporal/reconciliation-contract';
import {
  OPERATOR_ACTIONS,
  operatorRequestSignal,
  type ActionOutcome,
  type OperatorRequest,
  type QueueReason,
  type ReviewSubject,
} from '../src/temporal/review-contract';
import { OrderState, UNPAID, type OrderMetricsSink, type OrderResumeState } from './order-state';
import { ReviewOutbox } from './review-outbox';
import { WebhookOutbox } from './webhook-outbox';

export type { OrderMetricsSink, OrderResumeState } from './order-state';

/** The worker's sinks the order workflow calls (src/worker/sinks.ts): its metrics, never called on replay. */
export interface OrderSinks extends Sinks {
  orderMetrics: OrderMetricsSink;
}

const { orderMetrics } = proxySinks<OrderSinks>();

/**
 * Address validation and the provider order's creation run in the worker that runs the workflow
 * task: no activity task, no round trip through the server (docs/decisions.md, "Local activities").
 * A local call may run again when its workflow task is lost, with what a replay gives it: safe
 * because each result depends on the order's input alone and repeats harmlessly: the address check
 * is pure, and a provider order is created under our order id (a repeated call finds the first one).
 */
const { validateWalletAddress } = proxyLocalActivities<OrderActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 5 },
});
const { createProviderOrder } = proxyLocalActivities<OrderActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '20 seconds',
    maximumAttempts: 6,
    nonRetryableErrorTypes: ['provider_rejected'],
  },
});
/**
 * Status polls are ordinary activities: a local one would hold the workflow task, and with it the
 * order's signals, for as long as it runs, and polls are off the hot path.
 */
const { getProviderOrderStatus } = proxyActivities<OrderActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 3 },
});

/** An operator's cancellation, asked of the provider: a refusal is final, anything else tried a few times. */
const { cancelProviderOrder } = proxyActivities<OrderActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '30 seconds', maximumAttempts: 3, nonRetryableErrorTypes: ['cancel_refused'] },
});

const HISTORY_EVENTS_BEFORE_CONTINUE = 5_000;

/**
 * An order a late payment revived (`expired`, then `processing`) is followed until it ends or
 * settles again; the 1.0 workflow stopped following it when the grace that began at its expiry
 * ended, whatever its status (docs/decisions.md, "Status tracking without webhooks"). Asked only of
 * a revived order (OrderState.graceEnd, at the loop's top), so no other order records the marker and
 * its TemporalChangeVersion upsert. A run started on this code records it in the workflow task that
 * applies the reviving report (or in its first task, when it continued as new revived); a run
 * revived before this release replays the old path over its history and records the marker in the
 * first task it runs past that history.
 */
export const FOLLOW_REVIVED_PATCH = 'follow-revived-order';

/**
 * A provider's refusal of the order's creation (`provider_rejected`, a non-retryable failure of the
 * local activity) is the workflow's rejection too, rather than `provider_unavailable`. Asked only on
 * that path, so no other order records the marker; a run that failed so before this release
 * replays the old answer.
 */
export const PROVIDER_REJECTED_PATCH = 'provider-rejected-creation';

/**
 * Continue-as-new carries the memo keys the API set at the start (the order's market and quote)
 * beside the order's own; the 1.0 workflow carried only its own, so a continued order lost them.
 * Asked only when a run continues as new, so other orders record no marker.
 */
export const CARRY_START_MEMO_PATCH = 'carry-start-memo';

/**
 * A reconciliation's mismatch notice (reconciliationMismatchSignal) flags the order. Orders of
 * earlier releases never received the signal, so their histories hold no such event; only an order
 * that takes one records the marker, with the memo and search-attribute commands after it (which a
 * release without the handler could not replay).
 */
export const RECONCILIATION_FLAG_PATCH = 'reconciliation-flag';

/**
 * The operators' review queue (docs/operations.md, "Review queue"): a flag the order raises (an
 * integrity alert, open too long, a webhook given up on) is told to the order's review by an
 * activity, and an operator's request (operatorRequestSignal) is acted on: poll now, cancel an
 * unpaid order at the provider, or (acknowledge, resend) recorded. Asked where a flag is raised and
 * where a request arrives: orders of earlier releases raised their flags with no activity after and
 * never received a request, so they replay; only an order that takes one of these paths records it.
 */
export const OPERATOR_REVIEW_PATCH = 'operator-review';

/**
 * One order, from address validation and provider order creation to a final status. Provider
 * webhooks arrive as signals; a timer polls the provider when they do not, and expires unpaid orders.
 * The order's rules are in OrderState, the delivery of its integrator webhooks in WebhookOutbox.
 */
export async function orderWorkflow(input: OrderWorkflowInput, resume?: OrderResumeState): Promise<OrderMemo> {
  const { timings } = input;
  let rejection: { type: OrderRejectionType; message: string } | undefined;
  const inbox: ProviderEvent[] = [];
  let pollDelayMs = resume?.pollDelayMs ?? timings.pollInitialMs;
  const subject: ReviewSubject = {
    kind: 'order',
    orderId: input.orderId,
    providerCode: input.providerCode,
    integratorId: input.integratorId,
  };
  const reviews = new ReviewOutbox(resume?.reviews ?? []);
  const requests: OperatorRequest[] = resume?.operatorRequests ?? [];
  const nowIso = () => new Date(Date.now()).toISOString();
  const raiseReview = (reason: QueueReason, key: string, detail: string) => {
    if (patched(OPERATOR_REVIEW_PATCH)) reviews.add({ subject, notice: { reason, key, detail, raisedAt: nowIso(), source: 'order' } });
  };
  const state = new OrderState({
    input,
    resume,
    effects: {
      now: () => Date.now(),
      upsertMemo: (memo) => upsertMemo({ ...memo }),
      upsertSearchAttributes,
      log,
      metrics: orderMetrics,
      raiseReview,
    },
  });
  const webhooks = new WebhookOutbox({ state, timings, metrics: orderMetrics });

  setHandler(
    createOrderUpdate,
    async () => {
      await condition(() => state.memo !== null || rejection !== undefined);
      if (state.memo) return state.memo.order;
      throw ApplicationFailure.nonRetryable(rejection!.message, rejection!.type);
    },
    {
      validator: ({ requestHash }) => {
        if (requestHash !== input.requestHash) {
          throw ApplicationFailure.nonRetryable('this external_order_id was already used with a different request', 'idempotency_conflict');
        }
      },
    },
  );
  setHandler(providerEventSignal, (event) => {
    inbox.push(event);
  });
  setHandler(reconciliationMismatchSignal, (notice) => {
    if (patched(RECONCILIATION_FLAG_PATCH)) state.flagMismatch(notice);
  });
  /** An operator request's outcome, told to the order's review. */
  const tellOutcome = (request: OperatorRequest, outcome: ActionOutcome['outcome'], detail: string) =>
    reviews.add({ subject, outcome: { requestId: request.requestId, outcome, detail, at: nowIso() } });
  /** False once the order is no longer followed: a request then is refused at once rather than left unanswered. */
  let following = true;
  const NOT_FOLLOWED = 'the order is no longer followed: it takes no poll or cancel';
  setHandler(operatorRequestSignal, (request) => {
    if (!patched(OPERATOR_REVIEW_PATCH)) return;
    // Anyone with Temporal access can send the signal: a malformed one is dropped, never fails the task.
    if (!isOperatorRequest(request)) log.warn('operator request malformed: dropped', { request: JSON.stringify(request)?.slice(0, 200) });
    else if (following) requests.push(request);
    // Recorded by its signal; a poll or cancel is answered, an acknowledgement or resend needs nothing of the order.
    else if (request.action === 'poll' || request.action === 'cancel') tellOutcome(request, 'refused', NOT_FOLLOWED);
  });
  setHandler(getOrderQuery, () => state.memo);
  setHandler(webhookDeliveriesQuery, () => state.deliveries.map((record) => ({ ...record })));
  void webhooks.deliver();
  void reviews.deliver();

  async function reject(type: OrderRejectionType, message: string): Promise<never> {
    rejection = { type, message };
    orderMetrics.rejected(input.providerCode, type);
    await condition(allHandlersFinished);
    throw ApplicationFailure.nonRetryable(message, type);
  }

  if (!state.memo) {
    const { orderId, providerCode, request } = input;
    const address = await validateWalletAddress({ currencyId: request.to_currency, walletAddress: request.wallet_address, providerCode });
    if (!address.valid) return reject('invalid_wallet_address', address.reason ?? 'invalid wallet address');
    try {
      state.created(await createProviderOrder({ orderId, providerCode, request }));
    } catch (err) {
      // A local activity's failure reaches the workflow as it was thrown, not wrapped in an
      // ActivityFailure: read unwrapped, the provider's refusal was reported as provider_unavailable.
      const wrapped = err instanceof ActivityFailure;
      const cause = wrapped ? err.cause : err;
      if (cause instanceof ApplicationFailure && cause.type === 'provider_rejected' && (wrapped || patched(PROVIDER_REJECTED_PATCH))) {
        return reject('provider_rejected', cause.message);
      }
      return reject('provider_unavailable', `provider ${providerCode} could not create the order`);
    }
  }

  const historyLimit = timings.historyEventsBeforeContinue ?? HISTORY_EVENTS_BEFORE_CONTINUE;
  const historyFull = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > historyLimit;

  /**
   * Ends this run for a new one: a webhook attempt in flight finishes first, undelivered webhooks
   * move to the next run, and (while the order is open) signals that arrived meanwhile are applied.
   */
  async function continueRun(applyInbox: boolean): Promise<never> {
    webhooks.close();
    reviews.close();
    await condition(() => webhooks.idle && reviews.idle && allHandlersFinished());
    if (applyInbox) for (const event of inbox.splice(0)) state.apply(event);
    // The memo goes along: a run started by continue-as-new has none of its own until the order
    // next changes, and the API reads the order from the latest run's memo.
    const memo = patched(CARRY_START_MEMO_PATCH) ? { ...workflowInfo().memo, ...state.memo } : { ...state.memo };
    const resumed: OrderResumeState = {
      ...state.resumeState(pollDelayMs),
      ...(reviews.empty ? {} : { reviews: reviews.carried }),
      ...(requests.length > 0 ? { operatorRequests: requests } : {}),
    };
    return makeContinueAsNewFunc<typeof orderWorkflow>({ memo })(input, resumed);
  }

  /**
   * An operator's request: poll the provider now; cancel an unpaid order at the provider, then poll
   * (its status moves only by what the provider then says, through OrderState.apply's checks);
   * acknowledge and resend are the operator API's, recorded here by their signal. The outcome is told
   * to the order's review. True when the order's status changed.
   */
  async function act(request: OperatorRequest): Promise<boolean> {
    const tell = (outcome: ActionOutcome['outcome'], detail: string) => tellOutcome(request, outcome, detail);
    log.info('operator request', { action: request.action, operator: request.operatorId, requestId: request.requestId });
    if (request.action === 'poll') {
      const { changed, error } = await poll(input, state);
      if (error === undefined) tell('done', `polled: the order is ${state.memo!.order.status}`);
      else tell('failed', `the poll failed: ${error}`);
      return changed;
    }
    if (request.action !== 'cancel') return false;
    const status = state.memo!.order.status;
    if (!UNPAID.includes(status)) {
      tell('refused', `the order is ${status}: only an unpaid order is cancelled`);
      return false;
    }
    try {
      await cancelProviderOrder({ orderId: input.orderId, providerCode: input.providerCode, providerOrderId: state.pollTarget() });
    } catch (err) {
      const cause = err instanceof ActivityFailure ? err.cause : err;
      const refused = cause instanceof ApplicationFailure && cause.type === 'cancel_refused';
      // A refusal may answer a retry whose first attempt did cancel (its answer lost): the provider's word decides.
      const { changed } = await poll(input, state);
      const now = state.memo!.order.status;
      if (refused && (now === 'failed' || now === 'expired')) tell('done', `the order is ${now} at the provider`);
      else tell(refused ? 'refused' : 'failed', `the provider did not cancel: ${(cause as Error).message}`);
      return changed;
    }
    const { changed } = await poll(input, state);
    tell('done', `the provider accepted the cancellation; the order is ${state.memo!.order.status}`);
    return changed;
  }

  const createdAtMs = state.createdAtMs();
  while (!isTerminal(state.memo!.order.status)) {
    const now = Date.now();
    const status = state.memo!.order.status;
    const paymentDeadline = UNPAID.includes(status) ? createdAtMs + timings.paymentWindowMs : Infinity;
    const graceEnd = state.graceEnd(timings.settledGraceMs, () => patched(FOLLOW_REVIVED_PATCH));
    if (now >= graceEnd) break;
    const reviewAt = state.reviewDue();
    if (now >= reviewAt) state.flagForReview();

    const wakeAt = Math.min(now + pollDelayMs, paymentDeadline, graceEnd, now >= reviewAt ? Infinity : reviewAt);
    const waitedFrom = workflowInfo().historyLength;
    const signalled = await condition(() => inbox.length > 0 || requests.length > 0, Math.max(wakeAt - now, 1));
    // Signals waiting when the timer fired come before any poll: a re-run of the task that finds the
    // timer fired beside them numbers their changes as the first run did.
    if (signalled || inbox.length > 0 || requests.length > 0) {
      // Woken in a later workflow task: these signals come first in it, before anything the clock
      // decides, so a stamped one's webhook may make its first attempt locally (OrderState.apply).
      const afterWait = workflowInfo().historyLength > waitedFrom;
      let changed = false;
      for (const event of inbox.splice(0)) changed = state.apply(event, afterWait) || changed;
      for (const request of requests.splice(0)) changed = (await act(request)) || changed;
      if (changed) pollDelayMs = timings.pollInitialMs;
    } else if (Date.now() < graceEnd) {
      const { changed } = await poll(input, state);
      pollDelayMs = changed ? timings.pollInitialMs : Math.min(pollDelayMs * 2, timings.pollMaxMs);
      state.expireIfUnpaid();
    }

    // Signals that arrived meanwhile are carried over: nothing acknowledged is dropped.
    if (historyFull()) return continueRun(true);
  }

  // A final order waits for its webhooks to be delivered; signals that keep arriving meanwhile are
  // ignored, and a history they make long moves the wait to a new run.
  following = false;
  for (const request of requests.splice(0))
    if (request.action === 'poll' || request.action === 'cancel') tellOutcome(request, 'refused', NOT_FOLLOWED);
  const delivered = () => webhooks.empty && reviews.empty && allHandlersFinished();
  await condition(() => delivered() || historyFull());
  return delivered() ? state.memo! : continueRun(false);
}

/** Asks the provider about the order and applies the answer: whether the order's status changed, and why the poll failed. */
async function poll(input: OrderWorkflowInput, state: OrderState): Promise<{ changed: boolean; error?: string }> {
  try {
    const snapshot = await getProviderOrderStatus({
      orderId: input.orderId,
      providerCode: input.providerCode,
      providerOrderId: state.pollTarget(),
      // An activity's input is not part of what replay compares (its type and id are): no patch.
      ...(state.memo ? { orderCreatedAt: state.memo.order.created_at } : {}),
    });
    return { changed: state.apply({ ...snapshot, eventId: undefined, receivedAt: undefined, providerCode: input.providerCode }) };
  } catch (err) {
    log.warn('status poll failed; will try again', { error: (err as Error).message });
    return { changed: false, error: (err as Error).message };
  }
}

/** A well-formed operator request (the API sends only these; anyone with Temporal access could send another). */
function isOperatorRequest(request: unknown): request is OperatorRequest {
  const r = request as Partial<OperatorRequest> | null;
  const text = (value: unknown) => typeof value === 'string' && value.length > 0 && value.length <= 300;
  return !!r && text(r.requestId) && text(r.operatorId) && (OPERATOR_ACTIONS as readonly unknown[]).includes(r.action);
}
