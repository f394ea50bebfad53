/**
 * The integrity of a sell (off-ramp) order (docs/decisions.md, "Off-ramp"; docs/security.md, "The
 * deposit address"). Pure: imported by workflow code, so no I/O and no Node built-ins.
 *
 * - The deposit address is money: the customer sends crypto to whatever the order shows. It is set
 *   once, from the provider's authenticated channel, after the network's address rules accepted it;
 *   a later report naming another address, memo or network is refused and raises an alert.
 * - A report about another crypto currency, refund address, or a fiat currency the broker does not
 *   know is not about this order and never moves it.
 * - The crypto amount sent, the payout's fiat currency and amount: the provider's word decides what
 *   happened, so the order moves and shows the provider's figures, each difference listed.
 */
import { sameFiatAmount, sameWalletAddress } from './integrity';

/** A deposit instruction as a provider reports it, in the broker's model (network by the dictionary's name). */
export interface ReportedDeposit {
  address: string;
  memo?: string;
  network: string;
  amount?: string;
  expiresAt?: string;
}

/** A sell order's terms as a provider reports them; each field present only when its message carries it. */
export interface ReportedSellTerms {
  /** The crypto currency (asset and network) as the broker's currency ID; null when the dictionary does not know it. */
  cryptoCurrency?: number | null;
  /** The crypto amount the customer sent (or is to send), a decimal string. */
  cryptoAmount?: string;
  /** The payout's fiat currency as the broker's currency ID; null when unknown. */
  fiatCurrency?: number | null;
  /** The fiat amount paid out (or to be paid out), a decimal string. */
  fiatAmount?: string;
  refundWalletAddress?: string;
}

/** What the sell order was created for. */
export interface OrderedSellTerms {
  cryptoCurrency: number;
  /** At the crypto currency's precision: the comparison's precision. */
  cryptoAmount: string;
  fiatCurrency: number;
  /** The offer's payout, at the fiat currency's precision. */
  fiatAmount: string;
  refundWalletAddress: string;
}

export type SellIntegrityField = 'from_currency' | 'from_amount' | 'to_currency' | 'to_amount' | 'refund_wallet_address';

export interface SellDiscrepancy {
  field: SellIntegrityField;
  ordered: string;
  reported: string;
}

/** A difference the order takes from the provider and shows. */
export interface SellDifference extends SellDiscrepancy {
  field: 'from_amount' | 'to_amount' | 'to_currency';
}

export interface SellVerdict {
  refused: SellDiscrepancy[];
  differences: SellDifference[];
}

const currencyText = (id: number | null) => (id === null ? 'unknown' : String(id));

/** Compares every term the provider reports with the order's; a term it does not report is not checked. */
export function checkSellTerms(ordered: OrderedSellTerms, reported: ReportedSellTerms | undefined): SellVerdict {
  const verdict: SellVerdict = { refused: [], differences: [] };
  if (!reported) return verdict;
  const { cryptoCurrency, cryptoAmount, fiatCurrency, fiatAmount, refundWalletAddress } = reported;
  if (cryptoCurrency !== undefined && cryptoCurrency !== ordered.cryptoCurrency) {
    verdict.refused.push({ field: 'from_currency', ordered: String(ordered.cryptoCurrency), reported: currencyText(cryptoCurrency) });
  }
  if (refundWalletAddress !== undefined && !sameWalletAddress(ordered.refundWalletAddress, refundWalletAddress)) {
    verdict.refused.push({ field: 'refund_wallet_address', ordered: ordered.refundWalletAddress, reported: refundWalletAddress });
  }
  if (fiatCurrency === null) verdict.refused.push({ field: 'to_currency', ordered: String(ordered.fiatCurrency), reported: 'unknown' });
  else if (fiatCurrency !== undefined && fiatCurrency !== ordered.fiatCurrency) {
    verdict.differences.push({ field: 'to_currency', ordered: String(ordered.fiatCurrency), reported: String(fiatCurrency) });
  }
  if (cryptoAmount !== undefined && !sameFiatAmount(ordered.cryptoAmount, cryptoAmount)) {
    verdict.differences.push({ field: 'from_amount', ordered: ordered.cryptoAmount, reported: cryptoAmount });
  }
  if (fiatAmount !== undefined && !sameFiatAmount(ordered.fiatAmount, fiatAmount)) {
    verdict.differences.push({ field: 'to_amount', ordered: ordered.fiatAmount, reported: fiatAmount });
  }
  return verdict;
}

/** The order's differences after a verdict: one per field, the latest kept, a field now reported as ordered dropped. */
export function mergeSellDifferences(
  previous: readonly SellDifference[],
  verdict: SellVerdict,
  reported: ReportedSellTerms | undefined,
): SellDifference[] {
  const agreed = new Set<SellIntegrityField>();
  if (reported?.cryptoAmount !== undefined) agreed.add('from_amount');
  if (reported?.fiatAmount !== undefined) agreed.add('to_amount');
  if (reported?.fiatCurrency !== undefined) agreed.add('to_currency');
  const kept = previous.filter((d) => !agreed.has(d.field));
  return [...kept, ...verdict.differences].sort((a, b) => a.field.localeCompare(b.field));
}

/** The deposit fields that name where the crypto goes: none of them ever changes once set. */
export type DepositField = 'address' | 'memo' | 'network';

/**
 * What a reported deposit instruction means for an order whose deposit is `pinned` (undefined: not
 * set yet) and whose crypto currency is on `network`:
 * - `none`: the report names no deposit;
 * - `same`: it names the pinned one (its amount and expiry aside);
 * - `new`: the order has none yet and this one is on the order's network: to be validated, then pinned;
 * - `refused`: another address, memo or network than the pinned one, or a network not the order's.
 */
export type DepositVerdict =
  { kind: 'none' } | { kind: 'same' } | { kind: 'new' } | { kind: 'refused'; fields: DepositField[]; reason: string };

export function depositVerdict(
  pinned: { address: string; memo?: string; network: string } | undefined,
  reported: ReportedDeposit | undefined,
  network: string,
): DepositVerdict {
  if (!reported) return { kind: 'none' };
  if (reported.network !== network) {
    return { kind: 'refused', fields: ['network'], reason: `deposit on network ${reported.network}, the order's crypto is on ${network}` };
  }
  if (!pinned) return { kind: 'new' };
  const fields: DepositField[] = [];
  // Exact, but for the spellings the address format itself treats as one (EVM hex casing, bech32 case).
  if (!sameWalletAddress(pinned.address, reported.address)) fields.push('address');
  if ((pinned.memo ?? '') !== (reported.memo ?? '')) fields.push('memo');
  if (pinned.network !== reported.network) fields.push('network');
  if (fields.length === 0) return { kind: 'same' };
  return { kind: 'refused', fields, reason: `the deposit's ${fields.join(', ')} differs from the one the order shows` };
}
