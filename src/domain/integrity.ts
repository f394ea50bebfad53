/**
 * The integrity check of a provider's report against the order it claims to be about
 * (docs/decisions.md, "Order integrity"). Pure: imported by workflow code, so no I/O and no Node
 * built-ins.
 *
 * Two kinds of difference:
 * - the wallet or the crypto currency, or a fiat currency the broker does not know: the report is not
 *   about this order (or the customer redirected the purchase, or it cannot be stated in the broker's
 *   terms); it never moves the order;
 * - the fiat amount or currency: the provider took a different payment than ordered. The provider's
 *   word decides what was paid, so the order moves and shows the provider-verified figures, with the
 *   difference listed for the integrator and flagged for the operator; it never passes silently.
 */
import BigNumber from 'bignumber.js';
import { decimal, fractionDigits } from './money';

/**
 * How far a provider's clock may be behind the workflow's when it dates a provider order: an order
 * refuses a report about a provider order made longer than this before the order itself.
 */
export const PROVIDER_CLOCK_SKEW_MS = 10 * 60_000;

/**
 * The order's terms as a provider reports them, in the broker's model. Each field is present only
 * when the provider's message carries it; a currency the broker's dictionary does not know is `null`
 * (a mismatch, never a match).
 */
export interface ReportedTerms {
  walletAddress?: string;
  /** The crypto currency (asset and network) as the broker's currency ID. */
  cryptoCurrency?: number | null;
  /** The fiat currency as the broker's currency ID. */
  fiatCurrency?: number | null;
  /** The fiat amount the customer pays, fees included, as a decimal string in that currency. */
  fiatAmount?: string;
}

/** What the order was created for, as the API accepted it. */
export interface OrderedTerms {
  walletAddress: string;
  cryptoCurrency: number;
  fiatCurrency: number;
  /** At the fiat currency's precision (the API writes it so): the comparison's precision. */
  fiatAmount: string;
}

/** The order fields the check covers, by their API names. */
export type IntegrityField = 'wallet_address' | 'to_currency' | 'from_currency' | 'from_amount';

/** One field the provider reports differently from the order. */
export interface Discrepancy {
  field: IntegrityField;
  ordered: string;
  /** `unknown` for a currency the broker's dictionary does not know. */
  reported: string;
}

/** A difference the order takes from the provider and shows to the integrator. */
export interface PaymentDiscrepancy extends Discrepancy {
  field: 'from_amount' | 'from_currency';
}

export interface IntegrityVerdict {
  /** Differences that mean the report never moves the order (wallet, crypto currency, an unknown fiat currency). */
  refused: Discrepancy[];
  /** Differences the order takes from the provider and shows (fiat amount and currency). */
  differences: PaymentDiscrepancy[];
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Bech32 and bech32m are case-insensitive but never mixed-case (BIP 173). */
const BECH32_ADDRESS = /^[a-zA-Z0-9]{1,83}1[02-9ac-hj-np-zAC-HJ-NP-Z]{6,}$/;
const singleCase = (text: string) => text === text.toLowerCase() || text === text.toUpperCase();

/**
 * Whether two spellings name the same wallet. Case is ignored only where the address format
 * itself ignores it (EVM hex with or without its checksum casing, single-case bech32); elsewhere
 * (base58, base64) case is part of the address.
 */
export function sameWalletAddress(ordered: string, reported: string): boolean {
  const a = ordered.trim();
  const b = reported.trim();
  if (a === b) return true;
  if (EVM_ADDRESS.test(a) && EVM_ADDRESS.test(b)) return a.toLowerCase() === b.toLowerCase();
  if (BECH32_ADDRESS.test(a) && BECH32_ADDRESS.test(b) && singleCase(a) && singleCase(b)) return a.toLowerCase() === b.toLowerCase();
  return false;
}

/**
 * Whether the reported amount is the ordered one at the order's precision (the number of places
 * the ordered amount is written with): a provider writing 100 or 100.004 for 100.00 agrees. An
 * amount that is not a decimal number never agrees.
 */
export function sameFiatAmount(ordered: string, reported: string): boolean {
  let value: BigNumber;
  try {
    value = decimal(reported.trim());
  } catch {
    return false;
  }
  return value.decimalPlaces(fractionDigits(ordered), BigNumber.ROUND_HALF_UP).eq(decimal(ordered));
}

const currencyText = (id: number | null) => (id === null ? 'unknown' : String(id));

/** Compares every term the provider reports with the order's; a term it does not report is not checked. */
export function checkReportedTerms(ordered: OrderedTerms, reported: ReportedTerms | undefined): IntegrityVerdict {
  const verdict: IntegrityVerdict = { refused: [], differences: [] };
  if (!reported) return verdict;
  const { walletAddress, cryptoCurrency, fiatCurrency, fiatAmount } = reported;
  if (walletAddress !== undefined && !sameWalletAddress(ordered.walletAddress, walletAddress)) {
    verdict.refused.push({ field: 'wallet_address', ordered: ordered.walletAddress, reported: walletAddress });
  }
  if (cryptoCurrency !== undefined && cryptoCurrency !== ordered.cryptoCurrency) {
    verdict.refused.push({ field: 'to_currency', ordered: String(ordered.cryptoCurrency), reported: currencyText(cryptoCurrency) });
  }
  // An amount in a currency the broker cannot name cannot be shown as what was paid: refused, not shown.
  if (fiatCurrency === null) verdict.refused.push({ field: 'from_currency', ordered: String(ordered.fiatCurrency), reported: 'unknown' });
  else if (fiatCurrency !== undefined && fiatCurrency !== ordered.fiatCurrency) {
    verdict.differences.push({ field: 'from_currency', ordered: String(ordered.fiatCurrency), reported: String(fiatCurrency) });
  }
  if (fiatAmount !== undefined && !sameFiatAmount(ordered.fiatAmount, fiatAmount)) {
    verdict.differences.push({ field: 'from_amount', ordered: ordered.fiatAmount, reported: fiatAmount });
  }
  return verdict;
}

/**
 * The order's differences after a new verdict: one entry per field, the latest report's value
 * kept, and a field the provider now reports as ordered dropped (a corrected report clears it).
 */
export function mergeDifferences(
  previous: readonly PaymentDiscrepancy[],
  verdict: IntegrityVerdict,
  reported: ReportedTerms | undefined,
): PaymentDiscrepancy[] {
  const agreed = new Set<IntegrityField>();
  if (reported?.fiatCurrency !== undefined) agreed.add('from_currency');
  if (reported?.fiatAmount !== undefined) agreed.add('from_amount');
  const kept = previous.filter((d) => !agreed.has(d.field));
  return [...kept, ...verdict.differences].sort((a, b) => a.field.localeCompare(b.field));
}
