import BigNumber from 'bignumber.js';
import { createProviderRegistry } from '../../src/providers/registry';
import { testConfig } from '../helpers/config';
import { cryptoOf } from '../helpers/currencies';
import { BTC_ADDRESS, EUR, GBP, USD } from '../helpers/orders';
import { SELL_REFUND_ADDRESS } from '../helpers/sell-orders';
import type { BrokerClient } from './broker-client';
import { POLLABLE_AFTER_FIRST_WEBHOOK, type WebhookMode } from './order-plan';
import { PROVIDER_TEST_KITS } from '../helpers/providers';

/** Every provider of the manifest whose adapter has a sell flow (`ProviderAdapter.sell`), in code order. */
export const SELL_PROVIDERS: readonly string[] = createProviderRegistry(testConfig())
  .all()
  .filter((adapter) => adapter.sell !== undefined)
  .map((adapter) => adapter.info.code);

/** Where a sell order is planned to end. */
export type PlannedSellOutcome = 'complete' | 'failed' | 'expired' | 'refunded';

/** The customer's action on the provider's sell checkout for each outcome (every simulator's sell page takes these). */
export const SELL_CHECKOUT: Record<PlannedSellOutcome, string> = {
  complete: 'pay',
  failed: 'fail',
  expired: 'expire',
  refunded: 'refund',
};

/**
 * Outcomes a provider's simulator may not be able to play although its test kit does not say so:
 * a refusal of their action is recorded as not playable, not as a failure. The endings a provider
 * documents none of (MoonPay's sell refund, Ramp's failed and refunded sale) are not planned at all.
 */
export const OPTIONAL_SELL_OUTCOMES: ReadonlySet<PlannedSellOutcome> = new Set(['expired']);

/** The final statuses a provider's sell checkout plays, as its test kit names them (all four when it names none). */
function documentedEndings(provider: string): readonly PlannedSellOutcome[] {
  const kit = (PROVIDER_TEST_KITS as Record<string, { saleEndings?: readonly PlannedSellOutcome[] } | undefined>)[provider];
  return kit?.saleEndings ?? ['complete', 'failed', 'expired', 'refunded'];
}

/** Each sell provider's orders, in this order: a few, every final status once and a second payment. */
const SELL_OUTCOMES: readonly PlannedSellOutcome[] = ['complete', 'failed', 'expired', 'refunded', 'complete'];
/** No reorder for sells: their webhooks are few and a held batch would outlast the short walks. */
const SELL_WEBHOOK_MODES: readonly WebhookMode[] = ['normal', 'drop', 'duplicate'];

/** What a provider buys in the run: found through the API before the load (discoverSellMarket). */
export interface SellMarket {
  country_code: string;
  state_code?: string;
  /** Crypto currency ID sold, its amount and the refund address on its network. */
  from_currency: number;
  from_amount: string;
  refund_wallet_address: string;
  /** Fiat currency ID paid out, and how. */
  to_currency: number;
  payout_method: string;
  /** The customer's address (Mercuryo signs its sell widget for it: no offer without one). */
  ip: string;
}

export interface SellOrderDraft extends SellMarket {
  provider_code: string;
  external_user_id: string;
  external_order_id: string;
}

export interface PlannedSell {
  index: number;
  provider: string;
  outcome: PlannedSellOutcome;
  webhooks: WebhookMode;
  draft: SellOrderDraft;
}

/** The sell orders of the run: SELL_OUTCOMES for every provider a market was found for (those its checkout documents), providers interleaved. */
export function planSells(runId: string, markets: ReadonlyMap<string, SellMarket>): PlannedSell[] {
  const plans: PlannedSell[] = [];
  const providers = [...markets.keys()];
  for (const [round, outcome] of SELL_OUTCOMES.entries()) {
    for (const [p, provider] of providers.entries()) {
      if (!documentedEndings(provider).includes(outcome)) continue;
      const index = plans.length;
      const mode = SELL_WEBHOOK_MODES[(round + p) % SELL_WEBHOOK_MODES.length]!;
      // Those the broker polls only after a first webhook keep every webhook.
      const webhooks = mode === 'drop' && POLLABLE_AFTER_FIRST_WEBHOOK.has(provider) ? 'normal' : mode;
      plans.push({
        index,
        provider,
        outcome,
        webhooks,
        draft: {
          ...markets.get(provider)!,
          provider_code: provider,
          external_user_id: `fault-run-seller-${index}`,
          external_order_id: `fault-run-${runId}-sell-${index}`,
        },
      });
    }
  }
  return plans;
}

export function sellOffersPath(draft: SellMarket & { external_user_id: string; provider_code: string }, includeErrors = false): string {
  const query = new URLSearchParams({
    external_user_id: draft.external_user_id,
    currency_from: String(draft.from_currency),
    currency_to: String(draft.to_currency),
    amount_from: draft.from_amount,
    country: draft.country_code,
    ...(draft.state_code ? { state: draft.state_code } : {}),
    ip: draft.ip,
    provider_codes: draft.provider_code,
    ...(includeErrors ? { include_errors: 'true' } : {}),
  });
  return `/api/off_ramp/offers?${query.toString()}`;
}

/** Where the run's customers' browsers are (the cluster's loopback). */
const CUSTOMER_IP = '127.0.0.1';
const ETH = cryptoOf('ETH', 'ethereum').id;
const BTC = cryptoOf('BTC', 'bitcoin').id;
/** The crypto the run sells, with a refund address of its network and a starting amount. */
const CRYPTOS = [
  { id: ETH, amount: '0.1', refund: SELL_REFUND_ADDRESS },
  { id: BTC, amount: '0.005', refund: BTC_ADDRESS },
] as const;
const PLACES = [
  { country_code: 'DE', to_currency: EUR },
  { country_code: 'GB', to_currency: GBP },
  { country_code: 'US', state_code: 'CA', to_currency: USD },
] as const;

/**
 * The first place, crypto and payout method the provider offers to buy through the broker's own
 * sell offers (ETH, then BTC; in DE, GB, then California), with an amount inside its limits; none
 * when it offers none of them. Asked before the load, with a client whose answers are not the run's.
 */
export async function discoverSellMarket(client: BrokerClient, provider: string): Promise<SellMarket | undefined> {
  for (const place of PLACES) {
    for (const crypto of CRYPTOS) {
      let amount: string = crypto.amount;
      for (let attempt = 0; attempt < 2; attempt++) {
        const market = { ...place, from_currency: crypto.id, from_amount: amount, refund_wallet_address: crypto.refund, ip: CUSTOMER_IP };
        const path = sellOffersPath({ ...market, external_user_id: 'fault-run-probe', provider_code: provider, payout_method: '' }, true);
        const res = await client.call('sell_offers', 'probe', path);
        const entry = res.status === 200 ? res.body?.[provider] : undefined;
        const method = entry?.payout_methods?.[0]?.payout_method_code;
        if (entry && !entry.error && typeof method === 'string') return { ...market, payout_method: method };
        const min = entry?.error?.min_amount;
        const max = entry?.error?.max_amount;
        if (entry?.error?.code !== 'limits' || (min === undefined && max === undefined)) break;
        // Inside the crypto limits: twice the minimum, or half the maximum.
        const next = min !== undefined ? new BigNumber(min).times(2) : new BigNumber(max).div(2);
        const capped = max !== undefined ? BigNumber.min(next, new BigNumber(max)) : next;
        amount = capped.decimalPlaces(8, BigNumber.ROUND_UP).toFixed();
      }
    }
  }
  return undefined;
}
