import type { AppConfig } from '../../../src/config';
import type { ProviderCode } from '../../../src/providers/manifest';
import type { MarketName } from '../markets';
import type { SellMarket } from '../sell-orders';

/** The providers with a real counterpart: every one in the manifest but the generic sandbox. */
export type RealProviderCode = Exclude<ProviderCode, 'sandbox'>;

/** The configuration the broker runs a provider on against its simulator. */
export type SimulatedConfig<C extends ProviderCode> = Extract<AppConfig['providers'][C], { mode: 'simulator' }>['config'];

/** A webhook as posted to /api/webhooks/<code>. */
export interface ForgedWebhook {
  /** Query string of the webhook URL, with its leading `?` (Ramp's carries the order id). */
  query: string;
  headers: Record<string, string>;
  body: string;
}

/** The signature headers and webhook URL query that make a raw body genuine. */
export interface WebhookSigning {
  headers: Record<string, string>;
  query: string;
  /** Where the signature lives inside the body (Alchemy Pay's `newSignature`): the body to send instead, signed. */
  body?: string;
}

/** One purchase a customer makes with the provider: where, and how they pay. */
export interface Purchase {
  market: MarketName;
  paymentMethod: string;
}

export type SellEnding = 'complete' | 'failed' | 'expired' | 'refunded';

/** What the tests shared by every provider need to know of one (test/helpers/providers/<code>.ts). */
export interface ProviderTestKit<C extends ProviderCode = ProviderCode> {
  /** Its simulated configuration's secret credentials: each is derived from SIMULATOR_SECRET when that is set. */
  secrets: readonly (keyof SimulatedConfig<C>)[];
  /** What signs its webhooks, as published in this repository: a broker with a private SIMULATOR_SECRET trusts none of it. */
  publishedSigningCredentials: Partial<SimulatedConfig<C>>;
  /**
   * How its genuine webhooks are signed with the keys a development stack trusts (the simulator's
   * development credentials): the signature headers and query for a raw body, empty where the
   * scheme cannot sign it, and the signed body where the signature is part of it.
   */
  signWebhook(body: string, orderId: string): WebhookSigning;
  /** True when the broker can poll an order only once the first webhook has named the provider order. */
  pollableAfterFirstWebhook: boolean;
  /**
   * True when the adapter reads the order from the provider for each webhook (the event names only
   * the order): a genuinely signed event about an order the provider does not show is then refused
   * 422 provider_rejected.
   */
  readsOrderForWebhook?: true;
  /** Where a customer sells it crypto, for a provider whose adapter has a sell flow (the sell journeys). */
  sale?: SellMarket;
  /**
   * The final statuses its sell checkout walks to (all four when absent): a provider that documents
   * no sell refund or failure has no action for it (its page says so).
   */
  saleEndings?: readonly SellEnding[];
}

/** A provider with a real counterpart also takes a purchase through its simulator, and can be forged. */
export interface RealProviderTestKit<C extends RealProviderCode = RealProviderCode> extends ProviderTestKit<C> {
  purchase: Purchase;
  /** The markets where it sells by card (the offers test of every market); all of them when absent. */
  cardMarkets?: readonly MarketName[];
  /**
   * A webhook in its own format and signature scheme announcing that the order is complete, signed
   * with a key the broker does not trust: what a forger can send.
   */
  forgeWebhook(orderId: string): ForgedWebhook | Promise<ForgedWebhook>;
}

/** Every provider's test kit, by the manifest's codes: a provider added to the manifest without one does not compile. */
export type ProviderTestKits = { readonly [C in ProviderCode]: C extends RealProviderCode ? RealProviderTestKit<C> : ProviderTestKit<C> };

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
