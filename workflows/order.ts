import {
  ApplicationFailure,
  ActivityFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  patched,
  proxyActivities,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { OrderActivities, WebhookAttemptOutcome } from '../activities';
import { checkReportedTerms, mergeDifferences, type OrderedTerms, type PaymentDiscrepancy } from '../src/domain/integrity';
import { integratorExtras, type Order } from '../src/domain/order';
import { canTransition, isTerminal, type OrderStatus } from '../src/domain/order-status';
import {
  createOrderUpdate,
  DEFAULT_ORDER_TIMINGS,
  getOrderQuery,
  INTEGRITY_ALERT_KEY,
  integratorWebhookId,
  ORDER_STATUS_KEY,
  providerEventSignal,
  REVIEW_REASON_KEY,
  type IntegratorNotification,
  type OrderMemo,
  type OrderRejectionType,
  type OrderRequest,
  type OrderWorkflowInput,
  type ProviderEvent,
} from '../src/temporal/shared';
import { nextRetryDelayMs } from '../src/webhooks/retry';

const { validateWalletAddress } = proxyActivities<OrderActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 5 },
});

const { createProviderOrder } = proxyActivities<OrderActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '20 seconds',
    maximumAttempts: 6,
    nonRetryableErrorTypes: ['provider_rejected'],
  },
});

const { getProviderOrderStatus } = proxyActivities<OrderActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 3 },
});

/** State carried across continue-as-new. */
export interface OrderResumeState {
  memo: OrderMemo;
  seenEventIds: string[];
  pollDelayMs: number;
  settledAtMs?: number;
  /** Integrator webhooks not yet delivered, oldest first. */
  outbox?: IntegratorNotification[];
}

const UNPAID: readonly OrderStatus[] = ['created', 'pending'];
/** How far a provider's clock may be behind the workflow's when it dates a provider order. */
const PROVIDER_CLOCK_SKEW_MS = 10 * 60_000;
/** Statuses in which the customer has paid and the order waits on the provider: flagged when they last too long. */
const AWAITING_PROVIDER: readonly OrderStatus[] = ['hold', 'processing'];
const SEEN_EVENT_IDS_KEPT = 200;
const HISTORY_EVENTS_BEFORE_CONTINUE = 5_000;
/** Orders started before integrator webhooks existed replay without them. */
export const INTEGRATOR_WEBHOOKS_PATCH = 'integrator-webhooks';
/**
 * Orders started before the integrity checks replay without them: provider binding, the pinned
 * provider order id, the reported terms' check, workflow-scheduled webhook retries and the review flag.
 */
export const ORDER_INTEGRITY_PATCH = 'order-integrity';

/**
 * One order, from address validation and provider order creation to a final status. Provider
 * webhooks arrive as signals; a timer polls the provider when they do not, and expires unpaid orders.
 */
export async function orderWorkflow(input: OrderWorkflowInput, resume?: OrderResumeState): Promise<OrderMemo> {
  const { timings } = input;
  let memo: OrderMemo | null = resume?.memo ?? null;
  let rejection: { type: OrderRejectionType; message: string } | undefined;
  const inbox: ProviderEvent[] = [];
  const seenEventIds: string[] = resume?.seenEventIds ?? [];
  let pollDelayMs = resume?.pollDelayMs ?? timings.pollInitialMs;
  let settledAtMs = resume?.settledAtMs;
  const notifiesIntegrator = patched(INTEGRATOR_WEBHOOKS_PATCH);
  const checksIntegrity = patched(ORDER_INTEGRITY_PATCH);
  const ordered = orderedTerms(input.request);
  const outbox: IntegratorNotification[] = resume?.outbox ?? [];
  let delivering = false;
  let closingRun = false;

  setHandler(
    createOrderUpdate,
    async () => {
      await condition(() => memo !== null || rejection !== undefined);
      if (memo) return memo.order;
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
  setHandler(getOrderQuery, () => memo);

  function publish(current: OrderMemo): void {
    upsertMemo({ ...current });
    upsertSearchAttributes([{ key: ORDER_STATUS_KEY, value: current.order.status }]);
    if (notifiesIntegrator) {
      outbox.push({
        webhookId: integratorWebhookId(current.order.id, current.sequence),
        integratorId: current.integratorId,
        occurredAt: current.order.updated_at,
        order: current.order,
        sequence: current.sequence,
      });
    }
  }

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
      } catch (err) {
        const cause = err instanceof ActivityFailure ? err.cause : err;
        log.error('integrator webhook not delivered', { webhookId: next.webhookId, error: (cause as Error).message });
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
    const { attemptIntegratorWebhook } = proxyActivities<OrderActivities>({
      startToCloseTimeout: timings.webhookAttemptTimeoutMs ?? DEFAULT_ORDER_TIMINGS.webhookAttemptTimeoutMs!,
      // A lost attempt (a worker crash, a timeout) is a failed attempt: the schedule decides the next.
      retry: { maximumAttempts: 1 },
    });
    for (;;) {
      await condition(() => outbox.length > 0 && !closingRun);
      const next = outbox[0]!;
      const waitMs = (next.nextAttemptAtMs ?? 0) - Date.now();
      if (waitMs > 0 && (await condition(() => closingRun, waitMs))) continue;
      const attempt = (next.attempts ?? 0) + 1;
      delivering = true;
      let result: WebhookAttemptOutcome;
      try {
        result = await attemptIntegratorWebhook({ notification: next, attempt });
      } catch (err) {
        const cause = err instanceof ActivityFailure ? err.cause : err;
        result = { outcome: 'failed', error: (cause as Error).message };
      } finally {
        delivering = false;
      }
      const fields = { webhookId: next.webhookId, attempt };
      if (result.outcome === 'failed') {
        const delayMs = nextRetryDelayMs(attempt, retryDelaysMs, result.retryAfterMs);
        if (delayMs !== undefined) {
          outbox[0] = { ...next, attempts: attempt, nextAttemptAtMs: Date.now() + delayMs };
          continue;
        }
        log.error('integrator webhook not delivered: retries used up', { ...fields, error: result.error });
      } else if (result.outcome === 'refused') {
        log.error('integrator webhook not delivered: URL refused', { ...fields, error: result.error });
      } else if (result.outcome === 'no_endpoint') {
        log.info('integrator has no webhook endpoint', fields);
      }
      outbox.shift();
    }
  }
  if (notifiesIntegrator) void (checksIntegrity ? deliverOnSchedule() : deliverNotifications());

  /** Applies a provider report; returns true when the order's status changed. */
  function apply(event: ProviderEvent): boolean {
    if (!memo) return false;
    if (!checksIntegrity) {
      if (event.eventId !== undefined && !firstSight(event.eventId)) return false;
      return applyUnchecked(memo, event);
    }
    // Refused first, so that a refused report cannot take the id of a genuine one that comes later.
    const refusal = refusalOf(memo, event);
    if (refusal) {
      refuse(memo, refusal);
      return false;
    }
    if (event.eventId !== undefined && !firstSight(`${event.providerCode}:${event.eventId}`)) return false;
    return applyChecked(memo, event);
  }

  /** Records an event id; false when it was seen already. */
  function firstSight(id: string): boolean {
    if (seenEventIds.includes(id)) return false;
    seenEventIds.push(id);
    if (seenEventIds.length > SEEN_EVENT_IDS_KEPT) seenEventIds.shift();
    return true;
  }

  /** The provider's report, once it is known to be about this order, and the payment it says was taken. */
  function applyChecked(current: OrderMemo, event: ProviderEvent): boolean {
    let next = current;
    if (next.providerOrderId === undefined && event.providerOrderId !== undefined)
      next = { ...next, providerOrderId: event.providerOrderId };
    const previous = next.order.discrepancies ?? [];
    const discrepancies = mergeDifferences(previous, checkReportedTerms(ordered, event.reported), event.reported);
    const paymentChanged = JSON.stringify(previous) !== JSON.stringify(discrepancies);
    if (paymentChanged) {
      next = { ...next, order: withPayment(next.order, input.request, discrepancies) };
      if (discrepancies.length > 0) {
        log.warn('provider reports a different payment than ordered', { discrepancies });
        next = { ...next, integrityAlert: 'payment_differs' };
        upsertSearchAttributes([{ key: INTEGRITY_ALERT_KEY, value: 'payment_differs' }]);
      }
    }
    const order = next.order;
    const statusChanges = event.status !== order.status && canTransition(order.status, event.status);
    if (!statusChanges) {
      if (event.status !== order.status) {
        log.info('ignoring provider status that would move the order back', { from: order.status, to: event.status });
      }
      memo = next;
      if (paymentChanged) upsertMemo({ ...next });
      return false;
    }
    const changed: Order = {
      ...order,
      status: event.status,
      to_amount: event.cryptoAmount ?? order.to_amount,
      updated_at: new Date().toISOString(),
      extras: {
        ...order.extras,
        provider_status: event.providerStatus,
        ...(next.providerOrderId === undefined ? {} : { provider_order_id: next.providerOrderId }),
        ...(event.transactionHash ? { transaction_hash: event.transactionHash } : {}),
      },
    };
    if (event.status === 'failed') changed.failure_reason = event.failureReason ?? 'failed_at_provider';
    else delete changed.failure_reason;
    memo = { ...next, order: changed, sequence: next.sequence + 1 };
    if (event.status === 'failed' || event.status === 'expired') settledAtMs = Date.now();
    publish(memo);
    return true;
  }

  /** Why a report is not about this order, or undefined when it is. */
  function refusalOf(current: OrderMemo, event: ProviderEvent): string | undefined {
    if (event.providerCode !== input.providerCode) return `from provider ${event.providerCode ?? '(unnamed)'}, not ${input.providerCode}`;
    if (current.providerOrderId !== undefined && event.providerOrderId !== undefined && event.providerOrderId !== current.providerOrderId) {
      return `about provider order ${event.providerOrderId}, not ${current.providerOrderId}`;
    }
    // A provider order made before this order cannot be its payment (a body kept from an older purchase).
    const providerOrderMadeAt = event.providerOrderCreatedAt === undefined ? NaN : Date.parse(event.providerOrderCreatedAt);
    if (providerOrderMadeAt < Date.parse(current.order.created_at) - PROVIDER_CLOCK_SKEW_MS) {
      return `about provider order ${event.providerOrderId ?? '(unnamed)'} made at ${event.providerOrderCreatedAt}, before this order`;
    }
    const { refused } = checkReportedTerms(ordered, event.reported);
    if (refused.length > 0) return refused.map((d) => `${d.field} ${d.reported}, not ${d.ordered}`).join('; ');
    return undefined;
  }

  /** Counts and logs a refused report; the first one flags the order (one command, however many follow). */
  function refuse(current: OrderMemo, reason: string): void {
    log.warn('provider report refused: not about this order', { reason, providerCode: input.providerCode });
    memo = { ...current, refusedReports: (current.refusedReports ?? 0) + 1 };
    if (current.integrityAlert === undefined) {
      memo = { ...memo, integrityAlert: 'report_refused' };
      upsertMemo({ ...memo });
      upsertSearchAttributes([{ key: INTEGRITY_ALERT_KEY, value: 'report_refused' }]);
    }
  }

  /** The report as orders before the integrity checks applied it (their histories replay through this). */
  function applyUnchecked(current: OrderMemo, event: ProviderEvent): boolean {
    const order = current.order;
    const extras = {
      ...order.extras,
      provider_status: event.providerStatus,
      ...(event.providerOrderId ? { provider_order_id: event.providerOrderId } : {}),
      ...(event.transactionHash ? { transaction_hash: event.transactionHash } : {}),
    };
    if (event.status === order.status || !canTransition(order.status, event.status)) {
      if (event.status !== order.status) {
        log.info('ignoring provider status that would move the order back', { from: order.status, to: event.status });
      }
      return false;
    }
    const next: Order = {
      ...order,
      status: event.status,
      to_amount: event.cryptoAmount ?? order.to_amount,
      updated_at: new Date().toISOString(),
      extras,
    };
    if (event.status === 'failed') next.failure_reason = event.failureReason ?? 'failed_at_provider';
    else delete next.failure_reason;
    memo = { ...current, order: next, sequence: current.sequence + 1 };
    if (event.status === 'failed' || event.status === 'expired') settledAtMs = Date.now();
    publish(memo);
    return true;
  }

  async function reject(type: OrderRejectionType, message: string): Promise<never> {
    rejection = { type, message };
    await condition(allHandlersFinished);
    throw ApplicationFailure.nonRetryable(message, type);
  }

  if (!memo) {
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

    const now = new Date().toISOString();
    const { request } = input;
    memo = {
      order: {
        id: input.orderId,
        status: 'created',
        redirect_url: created.redirectUrl,
        from_currency: request.from_currency,
        from_amount: request.from_amount,
        to_currency: request.to_currency,
        to_amount: created.cryptoAmount ?? request.to_amount,
        wallet_address: request.wallet_address,
        payment_method: request.payment_method,
        country_code: request.country_code,
        external_user_id: request.external_user_id,
        external_order_id: request.external_order_id,
        created_at: now,
        updated_at: now,
        extras: {
          ...(checksIntegrity ? integratorExtras(request.extras) : request.extras),
          ...(created.providerOrderId ? { provider_order_id: created.providerOrderId } : {}),
          provider_status: created.providerStatus,
        },
      },
      integratorId: input.integratorId,
      providerCode: input.providerCode,
      requestHash: input.requestHash,
      sequence: 1,
      ...(checksIntegrity && created.providerOrderId ? { providerOrderId: created.providerOrderId } : {}),
    };
    publish(memo);
    apply({ ...created, eventId: undefined, providerCode: input.providerCode });
  }

  const createdAtMs = Date.parse(memo.order.created_at);
  while (!isTerminal(memo.order.status)) {
    const now = Date.now();
    const status = memo.order.status;
    const paymentDeadline = UNPAID.includes(status) ? createdAtMs + timings.paymentWindowMs : Infinity;
    const graceEnd = settledAtMs !== undefined ? settledAtMs + timings.settledGraceMs : Infinity;
    if (now >= graceEnd) break;
    const reviewAt = reviewDue(memo);
    if (now >= reviewAt) flagForReview(memo);

    const wakeAt = Math.min(now + pollDelayMs, paymentDeadline, graceEnd, now >= reviewAt ? Infinity : reviewAt);
    if (await condition(() => inbox.length > 0, Math.max(wakeAt - now, 1))) {
      let changed = false;
      for (const event of inbox.splice(0)) changed = apply(event) || changed;
      if (changed) pollDelayMs = timings.pollInitialMs;
    } else if (Date.now() < graceEnd) {
      const changed = await poll();
      pollDelayMs = changed ? timings.pollInitialMs : Math.min(pollDelayMs * 2, timings.pollMaxMs);
      const current = memo.order.status;
      if (UNPAID.includes(current) && Date.now() >= createdAtMs + timings.paymentWindowMs) {
        const providerStatus = memo.order.extras.provider_status;
        // The broker's own decision, not a provider report: it passes the provider check as the order's own.
        apply({
          status: 'expired',
          providerStatus: typeof providerStatus === 'string' ? providerStatus : 'unknown',
          providerCode: input.providerCode,
        });
      }
    }

    const historyLimit = timings.historyEventsBeforeContinue ?? HISTORY_EVENTS_BEFORE_CONTINUE;
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > historyLimit) {
      // A webhook attempt in flight finishes first; undelivered webhooks move to the next run.
      closingRun = true;
      await condition(() => !delivering && allHandlersFinished());
      // Signals that arrived meanwhile are carried over: nothing acknowledged is dropped.
      for (const event of inbox.splice(0)) apply(event);
      return continueAsNew<typeof orderWorkflow>(input, { memo, seenEventIds, pollDelayMs, settledAtMs, outbox });
    }
  }

  if (!checksIntegrity) {
    await condition(() => outbox.length === 0 && allHandlersFinished());
    return memo;
  }
  // A final order waits for its webhooks to be delivered; signals that keep arriving meanwhile are
  // ignored, and a history they make long moves the wait to a new run.
  const historyLimit = timings.historyEventsBeforeContinue ?? HISTORY_EVENTS_BEFORE_CONTINUE;
  const historyFull = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > historyLimit;
  await condition(() => (outbox.length === 0 && allHandlersFinished()) || historyFull());
  if (outbox.length === 0 && allHandlersFinished()) return memo;
  closingRun = true;
  await condition(() => !delivering && allHandlersFinished());
  return continueAsNew<typeof orderWorkflow>(input, { memo, seenEventIds, pollDelayMs, settledAtMs, outbox });

  /** When an order waiting on the provider is flagged for review; Infinity when it is not to be. */
  function reviewDue(current: OrderMemo): number {
    if (!checksIntegrity || current.reviewReason !== undefined || !AWAITING_PROVIDER.includes(current.order.status)) return Infinity;
    return createdAtMs + (timings.reviewAfterMs ?? DEFAULT_ORDER_TIMINGS.reviewAfterMs!);
  }

  /** The order stays as it is and goes on polling; an operator finds it by ReviewReason. */
  function flagForReview(current: OrderMemo): void {
    log.warn('order open too long: flagged for review', { status: current.order.status, createdAt: current.order.created_at });
    memo = { ...current, reviewReason: 'open_too_long' };
    upsertMemo({ ...memo });
    upsertSearchAttributes([{ key: REVIEW_REASON_KEY, value: 'open_too_long' }]);
  }

  async function poll(): Promise<boolean> {
    const extrasId = memo?.order.extras.provider_order_id;
    // Runs continued from before the integrity checks had no pinned id: the one in extras goes on.
    const providerOrderId = checksIntegrity
      ? (memo?.providerOrderId ?? (typeof extrasId === 'string' ? extrasId : undefined))
      : (extrasId as string | undefined);
    try {
      const snapshot = await getProviderOrderStatus({ orderId: input.orderId, providerCode: input.providerCode, providerOrderId });
      return apply({ ...snapshot, eventId: undefined, providerCode: input.providerCode });
    } catch (err) {
      log.warn('status poll failed; will try again', { error: (err as Error).message });
      return false;
    }
  }
}

/** The order's terms as the integrator requested them: what every provider report is checked against. */
function orderedTerms(request: OrderRequest): OrderedTerms {
  return {
    walletAddress: request.wallet_address,
    cryptoCurrency: request.to_currency,
    fiatCurrency: request.from_currency,
    fiatAmount: request.from_amount,
  };
}

/** The order with the provider-verified payment: its amount and currency, and what differs from the request. */
function withPayment(order: Order, request: OrderRequest, discrepancies: PaymentDiscrepancy[]): Order {
  const reported = (field: PaymentDiscrepancy['field']) => discrepancies.find((d) => d.field === field)?.reported;
  const currency = Number(reported('from_currency'));
  const next: Order = {
    ...order,
    from_amount: reported('from_amount') ?? request.from_amount,
    from_currency: Number.isInteger(currency) ? currency : request.from_currency,
  };
  if (discrepancies.length > 0) next.discrepancies = discrepancies;
  else delete next.discrepancies;
  return next;
}
