import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry';
import type { InjectedSinks } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import { integratorWebhooksSettled, orderIntegrityAlerts, ordersCreated, ordersRejected, orderTransitions } from '../metrics/metrics';
import { webhookBacklog } from '../metrics/webhook-backlog';
import { PROVIDER_CODES } from '../providers/manifest';
import type { IntegrityAlert, ReviewReason } from '../temporal/order-contract';
import type { OrderMetricsSink, OrderSinks } from '../../workflows/order';
import { workflowSpanSinks } from './tracing';

/** Every value of the `alert` label of onramp_order_integrity_alerts_total. */
const ORDER_FLAGS = ['payment_differs', 'report_refused', 'open_too_long'] as const satisfies readonly (IntegrityAlert | ReviewReason)[];

/**
 * Exports onramp_order_integrity_alerts_total at 0 for every provider and flag. prom-client shows a
 * labelled series only from its first inc(), so a worker's first flag would appear at 1 and
 * Prometheus's increase() (the OnrampOrderIntegrityAlert rule) would not see it. Keeps any count so far.
 */
export function zeroOrderFlagCounts(): void {
  for (const provider of PROVIDER_CODES) for (const alert of ORDER_FLAGS) orderIntegrityAlerts.inc({ provider, alert }, 0);
}

/** A sink function that is not called while a history replays: each event is counted by the worker that lives it, once. */
function live<A extends unknown[]>(fn: (...args: A) => void) {
  return { fn: (_info: WorkflowInfo, ...args: A) => fn(...args), callDuringReplay: false };
}

const counting: OrderMetricsSink = {
  created: (provider) => ordersCreated.inc({ provider }),
  transition: (provider, from, to) => orderTransitions.inc({ provider, from, to }),
  flagged: (provider, alert) => orderIntegrityAlerts.inc({ provider, alert }),
  rejected: (provider, reason) => ordersRejected.inc({ provider, reason }),
  webhookFailed: (webhookId, integratorId, occurredAt, nextAttemptAtMs) =>
    webhookBacklog.failed(webhookId, integratorId, Date.parse(occurredAt), nextAttemptAtMs),
  webhookSettled: (webhookId, integratorId, outcome) => {
    webhookBacklog.settled(webhookId);
    integratorWebhooksSettled.inc({ integrator: integratorId, outcome });
  },
};

/**
 * The order workflow's sinks (workflows/order.ts): its metrics, and its spans (./tracing.ts). The
 * flag counters start at 0 with them (zeroOrderFlagCounts), as the worker starts.
 */
export function orderSinks(): InjectedSinks<OrderSinks & OpenTelemetrySinks> {
  zeroOrderFlagCounts();
  return {
    ...workflowSpanSinks(),
    orderMetrics: {
      created: live(counting.created),
      transition: live(counting.transition),
      flagged: live(counting.flagged),
      rejected: live(counting.rejected),
      webhookFailed: live(counting.webhookFailed),
      webhookSettled: live(counting.webhookSettled),
    },
  };
}
