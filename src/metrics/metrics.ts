/**
 * Every metric the broker exports, defined once (docs/operations.md, "Metrics and alerts", is the
 * catalogue). Names follow Prometheus's conventions: `onramp_` first, `_total` for counters,
 * `_seconds` for durations. Labels are few-valued: provider codes, route templates, statuses,
 * integrator ids from the integrators file; never a raw URL, an order id or anything a caller
 * chooses freely.
 */
import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from './registry';

const registers = [registry];

/** Request durations: from a cached dictionary (~1 ms) to an order creation that waits on a provider (~30 s). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Provider answers: quotes within OFFERS_PROVIDER_TIMEOUT_MS (3 s), order calls within 10-30 s. */
const PROVIDER_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30];

// HTTP (the API)
export const httpRequests = new Counter({
  name: 'onramp_http_requests_total',
  help: 'HTTP requests answered by the API, by method, route template and status class.',
  labelNames: ['method', 'route', 'status_class'] as const,
  registers,
});
export const httpRequestDuration = new Histogram({
  name: 'onramp_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being sent, by method, route template and status class.',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: REQUEST_BUCKETS,
  registers,
});

// Offers
export const offerQuoteDuration = new Histogram({
  name: 'onramp_offer_quote_duration_seconds',
  help: 'Time a provider took to answer an offers request (all its payment methods quoted), for providers that were asked.',
  labelNames: ['provider'] as const,
  buckets: PROVIDER_BUCKETS,
  registers,
});
export const offerOutcomes = new Counter({
  name: 'onramp_offer_outcomes_total',
  help: "Each provider's part of an offers request: ok (an offer), or the offer error code (timeout, limits, country, state, currency, payment_method, unavailable, ip_required, provider_unavailable).",
  labelNames: ['provider', 'reason'] as const,
  registers,
});
export const offerProviderSlow = new Gauge({
  name: 'onramp_offer_provider_slow',
  help: '1 while a provider is left out of offers for timing out in a row (probed now and then), 0 otherwise.',
  labelNames: ['provider'] as const,
  registers,
});
export const providerBreakerState = new Gauge({
  name: 'onramp_provider_breaker_state',
  help: "A provider's order-creation circuit breaker as this API process sees it: 0 closed, 1 half-open (probe orders let through), 2 open (left out of offers, orders refused).",
  labelNames: ['provider'] as const,
  registers,
});
export const providerBreakerTransitions = new Counter({
  name: 'onramp_provider_breaker_transitions_total',
  help: "Changes of a provider's circuit breaker made by this API process, by from/to state (closed, open, half_open).",
  labelNames: ['provider', 'from', 'to'] as const,
  registers,
});
export const offerProviderDeadline = new Gauge({
  name: 'onramp_offer_provider_deadline_seconds',
  help: "The deadline a provider's quotes get now: a multiple of its recent p99 within OFFERS_DEADLINE_FLOOR_MS and OFFERS_PROVIDER_TIMEOUT_MS.",
  labelNames: ['provider'] as const,
  registers,
});
export const providerQuotesCoalesced = new Counter({
  name: 'onramp_provider_quotes_coalesced_total',
  help: 'Quote calls not made because an identical one to the same provider was in flight, whose answer was shared.',
  labelNames: ['provider'] as const,
  registers,
});
export const providerQuoteQueueWait = new Histogram({
  name: 'onramp_provider_quote_queue_wait_seconds',
  help: "Time a quote call waited for a slot under PROVIDER_QUOTE_CONCURRENCY (or its integrator's share of it), for the calls that had to wait (given up ones included).",
  labelNames: ['provider'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3],
  registers,
});
export const offersPerRequest = new Histogram({
  name: 'onramp_offers_per_request',
  help: 'Offers returned by one offers request.',
  buckets: [0, 1, 2, 3, 4, 5, 6, 8, 10],
  registers,
});

// Sell (off-ramp) offers: the same figures as the buy offers' above, for sell quotes.
export const sellOfferQuoteDuration = new Histogram({
  name: 'onramp_sell_offer_quote_duration_seconds',
  help: 'Time a provider took to answer a sell offers request (all its payout methods quoted), for providers that were asked.',
  labelNames: ['provider'] as const,
  buckets: PROVIDER_BUCKETS,
  registers,
});
export const sellOfferOutcomes = new Counter({
  name: 'onramp_sell_offer_outcomes_total',
  help: "Each provider's part of a sell offers request: ok (an offer), or the sell offer error code (timeout, limits, country, state, currency, payout_method, unavailable, ip_required, provider_unavailable).",
  labelNames: ['provider', 'reason'] as const,
  registers,
});
export const sellOfferProviderSlow = new Gauge({
  name: 'onramp_sell_offer_provider_slow',
  help: '1 while a provider is left out of sell offers for timing out in a row (probed now and then), 0 otherwise.',
  labelNames: ['provider'] as const,
  registers,
});
export const sellOfferProviderDeadline = new Gauge({
  name: 'onramp_sell_offer_provider_deadline_seconds',
  help: "The deadline a provider's sell quotes get now: a multiple of its recent p99 within OFFERS_DEADLINE_FLOOR_MS and OFFERS_PROVIDER_TIMEOUT_MS.",
  labelNames: ['provider'] as const,
  registers,
});
export const sellProviderQuotesCoalesced = new Counter({
  name: 'onramp_sell_provider_quotes_coalesced_total',
  help: 'Sell quote calls not made because an identical one to the same provider was in flight, whose answer was shared.',
  labelNames: ['provider'] as const,
  registers,
});
export const sellProviderQuoteQueueWait = new Histogram({
  name: 'onramp_sell_provider_quote_queue_wait_seconds',
  help: "Time a sell quote call waited for a slot under PROVIDER_QUOTE_CONCURRENCY (or its integrator's share of it), for the calls that had to wait.",
  labelNames: ['provider'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3],
  registers,
});
export const sellOffersPerRequest = new Histogram({
  name: 'onramp_sell_offers_per_request',
  help: 'Offers returned by one sell offers request.',
  buckets: [0, 1, 2, 3, 4, 5, 6, 8, 10],
  registers,
});

// Provider API calls (API and worker)
export const providerRequests = new Counter({
  name: 'onramp_provider_requests_total',
  help: 'HTTP calls to provider APIs by provider, operation (quote, create, status, catalogue, token, webhook) and outcome (ok, refused, server_error, timeout, aborted, error).',
  labelNames: ['provider', 'operation', 'outcome'] as const,
  registers,
});
export const providerRequestDuration = new Histogram({
  name: 'onramp_provider_request_duration_seconds',
  help: 'Duration of HTTP calls to provider APIs, by provider and operation.',
  labelNames: ['provider', 'operation'] as const,
  buckets: PROVIDER_BUCKETS,
  registers,
});

// Provider webhooks (the API)
export const providerWebhooksReceived = new Counter({
  name: 'onramp_provider_webhooks_received_total',
  help: 'Provider webhooks received for an enabled provider.',
  labelNames: ['provider'] as const,
  registers,
});
export const providerWebhooksVerified = new Counter({
  name: 'onramp_provider_webhooks_verified_total',
  help: 'Provider webhooks whose signature verified and whose event was read.',
  labelNames: ['provider'] as const,
  registers,
});
export const providerWebhooksRefused = new Counter({
  name: 'onramp_provider_webhooks_refused_total',
  help: 'Provider webhooks not signalled, by reason: invalid_signature, provider_unavailable, provider_rejected, out_of_bounds, unknown_order, other_provider, claimed_elsewhere.',
  labelNames: ['provider', 'reason'] as const,
  registers,
});
export const providerWebhooksDuplicate = new Counter({
  name: 'onramp_provider_webhooks_duplicate_total',
  help: 'Provider webhooks acknowledged without a signal because their event was signalled before.',
  labelNames: ['provider'] as const,
  registers,
});
export const providerWebhooksIgnored = new Counter({
  name: 'onramp_provider_webhooks_ignored_total',
  help: 'Provider webhooks acknowledged without a signal because the broker does not act on their kind of event.',
  labelNames: ['provider'] as const,
  registers,
});
export const providerWebhooksSignalled = new Counter({
  name: 'onramp_provider_webhooks_signalled_total',
  help: "Provider webhook events signalled to their order's workflow.",
  labelNames: ['provider'] as const,
  registers,
});

// Orders (the worker, through the order workflow's sink: counted once, never on replay)
export const ordersCreated = new Counter({
  name: 'onramp_orders_created_total',
  help: 'Orders whose provider order was created.',
  labelNames: ['provider'] as const,
  registers,
});
export const ordersRejected = new Counter({
  name: 'onramp_orders_rejected_total',
  help: 'Orders refused at creation, by reason (invalid_wallet_address, provider_rejected, provider_unavailable).',
  labelNames: ['provider', 'reason'] as const,
  registers,
});
export const orderTransitions = new Counter({
  name: 'onramp_order_transitions_total',
  help: 'Order status changes, by provider and from/to status (created orders count from "new").',
  labelNames: ['provider', 'from', 'to'] as const,
  registers,
});
export const orderIntegrityAlerts = new Counter({
  name: 'onramp_order_integrity_alerts_total',
  help: 'Orders flagged with an IntegrityAlert (payment_differs, report_refused) or a ReviewReason (open_too_long).',
  labelNames: ['provider', 'alert'] as const,
  registers,
});
export const openOrders = new Gauge({
  name: 'onramp_open_orders',
  help: 'Running order workflows by OrderStatus, ProviderCode and age since the run started, counted from Temporal visibility.',
  labelNames: ['status', 'provider', 'age_bucket'] as const,
  registers,
});
export const openOrdersCountedAt = new Gauge({
  name: 'onramp_open_orders_counted_timestamp_seconds',
  help: 'When onramp_open_orders was last counted (Unix seconds).',
  registers,
});
export const openOrdersCountErrors = new Counter({
  name: 'onramp_open_orders_count_errors_total',
  help: 'Counts of open orders from Temporal visibility that failed.',
  registers,
});

// Integrator webhooks (the worker)
export const integratorWebhookAttempts = new Counter({
  name: 'onramp_integrator_webhook_attempts_total',
  help: 'Attempts to deliver a webhook to an integrator, by integrator and outcome (delivered, failed, refused).',
  labelNames: ['integrator', 'outcome'] as const,
  registers,
});
export const integratorWebhookDuration = new Histogram({
  name: 'onramp_integrator_webhook_attempt_duration_seconds',
  help: "Duration of one delivery attempt to an integrator's endpoint.",
  labelNames: ['integrator'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers,
});
export const integratorWebhookAttemptsNotMade = new Counter({
  name: 'onramp_integrator_webhook_attempts_not_made_total',
  help: 'Ordinary webhook attempts a worker did not make, by integrator and reason: integrator_busy or worker_busy (deferred, tried again soon), not_answering (failed at once: the endpoint stalls and is being probed).',
  labelNames: ['integrator', 'reason'] as const,
  registers,
});
export const integratorWebhooksSettled = new Counter({
  name: 'onramp_integrator_webhooks_settled_total',
  help: 'Integrator webhooks done with, by outcome: delivered, given_up (retries used up), refused (URL refused), no_endpoint.',
  labelNames: ['integrator', 'outcome'] as const,
  registers,
});
export const integratorWebhookOldestUndelivered = new Gauge({
  name: 'onramp_integrator_webhook_oldest_undelivered_seconds',
  help: 'Age of the oldest integrator webhook this worker saw fail and not yet delivered (0 when none).',
  labelNames: ['integrator'] as const,
  registers,
});

// Guards and dependencies (the API and the worker)
export const rateLimitRefusals = new Counter({
  name: 'onramp_rate_limit_refusals_total',
  help: 'Requests refused with 429, by limiter (api_key, client_ip, integrator_concurrency, order_searches, order_search_budget) and the class of key counted (integrator, ip).',
  labelNames: ['limiter', 'key_class'] as const,
  registers,
});
export const redisErrors = new Counter({
  name: 'onramp_redis_errors_total',
  help: 'Redis failures: connection (the client lost or could not open its connection), timeout (a call over its deadline), command (a call that failed).',
  labelNames: ['kind'] as const,
  registers,
});
/** The work of GET /api/on_ramp/orders: records listed from visibility, and memos decoded (decrypted) of them. */
export const orderSearchRecords = new Counter({
  name: 'onramp_order_search_records_total',
  help: 'Visibility records the order search read (stage="read"), whose memo it decoded (stage="decoded"), and left out because the memo could not be decoded (stage="undecodable").',
  labelNames: ['stage'] as const,
  registers,
});
/** GET /api/on_ramp/orders/export, by how each ended. */
export const orderExportsEnded = new Counter({
  name: 'onramp_order_exports_total',
  help: 'Order exports by format and outcome: complete; refused (a problem answer before any row); timeout or too_many_rows (cut past a limit); client_gone; failed (Temporal or the codec failed mid-stream).',
  labelNames: ['format', 'outcome'] as const,
  registers,
});

/** Reconciliations with the providers' books (src/reconciliation), by how each run ended. */
export const reconciliationRuns = new Counter({
  name: 'onramp_reconciliation_runs_total',
  help: 'Reconciliation runs by provider and outcome: clean (no mismatch), mismatches, failed (a side could not be read).',
  labelNames: ['provider', 'outcome'] as const,
  registers,
});
export const reconciliationMismatches = new Counter({
  name: 'onramp_reconciliation_mismatches_total',
  help: "Mismatches reconciliation runs found with a provider's books, by kind (missing_here, missing_at_provider, status_differs, terms_differ, duplicate_payment; unreadable: rows of its books the broker could not read).",
  labelNames: ['provider', 'kind'] as const,
  registers,
});
export const reconciliationLastRun = new Gauge({
  name: 'onramp_reconciliation_last_run_timestamp_seconds',
  help: 'When a reconciliation of the provider last read both sides to the end (Unix seconds).',
  labelNames: ['provider'] as const,
  registers,
});

export const temporalClientErrors = new Counter({
  name: 'onramp_temporal_client_errors_total',
  help: "The API's Temporal calls that failed for want of Temporal, by operation (create, describe, signal, claim).",
  labelNames: ['operation'] as const,
  registers,
});

/** Every metric above (those this module registered; the process metrics are only collected when scraped). */
const BROKER_METRICS = registry.getMetricsAsArray().filter((metric) => metric.name.startsWith('onramp_'));

let recording = true;

/** Whether the broker's metrics record (METRICS_ENABLED, true unless turned off). */
export function metricsRecording(): boolean {
  return recording;
}

/** The methods that record; when recording is off, each does nothing. */
const RECORDING_METHODS = ['inc', 'dec', 'set', 'observe', 'reset', 'zero', 'startTimer'] as const;
function noop(): () => void {
  return noop;
}
/** The recording methods a metric had as its own properties (prom-client sets some), kept while recording is off. */
const ownMethods = new Map<object, Record<string, unknown>>();

/**
 * Turns the broker's metrics (every metric above) on or off for the whole process: METRICS_ENABLED,
 * set by the API's and the worker's composition roots from their configuration (in `npm run dev`
 * both run in one process with one configuration). Off, each metric's recording methods are
 * replaced on the metric object itself by a function that does nothing, so a call site costs a
 * call and nothing more; on (the default), no check is added to any call: turning it back on
 * puts the metric's own methods back.
 */
export function setMetricsRecording(on: boolean): void {
  if (on === recording) return;
  recording = on;
  for (const metric of BROKER_METRICS) {
    const target = metric as unknown as Record<string, unknown>;
    if (on) {
      for (const method of RECORDING_METHODS) delete target[method];
      Object.assign(target, ownMethods.get(metric));
      ownMethods.delete(metric);
      continue;
    }
    const own: Record<string, unknown> = {};
    for (const method of RECORDING_METHODS) {
      if (typeof target[method] !== 'function') continue;
      if (Object.prototype.hasOwnProperty.call(target, method)) own[method] = target[method];
      target[method] = noop;
    }
    ownMethods.set(metric, own);
  }
}

/** `2xx`, `4xx`, ...: the label HTTP metrics carry instead of the status itself. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export const rankingOutcomesRecorded = new Counter({
  name: 'onramp_ranking_outcomes_total',
  help: 'Order outcomes handed to the ranking statistics, by kind (complete, not_complete, refused) and result (folded; repeated: folded before; error: the store failed).',
  labelNames: ['kind', 'result'] as const,
  registers,
});
