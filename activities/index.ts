import { ApplicationFailure, Context } from '@temporalio/activity';
import { validateForProvider } from '../src/addresses/validate';
import type { IntegratorDirectory } from '../src/config/integrators';
import { integratorWebhookAttempts, integratorWebhookAttemptsNotMade, integratorWebhookDuration } from '../src/metrics/metrics';
import type { CurrencyDictionary } from '../src/domain/currency';
import { loggableProviderOrderId } from '../src/domain/provider-order-id';
import { cutDescriptiveTexts, outOfBoundsMessage, textOutOfBounds } from '../src/providers/kit/report-bounds';
import type { ProviderRegistry } from '../src/providers/registry';
import { ProviderRejectedError, type ProviderAdapter, type ProviderOrder, type ProviderOrderSnapshot } from '../src/providers/types';
import type { IntegratorNotification, OrderRequest } from '../src/temporal/order-contract';
import type { OrderRecords } from '../src/temporal/order-records';
import type { WebhookDeliverer } from '../src/webhooks/delivery';
import { deferralDelayMs, DeliveryGate, type DeliveryLimits } from '../src/webhooks/delivery-gate';
import { orderWebhookBody } from '../src/webhooks/event';
import { LocalAttemptGate } from '../src/webhooks/local-attempt-gate';
import type { OutcomeRecorder } from '../src/ranking/outcome-recorder';
import { createReconciliationActivities, type ReconciliationDependencies } from './reconciliation';
import { createReviewActivities, type ReviewDependencies } from './review';
import { createSellActivities } from './sell';

export type { ReconciliationActivities } from './reconciliation';
export type { SellActivities } from './sell';

export interface ActivityDependencies {
  providers: ProviderRegistry;
  currencies: CurrencyDictionary;
  integrators: IntegratorDirectory;
  webhooks: WebhookDeliverer;
  /** Which first webhook attempts this worker makes locally; one per worker by default. */
  localAttempts?: LocalAttemptGate;
  /** How many ordinary webhook attempts this worker makes at once, in all and per integrator. */
  deliveryLimits?: DeliveryLimits;
  /** Whether Temporal still keeps an order's workflow (src/temporal/order-records.ts); for order id reservations. */
  orderRecords?: OrderRecords;
  /** Where settled orders are recorded for the offers' ranking (src/ranking); none: not recorded. */
  outcomes?: OutcomeRecorder;
  /** What the reconciliation with the providers' books reads and signals with (activities/reconciliation.ts). */
  reconciliation?: Omit<ReconciliationDependencies, 'providers'>;
  /** How orders and reconciliations tell their reviews (activities/review.ts); none: they cannot, and wait for a worker that can. */
  reviews?: ReviewDependencies;
}

/** The worker's defaults for 100 activity slots (WORKER_ACTIVITY_SLOTS; src/config/index.ts derives them from it). */
export const DEFAULT_DELIVERY_LIMITS: DeliveryLimits = { perWorker: 50, perIntegrator: 10 };

/** One delivery attempt's outcome; the workflow decides when to try again (src/webhooks/retry.ts). */
export type WebhookAttemptOutcome =
  | { outcome: 'delivered'; status: number }
  | { outcome: 'no_endpoint' }
  | { outcome: 'refused'; error: string }
  | { outcome: 'failed'; error: string; retryAfterMs?: number; /** The endpoint's HTTP status, when it answered. */ status?: number };

/** A local first attempt's outcome: `deferred` when the worker made none (src/webhooks/local-attempt-gate.ts). */
export type LocalWebhookAttemptOutcome = WebhookAttemptOutcome | { outcome: 'deferred' };

/**
 * An ordinary attempt's outcome: `deferred` when the worker made none because the integrator or the
 * worker had as many attempts out as it may (src/webhooks/delivery-gate.ts); try again after
 * `retryAfterMs`, as the same attempt.
 */
export type OrdinaryWebhookAttemptOutcome = WebhookAttemptOutcome | { outcome: 'deferred'; retryAfterMs: number };

export interface AddressCheck {
  valid: boolean;
  reason?: string;
}

/** Activities of the order workflow. Built from their dependencies so tests can inject them. */
export function createActivities({
  providers,
  currencies,
  integrators,
  webhooks,
  localAttempts = new LocalAttemptGate(),
  deliveryLimits = DEFAULT_DELIVERY_LIMITS,
  orderRecords,
  outcomes,
  reconciliation,
  reviews,
}: ActivityDependencies) {
  const deliveries = new DeliveryGate(deliveryLimits, localAttempts.health);
  function adapter(code: string): ProviderAdapter {
    const found = providers.get(code);
    if (!found) throw ApplicationFailure.nonRetryable(`provider ${code} is not enabled on this worker`, 'provider_unavailable');
    return found;
  }

  /**
   * A settled order's outcome, recorded for the ranking beside its webhook attempt: every status
   * change reaches an attempt, with or without an endpoint. Not waited for, so that a slow store
   * never holds a delivery (or, for a local attempt, the order's workflow task); each attempt
   * records it again and the store keeps it once. Never throws.
   */
  function recordOutcome({ notification }: { notification: IntegratorNotification }): void {
    const { order } = notification;
    // The ranking learns from buys alone (a sell order's statuses are not a payment's).
    if (!outcomes || notification.providerCode === undefined || 'kind' in order) return;
    void outcomes.settled({ providerCode: notification.providerCode, integratorId: notification.integratorId, order });
  }

  /** One signed delivery of a notification to its integrator's endpoint, logged; never throws for the receiver's failures. */
  async function deliverOnce(notification: IntegratorNotification, attempt: number): Promise<WebhookAttemptOutcome> {
    const integrator = integrators.byId(notification.integratorId);
    if (!integrator?.webhook_url || !integrator.webhook_secret) return { outcome: 'no_endpoint' };
    const started = performance.now();
    const result = await webhooks.attempt({
      url: integrator.webhook_url,
      secret: integrator.webhook_secret,
      id: notification.webhookId,
      body: orderWebhookBody(notification),
    });
    const durationMs = performance.now() - started;
    integratorWebhookAttempts.inc({ integrator: integrator.id, outcome: result.outcome });
    integratorWebhookDuration.observe({ integrator: integrator.id }, durationMs / 1000);
    localAttempts.record(integrator.id, result.outcome, durationMs);
    const fields = { webhookId: notification.webhookId, attempt, orderId: notification.order.id, sequence: notification.sequence };
    const log = Context.current().log;
    if (result.outcome === 'delivered') {
      log.info('integrator webhook delivered', { ...fields, status: result.status });
      return { outcome: 'delivered', status: result.status };
    }
    if (result.outcome === 'refused') return { outcome: 'refused', error: result.error };
    log.warn('integrator webhook attempt failed', { ...fields, error: result.error });
    return {
      outcome: 'failed',
      error: result.error,
      ...(result.retryAfterMs === undefined ? {} : { retryAfterMs: result.retryAfterMs }),
      ...(result.status === undefined ? {} : { status: result.status }),
    };
  }

  return {
    ...createReconciliationActivities({ providers, ...reconciliation, ...(reviews?.teller ? { reviews: reviews.teller } : {}) }),
    ...createReviewActivities(reviews ?? {}),
    ...createSellActivities({ providers, currencies }),

    /** Whether Temporal still keeps the order's workflow, open or closed (an order id reservation asks). */
    async orderRecordKept(input: { orderId: string }): Promise<boolean> {
      if (!orderRecords) throw ApplicationFailure.retryable('this worker cannot read order records', 'order_records_unavailable');
      return orderRecords.kept(input.orderId);
    },

    // eslint-disable-next-line @typescript-eslint/require-await
    async validateWalletAddress(input: { currencyId: number; walletAddress: string; providerCode?: string }): Promise<AddressCheck> {
      const crypto = currencies.crypto(input.currencyId);
      if (!crypto) return { valid: false, reason: `currency ${input.currencyId} is not a crypto currency` };
      const rule = input.providerCode ? providers.get(input.providerCode)?.validateAddress : undefined;
      const { valid, reason } = validateForProvider(crypto.network, input.walletAddress, {}, rule);
      return reason === undefined ? { valid } : { valid, reason };
    },

    async createProviderOrder(input: { orderId: string; providerCode: string; request: OrderRequest }): Promise<ProviderOrder> {
      const fiat = currencies.fiat(input.request.from_currency);
      const crypto = currencies.crypto(input.request.to_currency);
      if (!fiat || !crypto) throw ApplicationFailure.nonRetryable('unknown currency pair', 'provider_rejected');
      let order: ProviderOrder;
      try {
        // Providers treat our order id as their partner reference, so a retried call finds the
        // order the first attempt created instead of making a second one.
        order = await adapter(input.providerCode).createOrder({
          orderId: input.orderId,
          fiat,
          crypto,
          fiatAmount: input.request.from_amount,
          walletAddress: input.request.wallet_address,
          paymentMethod: input.request.payment_method,
          country: input.request.country_code,
          state: input.request.state_code,
          externalUserId: input.request.external_user_id,
          ip: input.request.ip,
          userAgent: input.request.user_agent,
          extras: input.request.extras,
        });
      } catch (err) {
        if (err instanceof ProviderRejectedError) {
          throw ApplicationFailure.nonRetryable(err.message, 'provider_rejected', { code: err.code, ...err.details });
        }
        throw err;
      }
      // An answer the order cannot hold is unusable, as one of another shape is (provider_unavailable),
      // but not worth retrying: the retry finds the same provider order and gets the same answer.
      // A description too long is cut instead.
      order = cutDescriptiveTexts(order);
      const outOfBounds = textOutOfBounds(order);
      if (outOfBounds) {
        throw ApplicationFailure.nonRetryable(
          `${input.providerCode} answered the order's creation out of bounds: ${outOfBoundsMessage(outOfBounds)}`,
          'provider_unavailable',
        );
      }
      return order;
    },

    /**
     * One attempt to deliver an order webhook; the workflow keeps the attempt count and the next
     * attempt's time in its own state, so a retry series never holds the order up (docs/decisions.md).
     * Within the worker's share for the integrator (src/webhooks/delivery-gate.ts): beyond it the
     * attempt is deferred, and an endpoint that stalls gets one attempt at a time, the others
     * failing at once without a request.
     */
    async attemptIntegratorWebhook(input: {
      notification: IntegratorNotification;
      attempt: number;
    }): Promise<OrdinaryWebhookAttemptOutcome> {
      recordOutcome(input);
      const { integratorId } = input.notification;
      const place = deliveries.tryEnter(integratorId);
      if ('refused' in place) {
        integratorWebhookAttemptsNotMade.inc({ integrator: integratorId, reason: place.refused });
        if (place.refused !== 'not_answering') {
          return { outcome: 'deferred', retryAfterMs: deferralDelayMs(input.notification.deferrals ?? 0) };
        }
        const coolOffS = Math.round(localAttempts.health.limits.coolOffMs / 1000);
        return {
          outcome: 'failed',
          error: `not attempted: the endpoint failed to answer in time within ${coolOffS} s and is being probed`,
        };
      }
      try {
        return await deliverOnce(input.notification, input.attempt);
      } finally {
        place.leave();
      }
    },

    /** The same attempt as a local activity, unless this worker cannot afford to hold the order's workflow task for it. */
    async attemptIntegratorWebhookInWorker(input: {
      notification: IntegratorNotification;
      attempt: number;
    }): Promise<LocalWebhookAttemptOutcome> {
      recordOutcome(input);
      const leave = localAttempts.tryEnter(input.notification.integratorId);
      if (!leave) return { outcome: 'deferred' };
      try {
        return await deliverOnce(input.notification, input.attempt);
      } finally {
        leave();
      }
    },

    /**
     * An operator's cancellation of an unpaid order, asked of the provider (ProviderAdapter.cancelOrder).
     * The provider's refusal, or a provider with no cancel call, is final (`cancel_refused`); the
     * order's status is not touched here: the poll that follows carries what the provider says.
     */
    async cancelProviderOrder(input: { orderId: string; providerCode: string; providerOrderId?: string }): Promise<void> {
      const provider = adapter(input.providerCode);
      if (!provider.cancelOrder) {
        throw ApplicationFailure.nonRetryable(`${input.providerCode} documents no cancellation of an order`, 'cancel_refused');
      }
      try {
        await provider.cancelOrder(input.orderId, input.providerOrderId, Context.current().cancellationSignal);
      } catch (err) {
        if (err instanceof ProviderRejectedError) throw ApplicationFailure.nonRetryable(err.message, 'cancel_refused');
        throw err;
      }
    },

    /**
     * The provider's word on the order. A snapshot with a text over its bound
     * (src/providers/kit/report-bounds.ts), or about another order (its partner reference) or another
     * provider order than the one pinned, is refused, never handed to the workflow.
     */
    async getProviderOrderStatus(input: {
      orderId: string;
      providerCode: string;
      providerOrderId?: string;
      /** The order's `created_at`, where the lookup searches by time (Paybis); absent from orders of older releases. */
      orderCreatedAt?: string;
    }): Promise<ProviderOrderSnapshot> {
      const context = input.orderCreatedAt === undefined ? undefined : { orderCreatedAt: input.orderCreatedAt };
      // A description too long (the failure reason) is cut to its bound; any other text over its bound refuses the answer.
      const snapshot = cutDescriptiveTexts(await adapter(input.providerCode).getOrder(input.orderId, input.providerOrderId, context));
      const outOfBounds = textOutOfBounds(snapshot);
      if (outOfBounds) {
        throw ApplicationFailure.nonRetryable(
          `${input.providerCode} answered out of bounds: ${outOfBoundsMessage(outOfBounds)}`,
          'snapshot_out_of_bounds',
        );
      }
      const mismatch = snapshotMismatch(input, snapshot);
      if (mismatch) throw ApplicationFailure.nonRetryable(`${input.providerCode} answered about ${mismatch}`, 'snapshot_mismatch');
      return snapshot;
    },
  };
}

/** What a status answer is about when it is not the order asked about; undefined when it is. */
function snapshotMismatch(asked: { orderId: string; providerOrderId?: string }, snapshot: ProviderOrderSnapshot): string | undefined {
  if (snapshot.orderId !== asked.orderId) return `order ${JSON.stringify(snapshot.orderId)}, not ${asked.orderId}`;
  if (asked.providerOrderId !== undefined && snapshot.providerOrderId !== undefined && snapshot.providerOrderId !== asked.providerOrderId) {
    return `provider order ${loggableProviderOrderId(snapshot.providerOrderId)}, not ${loggableProviderOrderId(asked.providerOrderId)}`;
  }
  return undefined;
}

export type OrderActivities = ReturnType<typeof createActivities>;
