import { z } from 'zod';
import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import type { OrderStatus } from '../domain/order-status';
import type { ReportedTerms } from '../domain/integrity';
import { amountLimits, type Decimal } from '../domain/money';
import type { CallSignal } from './kit/call-signal';
import type { SellAdapter } from './sell-types';

export type { ReportedTerms } from '../domain/integrity';

/** The provider resource of the API (spec "Provider"). */
export const ProviderInfoSchema = z.object({
  code: z.string().regex(/^[a-z0-9_]{2,32}$/),
  name: z.string(),
  description: z.string(),
  icon_url: z.url(),
});
export type ProviderInfo = z.infer<typeof ProviderInfoSchema>;

/** A payment method as a provider offers it, with its fee and its limits per fiat currency. */
export interface CataloguePaymentMethod {
  code: string;
  name: string;
  icon_url: string | null;
  /**
   * The method's percentage fee as text, e.g. "3.99%". Left out by a provider that publishes none
   * per method: the catalogue service then reads one from a reference quote (src/catalogue/reference-fees.ts).
   */
  fee?: string;
  /** Limits per fiat currency ID, decimal strings in that currency; the method takes only these fiat currencies. */
  limits: Record<number, { min: string; max: string }>;
}

/**
 * Where a provider does not sell one crypto currency although it serves the place: countries as
 * ISO 3166-1 alpha-2 codes, and states per country as the subdivision part of their ISO 3166-2
 * codes (`{ US: ['NY'] }` for US-NY), as in `ProviderCatalogue.countries`.
 */
export interface CryptoExclusion {
  countries: string[];
  states?: Record<string, string[]>;
}

/** What a provider sells where: its catalogue, mapped to the broker's currency IDs. */
export interface ProviderCatalogue {
  fiat: number[];
  crypto: number[];
  /** Countries served; `states` lists the states served where the provider serves only some. */
  countries: { code: string; states?: string[] }[];
  paymentMethods: CataloguePaymentMethod[];
  /**
   * Crypto currencies (by the broker's currency ID) the provider does not sell in some of the
   * countries or states it otherwise serves; a crypto currency absent here is sold wherever it serves.
   */
  cryptoNotSoldIn?: Record<number, CryptoExclusion>;
  /**
   * Purchase limits of one crypto currency per fiat currency ID, where the provider sets them for
   * the asset (Ramp's per-asset minimum): a purchase must be within these and its method's limits.
   */
  cryptoLimits?: Record<number, Record<number, { min: string; max: string }>>;
}

export interface QuoteRequest {
  fiat: FiatCurrency;
  crypto: CryptoCurrency;
  /** Decimal string in the fiat currency. */
  fiatAmount: string;
  paymentMethod: string;
  country: string;
  state?: string;
  ip?: string;
  externalUserId: string;
}

/** A provider's quote normalised to the broker's model: decimal strings, fees in the fiat currency. */
export interface ProviderQuote {
  fiatAmount: string;
  cryptoAmount: string;
  processingFee: string;
  networkFee: string;
  paymentMethod: string;
  providerQuoteId?: string;
  /** When the provider's own quote stops being honoured, if it says. */
  expiresAt?: Date;
}

export interface CreateProviderOrderRequest {
  /** The broker's order id, handed to the provider as its partner reference. */
  orderId: string;
  fiat: FiatCurrency;
  crypto: CryptoCurrency;
  fiatAmount: string;
  walletAddress: string;
  paymentMethod: string;
  country: string;
  state?: string;
  externalUserId: string;
  ip?: string;
  userAgent?: string;
  extras: Record<string, unknown>;
}

/** What a provider reports about one order, by poll or by webhook. */
export interface ProviderOrderSnapshot {
  /**
   * The broker's order id as the provider's message names it (the partner reference), never
   * substituted by the id that was asked about: a snapshot naming another order is refused.
   */
  orderId: string;
  providerOrderId?: string;
  providerStatus: string;
  status: OrderStatus;
  failureReason?: string;
  cryptoAmount?: string;
  transactionHash?: string;
  /**
   * The order's terms as the provider reports them, for the integrity check (src/domain/integrity.ts);
   * docs/providers/<code>.md lists what each provider's messages carry. Absent when they carry none.
   */
  reported?: ReportedTerms;
  /**
   * When the provider made this provider order, where its message says: an order refuses a provider
   * order made before itself. Reported where the message does not name the broker's order (Ramp).
   */
  providerOrderCreatedAt?: string;
}

/** What the broker knows of an order that a status lookup may search with. */
export interface OrderLookupContext {
  /**
   * When the broker created the order (ISO 8601): no provider order of it was made before, give or
   * take the provider clock skew the order allows (docs/decisions.md, Order integrity). Absent in a
   * lookup asked by an order of an older release.
   */
  orderCreatedAt?: string;
}

/**
 * A window of provider creation times for a transaction list: `from` included, `to` excluded
 * (epoch ms). Providers whose list filters by day are asked for the days it touches, and the
 * adapter keeps the transactions inside it.
 */
export interface TransactionWindow {
  fromMs: number;
  toMs: number;
}

/** One transaction as the provider's own books list it (reconciliation, src/reconciliation), in the broker's model. */
export interface ProviderTransaction extends Omit<ProviderOrderSnapshot, 'orderId' | 'providerOrderId' | 'providerOrderCreatedAt'> {
  providerOrderId: string;
  /** The broker's order id the provider holds with it (its partner reference); absent when it holds none. */
  orderId?: string;
  /** When the provider made the transaction (ISO 8601): the window's key. */
  createdAt: string;
}

/** One page of a provider's transaction list. */
export interface ProviderTransactionPage {
  transactions: ProviderTransaction[];
  /** What the next page is asked with; absent on the last page. */
  cursor?: string;
  /** Rows of the page that name no provider order id or creation time (the report counts them). */
  unreadable?: number;
}

/** How a provider documents its transaction list: each page one call, no more than `callsPerSecond`. */
export interface TransactionListing {
  /** The rate the provider documents for the list (the reconciliation paces its pages to it). */
  callsPerSecond: number;
  /** The widest window one walk may ask for (the provider's own bound, e.g. Transak's 90 days). */
  maxWindowMs?: number;
  list(window: TransactionWindow, cursor?: string, signal?: AbortSignal): Promise<ProviderTransactionPage>;
}

export interface ProviderOrder extends ProviderOrderSnapshot {
  redirectUrl: string;
}

export interface ProviderWebhookEvent extends ProviderOrderSnapshot {
  /** The provider's event id where it has one, otherwise a digest of the payload: used to drop duplicates. */
  eventId: string;
  /**
   * What a claim names the provider order by, where the adapter claims provider orders: the same in
   * every message about it, and no capability (Ramp's purchase id, never its view token). Absent:
   * the provider order id.
   */
  claimKey?: string;
}

export interface IncomingWebhook {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  /** Query parameters of the webhook URL (a provider that echoes no partner reference can carry it there). */
  query: Record<string, string>;
}

/** Thrown by adapters for a webhook whose signature does not verify. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * Thrown by adapters for a webhook whose signature verifies but that the broker does not act on: an
 * event of another kind (Paybis's KYC events), or one about no order of the broker's. The API
 * acknowledges it with 200 and signals nothing, so the provider does not retry a genuine event as if
 * it had been refused; the reason is logged.
 */
export class IgnoredWebhookError extends Error {
  constructor(
    reason: string,
    /** The broker order the event names, where it names one (for the log). */
    readonly orderId?: string,
  ) {
    super(reason);
    this.name = 'IgnoredWebhookError';
  }
}

/** Thrown by adapters when the provider refuses a request for a reason the caller should see. */
export class ProviderRejectedError extends Error {
  constructor(
    readonly code: 'limits' | 'country' | 'state' | 'currency' | 'payment_method' | 'rejected' | 'not_found',
    message: string,
    readonly details: { minAmount?: string; maxAmount?: string } = {},
  ) {
    super(message);
    this.name = 'ProviderRejectedError';
  }

  /** A refusal of an amount outside `min`..`max`, stated as every refusal for limits is (amountLimits). */
  static outsideLimits(min: string | Decimal, max: string | Decimal, fiat: { ticker: string; precision: number }): ProviderRejectedError {
    const range = amountLimits(min, max, fiat);
    return new ProviderRejectedError('limits', range.message, { minAmount: range.min, maxAmount: range.max });
  }
}

/** Thrown when the provider cannot be reached or answers with a server error; worth retrying. */
export class ProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

/**
 * The only code that knows a provider's protocol. Everything else speaks the broker's model:
 * currency IDs, decimal strings and the broker's status set.
 */
export interface ProviderAdapter {
  readonly info: ProviderInfo;
  /**
   * The provider cannot take an order without the customer's IP address (Mercuryo signs its widget
   * URL for it): without `ip` the offers service leaves it out with reason `ip_required`.
   */
  readonly requiresCustomerIp?: boolean;
  /**
   * The provider's webhooks do not name the broker's order (Ramp's order comes from the webhook URL,
   * which the customer can redirect): each provider order is claimed by the first broker order that
   * receives it, and a webhook about it for any other order is not signalled (src/orders/service.ts).
   */
  readonly claimsProviderOrders?: boolean;
  /** The provider's catalogue from its own endpoints (the caller caches it). */
  getCatalogue(signal?: AbortSignal): Promise<ProviderCatalogue>;
  getQuote(request: QuoteRequest, signal?: CallSignal): Promise<ProviderQuote>;
  /**
   * What of a quote request decides its answer (every field the call sends, and every field getQuote
   * reads itself): two requests with the same key get the same answer, and the offers service makes
   * the call once while it is in flight (coalescing). Absent:
   * every field of the request counts, the user's id and IP address included.
   */
  quoteKey?(request: QuoteRequest): string;
  createOrder(request: CreateProviderOrderRequest): Promise<ProviderOrder>;
  getOrder(orderId: string, providerOrderId?: string, context?: OrderLookupContext): Promise<ProviderOrderSnapshot>;
  /**
   * Verifies the provider's signature and parses the event; rejects with WebhookVerificationError,
   * or with IgnoredWebhookError for a verified webhook the broker does not act on.
   * Asynchronous because some schemes need a key fetched from the provider (Transak's access token)
   * and some events carry only an id to look up (Banxa).
   */
  parseWebhook(webhook: IncomingWebhook): Promise<ProviderWebhookEvent>;
  /**
   * Asks the provider to cancel a provider order the customer has not paid, through the call the
   * provider documents (an operator's action, docs/operations.md "Review queue"). Resolves once the
   * provider accepted; the order's status moves only when the provider then reports it (a webhook or
   * the poll that follows), through the checks every report passes. Rejects with
   * ProviderRejectedError when the provider refuses (already paid, unknown), with
   * ProviderUnavailableError when it cannot be reached. Absent for a provider that documents no such
   * call: the operator API refuses the cancel (docs/providers/<code>.md says which).
   */
  cancelOrder?(orderId: string, providerOrderId: string | undefined, signal?: AbortSignal): Promise<void>;
  /**
   * The provider's own record of transactions, through the list API it documents (reconciliation).
   * Absent for a provider that has none: its orders are reconciled one lookup at a time
   * (docs/providers/<code>.md says which).
   */
  readonly transactions?: TransactionListing;
  /** The provider's sell (off-ramp) flow (src/providers/sell-types.ts); absent for a provider that only sells crypto. */
  readonly sell?: SellAdapter;
  /** The provider's own address rule (ProviderAddressRule in src/addresses/validate.ts): it may only refuse. */
  validateAddress?: (network: string, address: string) => { valid: boolean; reason?: string } | undefined;
}
