/**
 * How long each text of a provider's report may be (docs/decisions.md, "Bounded provider text").
 * What a provider says about an order is copied into the order: its memo, every history event that
 * writes the memo, every integrator webhook. Unbounded, one answer could make the order too large for
 * Temporal to record (its workflow task then fails on every attempt and the order never moves
 * again) and grows every copy meanwhile. Every documented value fits many times over
 * (docs/providers/); a longer one is no provider order as documented, and is refused where it
 * enters: a create answer fails the creation (`provider_unavailable`), a webhook is answered
 * `422 event_out_of_bounds`, a status answer is ignored like any unusable poll answer.
 *
 * Sizes are bytes of the text as JSON (UTF-8, without its quotes): what each copy grows by, escapes
 * included, so the largest memo follows from these limits alone (test/unit/temporal/memo-size.test.ts).
 *
 * A text that only describes (a failure's reason) is cut to its bound instead (cutDescriptiveTexts):
 * a shorter description still says what happened, and refusing it would lose the report it is in (a
 * failure never recorded). A text that names something (an id, a URL, an address, a hash, an amount,
 * a status) is refused: cut, it would name something else.
 */
import type { ProviderSellOrder, SellWebhookEvent } from '../sell-types';
import type { ProviderOrder, ProviderWebhookEvent } from '../types';

export const PROVIDER_TEXT_LIMITS = {
  /**
   * Where the customer pays: a provider's checkout link (Banxa's, Paybis's: a few hundred bytes), or
   * a widget URL the adapter builds, which may carry the integrator's `return_url` (at most
   * CUSTOMER_URL_MAX_BYTES, up to three times as long once percent-encoded: 7.4 KB at most).
   */
  redirectUrl: 12 * 1024,
  /**
   * The provider's order id: UUIDs and shorter ids, Ramp's `<purchase id>:<view token>`, Revolut's
   * `<order id>:<wallet>` (a wallet address is at most 256 characters).
   */
  providerOrderId: 512,
  /** What a claim names a provider order by (Ramp's purchase id). */
  claimKey: 512,
  /** A provider's event id, or the digest the adapter makes (64 hex digits; Mercuryo's joins four fields). */
  eventId: 512,
  /**
   * The broker's order id as the message names it: a UUID (36 characters) when it is one of the
   * broker's; a much longer one would not even fit a workflow id (255 bytes in deploy/temporal/).
   */
  orderId: 200,
  /** A status from the adapter's table, at most joined with a reason (Revolut's `FAILED:<fail_reason>`). */
  providerStatus: 256,
  /** A reason code (`card_declined`, `rejected_kyc`, …) or a short sentence. */
  failureReason: 1024,
  /** A transaction hash or signature (66 characters for EVM chains, 88 for Solana). */
  transactionHash: 256,
  /** Decimal amounts (the adapters' decimal text has at most 61 characters). */
  cryptoAmount: 64,
  fiatAmount: 64,
  /** An ISO 8601 time (the adapters write 24 characters). */
  providerOrderCreatedAt: 64,
  /** A reported wallet address (the API takes at most 256 characters). */
  walletAddress: 512,
  /** A sell order's deposit address (as long as any wallet address). */
  depositAddress: 512,
  /** Its destination tag or memo (Stellar's 28 bytes, a TON comment's 120 characters, Cosmos's 256 characters at most). */
  depositMemo: 512,
  /** Its network, as the dictionary names networks. */
  depositNetwork: 64,
  depositAmount: 64,
  depositExpiresAt: 64,
} as const;

export type BoundedProviderText = keyof typeof PROVIDER_TEXT_LIMITS;

/** Bytes of `text` as a JSON string, without its quotes: what it adds to a JSON document. */
export function jsonTextBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text)) - 2;
}

/** A report as far as its texts go: a status answer, a webhook's event, or a create answer, of a buy or a sell. */
export type ProviderReport =
  Partial<ProviderWebhookEvent & Pick<ProviderOrder, 'redirectUrl'>> | Partial<SellWebhookEvent & Pick<ProviderSellOrder, 'redirectUrl'>>;

/** The first text of a report over its limit, or undefined when every one is within. */
export interface TextOutOfBounds {
  field: BoundedProviderText;
  bytes: number;
  limit: number;
}

/** Every text a report can carry, by its limit's name. */
function texts(report: ProviderReport): [BoundedProviderText, string | undefined][] {
  const buy = report as Partial<ProviderWebhookEvent>;
  const sell = report as Partial<SellWebhookEvent>;
  return [
    ['redirectUrl', report.redirectUrl],
    ['providerOrderId', report.providerOrderId],
    ['claimKey', report.claimKey],
    ['eventId', report.eventId],
    ['orderId', report.orderId],
    ['providerStatus', report.providerStatus],
    ['failureReason', report.failureReason],
    ['transactionHash', report.transactionHash],
    ['cryptoAmount', buy.cryptoAmount],
    ['cryptoAmount', sell.reported?.cryptoAmount],
    ['fiatAmount', report.reported?.fiatAmount],
    ['providerOrderCreatedAt', report.providerOrderCreatedAt],
    ['walletAddress', buy.reported?.walletAddress],
    ['walletAddress', sell.reported?.refundWalletAddress],
    ['depositAddress', sell.deposit?.address],
    ['depositMemo', sell.deposit?.memo],
    ['depositNetwork', sell.deposit?.network],
    ['depositAmount', sell.deposit?.amount],
    ['depositExpiresAt', sell.deposit?.expiresAt],
  ];
}

/** What a cut text ends with: the reader sees it was cut. */
const CUT_MARK = '…';

/** `text` cut to at most `limit` bytes of JSON, whole characters, ending with CUT_MARK when cut. */
export function cutToBound(text: string, limit: number): string {
  if (jsonTextBytes(text) <= limit) return text;
  const room = limit - jsonTextBytes(CUT_MARK);
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = jsonTextBytes(char);
    if (bytes + size > room) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end) + CUT_MARK;
}

/** `report` with its descriptive texts (the failure reason) cut to their bounds; the same object when none is over. */
export function cutDescriptiveTexts<R extends ProviderReport>(report: R): R {
  const reason = report.failureReason;
  if (typeof reason !== 'string' || jsonTextBytes(reason) <= PROVIDER_TEXT_LIMITS.failureReason) return report;
  return { ...report, failureReason: cutToBound(reason, PROVIDER_TEXT_LIMITS.failureReason) };
}

/** The first text of `report` longer than its limit; undefined when all are within. */
export function textOutOfBounds(report: ProviderReport): TextOutOfBounds | undefined {
  for (const [field, text] of texts(report)) {
    if (typeof text !== 'string') continue;
    const limit = PROVIDER_TEXT_LIMITS[field];
    const bytes = jsonTextBytes(text);
    if (bytes > limit) return { field, bytes, limit };
  }
  return undefined;
}

/** What a refusal says about the text out of bounds: its name and size, never its content. */
export function outOfBoundsMessage({ field, bytes, limit }: TextOutOfBounds): string {
  return `${field} is ${bytes} bytes, over its limit of ${limit}`;
}
