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
import type { OrderActivities } from '../activities';
import type { Order } from '../src/domain/order';
import { canTransition, isTerminal, type OrderStatus } from '../src/domain/order-status';
import {
  createOrderUpdate,
  DEFAULT_ORDER_TIMINGS,
  getOrderQuery,
  integratorWebhookId,
  ORDER_STATUS_KEY,
  providerEventSignal,
  type IntegratorNotification,
  type OrderMemo,
  type OrderRejectionType,
  type OrderWorkflowInput,
  type ProviderEvent,
} from '../src/temporal/shared';

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
const SEEN_EVENT_IDS_KEPT = 200;
const HISTORY_EVENTS_BEFORE_CONTINUE = 5_000;
/** Orders started before integrator webhooks existed replay without them. */
export const INTEGRATOR_WEBHOOKS_PATCH = 'integrator-webhooks';

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
          throw ApplicationFailure.nonRetryable(
            'this external_order_id was already used with a different request',
            'idempotency_conflict',
          );
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
  if (notifiesIntegrator) void deliverNotifications();

  /** Applies a provider report; returns true when the order's status changed. */
  function apply(event: ProviderEvent): boolean {
    if (!memo) return false;
    if (event.eventId !== undefined) {
      if (seenEventIds.includes(event.eventId)) return false;
      seenEventIds.push(event.eventId);
      if (seenEventIds.length > SEEN_EVENT_IDS_KEPT) seenEventIds.shift();
    }
    const order = memo.order;
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
    memo = { ...memo, order: next, sequence: memo.sequence + 1 };
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
          ...request.extras,
          ...(created.providerOrderId ? { provider_order_id: created.providerOrderId } : {}),
          provider_status: created.providerStatus,
        },
      },
      integratorId: input.integratorId,
      providerCode: input.providerCode,
      requestHash: input.requestHash,
      sequence: 1,
    };
    publish(memo);
    apply({ ...created, eventId: undefined });
  }

  const createdAtMs = Date.parse(memo.order.created_at);
  while (!isTerminal(memo.order.status)) {
    const now = Date.now();
    const status = memo.order.status;
    const paymentDeadline = UNPAID.includes(status) ? createdAtMs + timings.paymentWindowMs : Infinity;
    const graceEnd = settledAtMs !== undefined ? settledAtMs + timings.settledGraceMs : Infinity;
    if (now >= graceEnd) break;

    const wakeAt = Math.min(now + pollDelayMs, paymentDeadline, graceEnd);
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
        apply({ status: 'expired', providerStatus: typeof providerStatus === 'string' ? providerStatus : 'unknown' });
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

  await condition(() => outbox.length === 0 && allHandlersFinished());
  return memo;

  async function poll(): Promise<boolean> {
    try {
      const snapshot = await getProviderOrderStatus({
        orderId: input.orderId,
        providerCode: input.providerCode,
        providerOrderId: memo?.order.extras.provider_order_id as string | undefined,
      });
      return apply({ ...snapshot, eventId: undefined });
    } catch (err) {
      log.warn('status poll failed; will try again', { error: (err as Error).message });
      return false;
    }
  }
}
