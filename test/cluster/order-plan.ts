import { journeyOrder, JOURNEYS } from '../helpers/provider-journeys';
import { draftOrder, type OrderDraft } from '../helpers/orders';
import { KIT_PROVIDER_CODES, PROVIDER_TEST_KITS } from '../helpers/providers';

/** Every provider simulator the run drives orders through. */
export const PROVIDERS = ['sandbox', ...JOURNEYS.map((j) => j.code)] as const;

/**
 * Where an order is planned to end: `complete` (the customer pays), `failed` (the payment fails),
 * `rejected` (an invalid wallet: the API refuses it with 422 on purpose, nothing is created).
 */
export type PlannedOutcome = 'complete' | 'failed' | 'rejected';

/** What the provider does with the order's webhooks: `drop` leaves the change to polling. */
export type WebhookMode = 'normal' | 'drop' | 'duplicate' | 'reorder';

export interface PlannedOrder {
  index: number;
  provider: string;
  outcome: PlannedOutcome;
  webhooks: WebhookMode;
  draft: OrderDraft;
}

/**
 * Providers the broker can poll only once their first webhook has named the provider order (as
 * their test kits say: Ramp creates the purchase in its widget and echoes no reference,
 * docs/providers.md). Their `drop` orders lose every webhook after that first one.
 */
export const POLLABLE_AFTER_FIRST_WEBHOOK: ReadonlySet<string> = new Set(
  KIT_PROVIDER_CODES.filter((code) => PROVIDER_TEST_KITS[code].pollableAfterFirstWebhook),
);

/** The customer's action on the provider's page for each outcome, and the broker status it ends in. */
export const CHECKOUT: Record<Exclude<PlannedOutcome, 'rejected'>, { action: string; status: string }> = {
  complete: { action: 'pay', status: 'complete' },
  failed: { action: 'fail', status: 'failed' },
};

/** An address of the wrong network for a BTC order: the API answers 422 invalid_wallet_address. */
const WRONG_NETWORK_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** Out of every 20 orders of a provider: 14 complete, 5 fail, 1 is refused on purpose. */
const OUTCOMES: readonly PlannedOutcome[] = [
  ...Array<PlannedOutcome>(14).fill('complete'),
  ...Array<PlannedOutcome>(5).fill('failed'),
  'rejected',
];
const WEBHOOK_MODES: readonly WebhookMode[] = ['normal', 'drop', 'normal', 'duplicate', 'normal', 'reorder', 'normal'];

/** Order `index` of the run: providers in turn, outcomes and webhook modes spread over them deterministically. */
export function planOrder(runId: string, index: number): PlannedOrder {
  const provider = PROVIDERS[index % PROVIDERS.length]!;
  const round = Math.floor(index / PROVIDERS.length);
  // Shuffled per provider so that each sees every outcome and mode early on.
  const p = PROVIDERS.indexOf(provider);
  const outcome = OUTCOMES[(round * 7 + p * 3) % OUTCOMES.length]!;
  const webhooks = outcome === 'rejected' ? 'normal' : WEBHOOK_MODES[(round + p * 2) % WEBHOOK_MODES.length]!;
  const journey = JOURNEYS.find((j) => j.code === provider);
  const ids = { external_user_id: `fault-run-user-${index}`, external_order_id: `fault-run-${runId}-${index}` };
  const base = journey ? journeyOrder(journey) : draftOrder({ ip: '127.0.0.1' });
  const draft: OrderDraft = { ...base, ...ids, ...(outcome === 'rejected' ? { wallet_address: WRONG_NETWORK_ADDRESS } : {}) };
  return { index, provider, outcome, webhooks, draft };
}
