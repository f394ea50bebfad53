import type { BrokerClient } from './broker-client';
import type { DriverOptions } from './order-driver';
import { POLLABLE_AFTER_FIRST_WEBHOOK } from './order-plan';
import { OPTIONAL_SELL_OUTCOMES, SELL_CHECKOUT, sellOffersPath, type PlannedSell } from './sell-plan';

/** The deposit a sell order shows: where the customer sends the crypto. */
export interface ShownDeposit {
  address: string;
  memo?: string;
  network: string;
}

/** Where the run saw a deposit, and what it said. */
export interface DepositSighting {
  /** The create answer, a status read, or a webhook's delivery id. */
  where: string;
  deposit: ShownDeposit;
}

/** What happened to one planned sell order on the integrator's side. */
export interface SellRecord {
  plan: PlannedSell;
  orderId?: string;
  redirectUrl?: string;
  createAttempts: number;
  saw503: boolean;
  repeatedId?: string;
  noOffer?: boolean;
  /** The simulator refused the planned action (an outcome it cannot play, OPTIONAL_SELL_OUTCOMES). */
  notPlayable?: string;
  checkout?: { page: number; action: number; detail?: string };
  /** Every deposit the integrator was shown by the API (webhooks are read from the receiver). */
  deposits: DepositSighting[];
  error?: string;
}

const RETRY_AFTER_CAP_S = 10;
const retryAfterMs = (retryAfter: string | undefined, fallbackS: number) =>
  Math.min(Number(retryAfter ?? fallbackS) || fallbackS, RETRY_AFTER_CAP_S) * 1000;

/** A deposit as the API or a webhook shows it, or undefined when it shows none. */
export function depositOf(order: unknown): ShownDeposit | undefined {
  const deposit = (order as { deposit?: { address?: unknown; memo?: unknown; network?: unknown } } | undefined)?.deposit;
  if (!deposit || typeof deposit.address !== 'string') return undefined;
  return {
    address: deposit.address,
    network: String(deposit.network),
    ...(typeof deposit.memo === 'string' ? { memo: deposit.memo } : {}),
  };
}

export function noteDeposit(record: SellRecord, where: string, order: unknown): void {
  const deposit = depositOf(order);
  if (deposit) record.deposits.push({ where, deposit });
}

/**
 * Plays one sell order as an integrator and its customer, as driveOrder does a buy: sell offers
 * until its provider offers, the create (repeated after a 503), the provider's sell checkout, then
 * the planned action there.
 */
export async function driveSell(plan: PlannedSell, options: DriverOptions): Promise<SellRecord> {
  const record: SellRecord = { plan, createAttempts: 0, saw503: false, deposits: [] };
  const { client, sleep } = options;
  const deadline = Date.now() + options.placeDeadlineMs;
  const ext = plan.draft.external_order_id;

  if (!(await awaitSellOffer(plan, client, sleep, deadline))) {
    record.noOffer = true;
    return record;
  }
  for (;;) {
    if (Date.now() > deadline) {
      record.error = `not created within ${options.placeDeadlineMs / 1000} s (${record.createAttempts} attempts)`;
      return record;
    }
    record.createAttempts++;
    const res = await client.call('sell_create', ext, '/api/off_ramp/orders', plan.draft);
    if (res.status >= 200 && res.status < 300) {
      record.orderId = res.body.id;
      record.redirectUrl = res.body.redirect_url;
      if (res.body.kind !== 'off_ramp') record.error = `created with kind ${String(res.body.kind)}`;
      noteDeposit(record, 'create answer', res.body);
      break;
    }
    if (res.status === 503) {
      record.saw503 = true;
      await sleep(retryAfterMs(res.retryAfter, 5));
    } else if (res.status === 422 && res.body?.code === 'offer_expired') {
      if (!(await awaitSellOffer(plan, client, sleep, deadline))) {
        record.noOffer = true;
        return record;
      }
    } else if (res.status >= 400 && res.status < 500) {
      record.error = `create refused: ${res.status} ${JSON.stringify(res.body)}`;
      return record;
    } else {
      await sleep(2000);
    }
  }
  if (record.saw503) {
    for (;;) {
      const again = await client.call('sell_create', ext, '/api/off_ramp/orders', plan.draft);
      if (again.status !== 503 || Date.now() > deadline) {
        record.repeatedId = again.body?.id;
        if (again.status === 200) noteDeposit(record, 'repeated create answer', again.body);
        break;
      }
      await sleep(retryAfterMs(again.retryAfter, 5));
    }
  }
  await playSeller(plan, record, options);
  return record;
}

async function awaitSellOffer(
  plan: PlannedSell,
  client: BrokerClient,
  sleep: (ms: number) => Promise<void>,
  deadline: number,
): Promise<boolean> {
  const path = sellOffersPath(plan.draft);
  while (Date.now() < deadline) {
    const res = await client.call('sell_offers', plan.draft.external_order_id, path);
    if (res.status === 200 && res.body?.[plan.provider]) return true;
    await sleep(res.status === 503 ? retryAfterMs(res.retryAfter, 3) : 3000);
  }
  return false;
}

/** The webhook mode, then the customer: opens the provider's sell checkout, then acts there. */
async function playSeller(plan: PlannedSell, record: SellRecord, { simulators, sleep }: DriverOptions): Promise<void> {
  const orderId = record.orderId!;
  const url = record.redirectUrl!;
  try {
    const dropAfterPage = POLLABLE_AFTER_FIRST_WEBHOOK.has(plan.provider);
    if (plan.webhooks === 'drop' && !dropAfterPage) await simulators.setOrderSwitches(plan.provider, orderId, { dropWebhooks: true });
    if (plan.webhooks === 'duplicate') await simulators.setOrderSwitches(plan.provider, orderId, { duplicateWebhooks: true });
    const page = await fetch(url, { signal: AbortSignal.timeout(15_000) });
    await page.arrayBuffer();
    if (plan.webhooks === 'drop' && dropAfterPage) await simulators.setOrderSwitches(plan.provider, orderId, { dropWebhooks: true });
    await sleep(1000);
    const action = SELL_CHECKOUT[plan.outcome];
    const acted = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action }),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await acted.text();
    if (page.ok && acted.status >= 400 && acted.status < 500 && OPTIONAL_SELL_OUTCOMES.has(plan.outcome)) {
      record.notPlayable = `${action}: ${acted.status} ${text.slice(0, 200)}`;
      return;
    }
    record.checkout = { page: page.status, action: acted.status, ...(acted.ok && page.ok ? {} : { detail: text.slice(0, 300) }) };
  } catch (err) {
    record.error = `seller's checkout: ${(err as Error).message}`;
  }
}
