import { offersQuery } from '../helpers/orders';
import type { BrokerClient } from './broker-client';
import { CHECKOUT, POLLABLE_AFTER_FIRST_WEBHOOK, type PlannedOrder } from './order-plan';
import type { SimulatorControl } from './simulator-control';

/** What happened to one planned order on the integrator's side. */
export interface OrderRecord {
  plan: PlannedOrder;
  /** The broker's order id and the provider's page, from the first 2xx create. */
  orderId?: string;
  redirectUrl?: string;
  ackedAt?: number;
  createAttempts: number;
  /** A create of this order was answered 503 before it succeeded. */
  saw503: boolean;
  /** The id a repeat of the create returned after the 503, which must be the same order. */
  repeatedId?: string;
  /** No offer of its provider came while the run tried: the integrator never placed it. */
  noOffer?: boolean;
  /** The problem code of the planned refusal (outcome `rejected`). */
  refusedWith?: string;
  /** The customer's page: status of the page load and of the action. */
  checkout?: { page: number; action: number; detail?: string };
  /** Why the driver gave up on the order, when it did. */
  error?: string;
}

export interface DriverOptions {
  client: BrokerClient;
  simulators: SimulatorControl;
  /** How long one order may take to be placed (offers and create, retries included). */
  placeDeadlineMs: number;
  /** Waits run through here, so that the run can end them all (Ctrl-C). */
  sleep: (ms: number) => Promise<void>;
}

const RETRY_AFTER_CAP_S = 10;

/**
 * Plays one order as an integrator and its customer: offers until its provider offers, the create
 * (repeated with the same body after a 503, as Retry-After says), the provider's page, then the
 * planned action there. The order's webhook mode is set at the provider before the customer opens the page.
 */
export async function driveOrder(plan: PlannedOrder, options: DriverOptions): Promise<OrderRecord> {
  const record: OrderRecord = { plan, createAttempts: 0, saw503: false };
  const { client, sleep } = options;
  const deadline = Date.now() + options.placeDeadlineMs;
  const ext = plan.draft.external_order_id;

  if (!(await awaitOffer(plan, options, deadline))) {
    record.noOffer = true;
    return record;
  }
  for (;;) {
    if (Date.now() > deadline) {
      record.error = `not created within ${options.placeDeadlineMs / 1000} s (${record.createAttempts} attempts)`;
      return record;
    }
    record.createAttempts++;
    const res = await client.call('create', ext, '/api/on_ramp/orders', plan.draft);
    if (res.status >= 200 && res.status < 300) {
      record.orderId = res.body.id;
      record.redirectUrl = res.body.redirect_url;
      record.ackedAt = Date.now();
      break;
    }
    if (res.status === 503) {
      record.saw503 = true;
      await sleep(Math.min(Number(res.retryAfter ?? 5) || 5, RETRY_AFTER_CAP_S) * 1000);
    } else if (res.status === 422 && res.body?.code === 'offer_expired') {
      if (!(await awaitOffer(plan, options, deadline))) {
        record.noOffer = true;
        return record;
      }
    } else if (res.status >= 400 && res.status < 500) {
      record.refusedWith = res.body?.code ?? String(res.status);
      if (plan.outcome !== 'rejected') record.error = `create refused: ${res.status} ${JSON.stringify(res.body)}`;
      return record;
    } else {
      // No answer, or a 5xx other than 503: counted as unexpected; an integrator tries again.
      await sleep(2000);
    }
  }
  if (plan.outcome === 'rejected') record.error = `created although planned to be refused (${record.orderId})`;
  if (record.saw503) {
    // Repeated as an integrator would: a 503 (an outage the schedule began meanwhile; the answers
    // check judges it) is waited out as the create's own were, and the first other answer counts.
    for (;;) {
      const again = await client.call('create', ext, '/api/on_ramp/orders', plan.draft);
      if (again.status !== 503 || Date.now() > deadline) {
        record.repeatedId = again.body?.id;
        break;
      }
      await sleep(Math.min(Number(again.retryAfter ?? 5) || 5, RETRY_AFTER_CAP_S) * 1000);
    }
  }
  if (plan.outcome === 'rejected') return record;
  await playCustomer(plan, record, options);
  return record;
}

async function awaitOffer(plan: PlannedOrder, { client, sleep }: DriverOptions, deadline: number): Promise<boolean> {
  const ext = plan.draft.external_order_id;
  while (Date.now() < deadline) {
    const res = await client.call('offers', ext, `/api/on_ramp/offers?${offersQuery(plan.draft)}`);
    if (res.status === 200 && res.body?.[plan.provider]) return true;
    await sleep(res.status === 503 ? Math.min(Number(res.retryAfter ?? 3) || 3, RETRY_AFTER_CAP_S) * 1000 : 3000);
  }
  return false;
}

/** The webhook mode, then the customer: opens the provider's page, then acts there. */
async function playCustomer(plan: PlannedOrder, record: OrderRecord, { simulators, sleep }: DriverOptions): Promise<void> {
  const orderId = record.orderId!;
  const url = record.redirectUrl!;
  try {
    const dropAfterPage = POLLABLE_AFTER_FIRST_WEBHOOK.has(plan.provider);
    if (plan.webhooks === 'drop' && !dropAfterPage) await simulators.setOrderSwitches(plan.provider, orderId, { dropWebhooks: true });
    if (plan.webhooks === 'duplicate') await simulators.setOrderSwitches(plan.provider, orderId, { duplicateWebhooks: true });
    if (plan.webhooks === 'reorder') await simulators.setOrderSwitches(plan.provider, orderId, { reorderWebhooks: true });
    const page = await fetch(url, { signal: AbortSignal.timeout(15_000) });
    await page.arrayBuffer();
    // The page has opened the provider order and queued its first webhook: later ones are dropped.
    if (plan.webhooks === 'drop' && dropAfterPage) await simulators.setOrderSwitches(plan.provider, orderId, { dropWebhooks: true });
    await sleep(1000);
    const { action } = CHECKOUT[plan.outcome as keyof typeof CHECKOUT];
    const acted = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action }),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await acted.text();
    record.checkout = { page: page.status, action: acted.status, ...(acted.ok && page.ok ? {} : { detail: text.slice(0, 300) }) };
    if (plan.webhooks === 'reorder') {
      // Once the provider's walk is over, its webhooks go out newest first.
      await sleep(8000);
      await simulators.setOrderSwitches(plan.provider, orderId, { reorderWebhooks: false });
    }
  } catch (err) {
    record.error = `customer's page: ${(err as Error).message}`;
  }
}
