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
import type { ActivityOptions, LocalActivityOptions, Sinks } from '@temporalio/workflow';
import type { OrderActivities, OrdinaryWebhookAttemptOutcome } from '../activities';
import { isTerminal } from '../src/domain/order-status';
import {
  createOrderUpdate,
  DEFAULT_ORDER_TIMINGS,
  getOrderQuery,
  providerEventSignal,
  type OrderMemo,
  type OrderRejectionType,
  type OrderWorkflowInput,
  type ProviderEvent,
  webhookDeliveriesQuery,
} from '../src/temporal/shared';
import { nextRetryDelayMs } from '../src/webhooks/retry';
import { OrderState, UNPAID, type OrderMetricsSink, type OrderResumeState } from './order-state';

export type { OrderMetricsSink, OrderResumeState } from './order-state';

/** The worker's sinks the order workflow calls (src/worker/sinks.ts): its metrics, never called on replay. */
export interface OrderSinks extends Sinks {
  orderMetrics: OrderMetricsSink;
}

const { orderMetrics } = proxySinks<OrderSinks>();

/** Options that hold for a call as an ordinary activity and as a local one. */
type CallOptions = ActivityOptions & LocalActivityOptions;

const ADDRESS_CHECK: CallOptions = {
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 5 },
};
const PROVIDER_CREATE: CallOptions = {
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '20 seconds',
    maximumAttempts: 6,
    nonRetryableErrorTypes: ['provider_rejected'],
  },
};
const STATUS_POLL: CallOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 3 },
};

const { validateWalletAddress: validate } = proxyActivities<OrderActivities>(ADDRESS_CHECK);
const { createProviderOrder: createOrder } = proxyActivities<OrderActivities>(PROVIDER_CREATE);
const { getProviderOrderStatus } = proxyActivities<OrderActivities>(STATUS_POLL);
/**
 * The same calls run in the worker that runs the workflow task: no activity task, no round trip
 * through the server (docs/decisions.md, "Local activities"). A local call may run again when its
 * workflow task is lost, with what a replay gives it: safe because each result depends on the
 * order's input alone and repeats harmlessly: the address check is pure, a provider order is created
 * under our order id (a repeated call finds the first one), a status poll only reads. An integrator
 * webhook's first attempt is local only where a re-run sends the same message (LOCAL_FIRST_ATTEMPTS_PATCH).
 */
const local = {
  validateWalletAddress: proxyLocalActivities<OrderActivities>(ADDRESS_CHECK).validateWalletAddress,
  createProviderOrder: proxyLocalActivities<OrderActivities>(PROVIDER_CREATE).createProviderOrder,
  // A local poll holds the workflow task, and with it the order's signals, for as long as it runs:
  // shorter than an ordinary one (at most about 36 s with its retries, not 96).
  getProviderOrderStatus: proxyLocalActivities<OrderActivities>({
    startToCloseTimeout: '10 seconds',
    retry: { initialInterval: '2 seconds', maximumInterval: '10 seconds', maximumAttempts: 3 },
  }).getProviderOrderStatus,
};

const HISTORY_EVENTS_BEFORE_CONTINUE = 5_000;
/** Orders started before integrator webhooks existed replay without them. */
export const INTEGRATOR_WEBHOOKS_PATCH = 'integrator-webhooks';
/**
 * Orders started before the integrity checks replay without them: provider binding, the pinned
 * provider order id, the reported terms' check, workflow-scheduled webhook retries and the review flag.
 */
export const ORDER_INTEGRITY_PATCH = 'order-integrity';
/**
 * Orders started before local activities replay with ordinary ones: address validation, the provider
 * order creation, status polls and each webhook's first attempt became local activities.
 */
export const LOCAL_ACTIVITIES_PATCH = 'local-activities';
/**
 * Orders started under LOCAL_ACTIVITIES_PATCH alone replay with each webhook's first attempt and the
 * status polls local. A local webhook attempt was not safe: it leaves before its workflow task is
 * recorded, and when that task is lost (a worker killed), the replay may number the order's changes
 * differently (other signals in its batch), so one webhook-id went out with two bodies (the cluster
 * fault run found it). Every attempt is an ordinary activity, scheduled only once the state that
 * numbered it is in history. Polls went back to ordinary activities with them: local polls beside
 * ordinary webhook attempts stalled the time-skipping test server's clock
 * (test/security/integrator-endpoint-down.test.ts), and polls are off the hot path.
 */
export const WEBHOOKS_AFTER_COMMIT_PATCH = 'webhooks-after-commit';
/**
 * Orders started under it: every patch above applies, recorded once, and no webhook attempt
 * starts in a closing run. Each patch the SDK records is a marker and an upsert of the
 * TemporalChangeVersion search attribute (a visibility write), so four of them cost every new order
 * eight history events and four visibility writes at its start. Older orders have no marker for it
 * and replay with the four.
 */
export const ORDER_PATCHES_2026_11 = 'order-patches-2026-11';
/**
 * Orders started from here on: ORDER_PATCHES_2026_11 (recorded instead of it: still one marker),
 * and the first attempt of a webhook that a provider webhook's change made is a local activity,
 * made only where a re-run of its workflow task sends the same message (docs/decisions.md, "Local
 * activities"):
 * - the change takes its time from when the API received the provider's webhook (`receivedAt`),
 *   not from the workflow task's clock, which a re-run reads again;
 * - signals waiting when a poll's timer fires are applied before any poll, so a re-run that finds
 *   the timer fired beside them numbers their changes as the first run did;
 * - only for signals that woke the order from its wait, applied before anything the clock decides
 *   in that task (expiry, the end of the settled grace): a signal applied after a poll's answer
 *   keeps an ordinary first attempt;
 * - a worker short of room defers it to an ordinary attempt (activities/index.ts).
 */
export const LOCAL_FIRST_ATTEMPTS_PATCH = 'local-first-webhook-attempts';
/**
 * Orders started from here on: LOCAL_FIRST_ATTEMPTS_PATCH (recorded instead of it: still one
 * marker), and their ordinary webhook attempts may be deferred by the worker (`deferrable`): a
 * worker with as many attempts out to the integrator, or in all, as it may answers `deferred` at
 * once without a request (src/webhooks/delivery-gate.ts), and the order makes the same attempt
 * again after the pause the worker names; a deferral is not an attempt and is not recorded as one
 * (docs/decisions.md, "Webhooks to integrators"). Older orders never ask for it, so a worker never
 * answers them `deferred`, which their code would take for a settled webhook.
 */
export const DEFERRABLE_ATTEMPTS_PATCH = 'deferrable-webhook-attempts';

/**
 * One order, from address validation and provider order creation to a final status. Provider
 * webhooks arrive as signals; a timer polls the provider when they do not, and expires unpaid orders.
 */
export async function orderWorkflow(input: OrderWorkflowInput, resume?: OrderResumeState): Promise<OrderMemo> {
  const { timings } = input;
  let rejection: { type: OrderRejectionType; message: string } | undefined;
  const inbox: ProviderEvent[] = [];
  let pollDelayMs = resume?.pollDelayMs ?? timings.pollInitialMs;
  const deferrableAttempts = patched(DEFERRABLE_ATTEMPTS_PATCH);
  const localFirstAttempts = deferrableAttempts || patched(LOCAL_FIRST_ATTEMPTS_PATCH);
  const allPatches = localFirstAttempts || patched(ORDER_PATCHES_2026_11);
  const notifiesIntegrator = allPatches || patched(INTEGRATOR_WEBHOOKS_PATCH);
  const checksIntegrity = allPatches || patched(ORDER_INTEGRITY_PATCH);
  const runsLocal = allPatches || patched(LOCAL_ACTIVITIES_PATCH);
  /** Orders under LOCAL_ACTIVITIES_PATCH alone: status polls and first webhook attempts were local too. */
  const pollsAndWebhooksLocal = !allPatches && runsLocal && !patched(WEBHOOKS_AFTER_COMMIT_PATCH);
  /** No webhook attempt starts once the run is closing (orders under ORDER_PATCHES_2026_11). */
  const attemptsStopForClosingRun = allPatches;
  /** Orders under LOCAL_ACTIVITIES_PATCH alone: the first attempt of a webhook from this sequence on was local. */
  let firstLocalWebhookSequence = resume ? 0 : Number.POSITIVE_INFINITY;
  const state = new OrderState({
    input,
    resume,
    notifiesIntegrator,
    checksIntegrity,
    timesChangesByReport: localFirstAttempts,
    effects: { now: () => Date.now(), upsertMemo: (memo) => upsertMemo({ ...memo }), upsertSearchAttributes, log, metrics: orderMetrics },
  });
  const { outbox } = state;
  let delivering = false;
  let closingRun = false;

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
  setHandler(getOrderQuery, () => state.memo);
  setHandler(webhookDeliveriesQuery, () => state.deliveries.map((record) => ({ ...record })));

  /** Delivers the outbox one webhook at a time, so each order's webhooks arrive in order. */
  async function deliverNotifications(): Promise<void> {
    const retryDelaysMs = timings.webhookRetryDelaysMs ?? DEFAULT_ORDER_TIMINGS.webhookRetryDelaysMs!;
    const { notifyIntegrator } = proxyActivities<OrderActivities>({
      startToCloseTimeout: timings.webhookAttemptTimeoutMs ?? DEFAULT_ORDER_TIMINGS.webhookAttemptTimeoutMs!,
      retry: {
        // A failed attempt names its own next delay; these apply when an attempt times out.
        initialInterval: retryDelaysMs[0] ?? 5_000,
        backoffCoefficient: 2,
        maximumInterval: '1 day',
        nonRetryableErrorTypes: ['webhook_url_refused', 'webhook_delivery_failed'],
      },
    });
    for (;;) {
      await condition(() => outbox.length > 0 && !closingRun);
      const next = outbox[0]!;
      delivering = true;
      try {
        const result = await notifyIntegrator({ notification: next, retryDelaysMs });
        if (result.outcome === 'no_endpoint') log.info('integrator has no webhook endpoint', { webhookId: next.webhookId });
        orderMetrics.webhookSettled(next.webhookId, next.integratorId, result.outcome);
      } catch (err) {
        const cause = err instanceof ActivityFailure ? err.cause : err;
        log.error('integrator webhook not delivered', { webhookId: next.webhookId, error: (cause as Error).message });
        orderMetrics.webhookSettled(next.webhookId, next.integratorId, 'given_up');
      }
      outbox.shift();
      delivering = false;
    }
  }
  /**
   * Delivers the outbox one webhook at a time, one activity per attempt, with the pause between
   * attempts a timer of this workflow: a closing run stops waiting at once, and the webhook keeps
   * its place, its attempt count and its next attempt's time in the next run.
   */
  async function deliverOnSchedule(): Promise<void> {
    const retryDelaysMs = timings.webhookRetryDelaysMs ?? DEFAULT_ORDER_TIMINGS.webhookRetryDelaysMs!;
    const attemptOptions = {
      startToCloseTimeout: timings.webhookAttemptTimeoutMs ?? DEFAULT_ORDER_TIMINGS.webhookAttemptTimeoutMs!,
      // A lost attempt (a worker crash, a timeout) is a failed attempt: the schedule decides the next.
      retry: { maximumAttempts: 1 },
    };
    const ordinary = proxyActivities<OrderActivities>(attemptOptions);
    const inWorker = proxyLocalActivities<OrderActivities>(attemptOptions);
    for (;;) {
      await condition(() => outbox.length > 0 && !closingRun);
      const next = outbox[0]!;
      const waitMs = (next.nextAttemptAtMs ?? 0) - Date.now();
      if (waitMs > 0 && (await condition(() => closingRun, waitMs))) continue;
      // The run may have begun closing in the same workflow task that ended the wait: an attempt
      // scheduled now would outlive the run, its outcome lost (orders before ORDER_PATCHES_2026_11 did that).
      if (attemptsStopForClosingRun && closingRun) continue;
      const attempt = (next.attempts ?? 0) + 1;
      const attemptedAt = new Date(Date.now()).toISOString();
      delivering = true;
      let result: OrdinaryWebhookAttemptOutcome;
      try {
        const request = { notification: next, attempt };
        const ordinaryRequest = deferrableAttempts ? { ...request, deferrable: true as const } : request;
        if (attempt === 1 && pollsAndWebhooksLocal && next.sequence >= firstLocalWebhookSequence) {
          result = await inWorker.attemptIntegratorWebhook(request);
        } else {
          // The worker defers a local attempt it cannot afford (activities/index.ts): then it is an ordinary one.
          const local =
            attempt === 1 && localFirstAttempts && next.firstAttemptLocal === true
              ? await inWorker.attemptIntegratorWebhookInWorker(request)
              : undefined;
          result = local === undefined || local.outcome === 'deferred' ? await ordinary.attemptIntegratorWebhook(ordinaryRequest) : local;
        }
      } catch (err) {
        const cause = err instanceof ActivityFailure ? err.cause : err;
        result = { outcome: 'failed', error: (cause as Error).message };
      } finally {
        delivering = false;
      }
      if (result.outcome === 'deferred') {
        // Not an attempt: the same one is made after the worker's pause (orders under DEFERRABLE_ATTEMPTS_PATCH only).
        outbox[0] = { ...next, deferrals: (next.deferrals ?? 0) + 1, nextAttemptAtMs: Date.now() + result.retryAfterMs };
        continue;
      }
      state.recordDelivery({
        webhook_id: next.webhookId,
        sequence: next.sequence,
        attempt,
        attempted_at: attemptedAt,
        outcome: result.outcome,
        ...('status' in result && result.status !== undefined ? { status_code: result.status } : {}),
        ...('error' in result ? { error: result.error } : {}),
      });
      const fields = { webhookId: next.webhookId, attempt };
      if (result.outcome === 'failed') {
        const delayMs = nextRetryDelayMs(attempt, retryDelaysMs, result.retryAfterMs);
        if (delayMs !== undefined) {
          outbox[0] = { ...next, attempts: attempt, nextAttemptAtMs: Date.now() + delayMs };
          orderMetrics.webhookFailed(next.webhookId, next.integratorId, next.occurredAt, Date.now() + delayMs);
          continue;
        }
        log.error('integrator webhook not delivered: retries used up', { ...fields, error: result.error });
      } else if (result.outcome === 'refused') {
        log.error('integrator webhook not delivered: URL refused', { ...fields, error: result.error });
      } else if (result.outcome === 'no_endpoint') {
        log.info('integrator has no webhook endpoint', fields);
      }
      orderMetrics.webhookSettled(next.webhookId, next.integratorId, result.outcome === 'failed' ? 'given_up' : result.outcome);
      outbox.shift();
    }
  }
  if (notifiesIntegrator) void (checksIntegrity ? deliverOnSchedule() : deliverNotifications());

  async function reject(type: OrderRejectionType, message: string): Promise<never> {
    rejection = { type, message };
    orderMetrics.rejected(input.providerCode, type);
    await condition(allHandlersFinished);
    throw ApplicationFailure.nonRetryable(message, type);
  }

  if (!state.memo) {
    const validateWalletAddress = runsLocal ? local.validateWalletAddress : validate;
    const createProviderOrder = runsLocal ? local.createProviderOrder : createOrder;
    const address = await validateWalletAddress({
      currencyId: input.request.to_currency,
      walletAddress: input.request.wallet_address,
      providerCode: input.providerCode,
    });
    if (!address.valid) return reject('invalid_wallet_address', address.reason ?? 'invalid wallet address');

    let created;
    try {
      created = await createProviderOrder({
        orderId: input.orderId,
        providerCode: input.providerCode,
        request: input.request,
      });
    } catch (err) {
      const cause = err instanceof ActivityFailure ? err.cause : undefined;
      if (cause instanceof ApplicationFailure && cause.type === 'provider_rejected') {
        return reject('provider_rejected', cause.message);
      }
      return reject('provider_unavailable', `provider ${input.providerCode} could not create the order`);
    }

    state.created(created);
    firstLocalWebhookSequence = state.memo!.sequence + 1;
  }

  const historyLimit = timings.historyEventsBeforeContinue ?? HISTORY_EVENTS_BEFORE_CONTINUE;
  const historyFull = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > historyLimit;

  /**
   * Ends this run for a new one: a webhook attempt in flight finishes first, undelivered webhooks
   * move to the next run, and (while the order is open) signals that arrived meanwhile are applied.
   */
  async function continueRun(applyInbox: boolean): Promise<never> {
    closingRun = true;
    await condition(() => !delivering && allHandlersFinished());
    if (applyInbox) for (const event of inbox.splice(0)) state.apply(event);
    // The memo goes along: a run started by continue-as-new has none of its own until the order
    // next changes, and the API reads the order from the latest run's memo.
    return makeContinueAsNewFunc<typeof orderWorkflow>({ memo: { ...state.memo } })(input, state.resumeState(pollDelayMs));
  }

  const createdAtMs = state.createdAtMs();
  while (!isTerminal(state.memo!.order.status)) {
    const now = Date.now();
    const status = state.memo!.order.status;
    const paymentDeadline = UNPAID.includes(status) ? createdAtMs + timings.paymentWindowMs : Infinity;
    const graceEnd = state.settledAtMs !== undefined ? state.settledAtMs + timings.settledGraceMs : Infinity;
    if (now >= graceEnd) break;
    const reviewAt = state.reviewDue();
    if (now >= reviewAt) state.flagForReview();

    const wakeAt = Math.min(now + pollDelayMs, paymentDeadline, graceEnd, now >= reviewAt ? Infinity : reviewAt);
    const waitedFrom = workflowInfo().historyLength;
    const signalled = await condition(() => inbox.length > 0, Math.max(wakeAt - now, 1));
    if (signalled || (localFirstAttempts && inbox.length > 0)) {
      // Woken in a later workflow task: these signals come first in it, before anything the clock decides.
      const afterWait = localFirstAttempts && workflowInfo().historyLength > waitedFrom;
      let changed = false;
      for (const event of inbox.splice(0)) changed = state.apply(event, afterWait) || changed;
      if (changed) pollDelayMs = timings.pollInitialMs;
    } else if (Date.now() < graceEnd) {
      const changed = await poll();
      pollDelayMs = changed ? timings.pollInitialMs : Math.min(pollDelayMs * 2, timings.pollMaxMs);
      state.expireIfUnpaid();
    }

    // Signals that arrived meanwhile are carried over: nothing acknowledged is dropped.
    if (historyFull()) return continueRun(true);
  }

  if (!checksIntegrity) {
    await condition(() => outbox.length === 0 && allHandlersFinished());
    return state.memo!;
  }
  // A final order waits for its webhooks to be delivered; signals that keep arriving meanwhile are
  // ignored, and a history they make long moves the wait to a new run.
  await condition(() => (outbox.length === 0 && allHandlersFinished()) || historyFull());
  if (outbox.length === 0 && allHandlersFinished()) return state.memo!;
  return continueRun(false);

  async function poll(): Promise<boolean> {
    try {
      const snapshot = await (pollsAndWebhooksLocal ? local.getProviderOrderStatus : getProviderOrderStatus)({
        orderId: input.orderId,
        providerCode: input.providerCode,
        providerOrderId: state.pollTarget(),
      });
      return state.apply({ ...snapshot, eventId: undefined, receivedAt: undefined, providerCode: input.providerCode });
    } catch (err) {
      log.warn('status poll failed; will try again', { error: (err as Error).message });
      return false;
    }
  }
}
