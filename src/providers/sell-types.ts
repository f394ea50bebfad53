/**
 * What a provider's sell (off-ramp) flow offers the broker, in the broker's model: currency IDs,
 * decimal strings, the sell status set. A provider that sells exports a SellAdapter as
 * `ProviderAdapter.sell`; one that does not leaves it out and takes no part in the off-ramp.
 */
import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import type { ReportedDeposit, ReportedSellTerms } from '../domain/sell-integrity';
import type { SellOrderStatus } from '../domain/sell-order-status';
import type { CallSignal } from './kit/call-signal';
import type { IncomingWebhook, OrderLookupContext } from './types';

export type { ReportedDeposit, ReportedSellTerms } from '../domain/sell-integrity';

/** A way the customer is paid: its fee and its payout limits per fiat currency. */
export interface CataloguePayoutMethod {
  code: string;
  name: string;
  icon_url: string | null;
  /** The method's percentage fee as text, e.g. "1.5%", where the provider publishes one. */
  fee?: string;
  /** Payout limits per fiat currency ID (decimal strings in that currency); the method pays only these currencies. */
  limits: Record<number, { min: string; max: string }>;
}

/** What a provider buys from customers where: its sell catalogue, mapped to the broker's currency IDs. */
export interface SellCatalogue {
  /** Crypto currencies it buys. */
  crypto: number[];
  /** Fiat currencies it pays out. */
  fiat: number[];
  /** Countries served; `states` lists the states served where only some are. */
  countries: { code: string; states?: string[] }[];
  payoutMethods: CataloguePayoutMethod[];
  /** Limits of the crypto amount sold, per crypto currency ID, where the provider sets them. */
  cryptoLimits?: Record<number, { min: string; max: string }>;
}

export interface SellQuoteRequest {
  crypto: CryptoCurrency;
  fiat: FiatCurrency;
  /** Decimal string in the crypto currency: what the customer sends. */
  cryptoAmount: string;
  payoutMethod: string;
  country: string;
  state?: string;
  ip?: string;
  externalUserId: string;
}

/** A provider's sell quote: the fiat the customer receives, fees in the fiat currency, already taken off. */
export interface SellQuote {
  cryptoAmount: string;
  /** What is paid out, fees deducted. */
  fiatAmount: string;
  processingFee: string;
  networkFee: string;
  payoutMethod: string;
  providerQuoteId?: string;
  expiresAt?: Date;
}

export interface CreateSellOrderRequest {
  /** The broker's order id, handed to the provider as its partner reference where it takes one. */
  orderId: string;
  crypto: CryptoCurrency;
  fiat: FiatCurrency;
  cryptoAmount: string;
  /** Where the provider returns the crypto when it cannot pay out (validated for the crypto's network). */
  refundWalletAddress: string;
  payoutMethod: string;
  country: string;
  state?: string;
  externalUserId: string;
  /** Where the provider sends the customer back, where it takes one. */
  returnUrl?: string;
  ip?: string;
  userAgent?: string;
  extras: Record<string, unknown>;
}

/** What a provider reports about one sell order, by its API's answer or a verified webhook. */
export interface SellOrderSnapshot {
  /** The broker's order id as the provider's message names it; a snapshot naming another order is refused. */
  orderId: string;
  providerOrderId?: string;
  providerStatus: string;
  status: SellOrderStatus;
  failureReason?: string;
  /**
   * Where the customer sends the crypto, only as the provider's authenticated message names it for
   * this order (never from anything the integrator or the customer sent): the workflow validates it
   * for the order's network and keeps the first for good.
   */
  deposit?: ReportedDeposit;
  /** The customer's deposit transaction, once the provider names it. */
  transactionHash?: string;
  reported?: ReportedSellTerms;
  /** When the provider made the provider order, where its message says. */
  providerOrderCreatedAt?: string;
}

export interface ProviderSellOrder extends SellOrderSnapshot {
  redirectUrl: string;
}

export interface SellWebhookEvent extends SellOrderSnapshot {
  /** The provider's event id, or a digest of the payload: used to drop duplicates. */
  eventId: string;
  /** What a claim names the provider order by, where the adapter claims provider orders (as ProviderWebhookEvent.claimKey). */
  claimKey?: string;
}

export interface SellAdapter {
  getCatalogue(signal?: AbortSignal): Promise<SellCatalogue>;
  getQuote(request: SellQuoteRequest, signal?: CallSignal): Promise<SellQuote>;
  /** What of a quote request decides its answer (as ProviderAdapter.quoteKey); absent: every field. */
  quoteKey?(request: SellQuoteRequest): string;
  createOrder(request: CreateSellOrderRequest): Promise<ProviderSellOrder>;
  getOrder(orderId: string, providerOrderId?: string, context?: OrderLookupContext): Promise<SellOrderSnapshot>;
  /**
   * Whether a webhook at the provider's one webhook URL is about a sell order, read from what the
   * message says of itself before anything is verified: it only routes the message to parseWebhook
   * below, which verifies it as the buy parser does; a wrong answer is a refused webhook, never an
   * accepted one.
   */
  isSellWebhook(webhook: IncomingWebhook): boolean;
  /** Verifies and parses a sell webhook (WebhookVerificationError, IgnoredWebhookError as for buys). */
  parseWebhook(webhook: IncomingWebhook): Promise<SellWebhookEvent>;
  /**
   * Tells the provider the customer's deposit transaction, where the provider documents such a call
   * (Banxa's sell confirmation); absent elsewhere.
   */
  confirmDeposit?(orderId: string, providerOrderId: string | undefined, transactionHash: string): Promise<void>;
}
