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
import { sameFiatAmount } from './integrity';

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
  /** The crypto currency's network, as the dictionary names it: its address format decides the refund address's case rule. */
  network: string;
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

/** The EVM networks of the dictionary (src/addresses/evm.ts, EVM_NETWORKS): one account, its hex digits in any case. */
const EVM_NETWORKS: ReadonlySet<string> = new Set([
  'ethereum',
  'base',
  'arbitrum',
  'optimism',
  'polygon',
  'bsc',
  'avalanche',
  'ethereum_classic',
]);
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/**
 * Networks whose addresses are bech32 (BIP 173) or CashAddr under the network's own prefix: the
 * same address in upper or lower case, never mixed. Matched against the lower-case spelling.
 */
const CASELESS_ADDRESSES: ReadonlyMap<string, RegExp> = new Map([
  ['bitcoin', /^bc1[02-9ac-hj-np-z]{6,}$/],
  ['litecoin', /^ltc1[02-9ac-hj-np-z]{6,}$/],
  ['cosmos', /^cosmos1[02-9ac-hj-np-z]{6,}$/],
  ['cardano', /^addr1[02-9ac-hj-np-z]{6,}$/],
  ['bitcoin_cash', /^bitcoincash:[02-9ac-hj-np-z]{6,}$/],
]);
const singleCase = (text: string) => text === text.toLowerCase() || text === text.toUpperCase();

/**
 * Whether two spellings name the same address on `network` (the dictionary's name). Exact, text for
 * text, but where the network's address format itself ignores case: EVM hex on an EVM network, and
 * single-case bech32 or CashAddr under the network's prefix. Base58, base64 and every other format
 * (Solana, Tron, XRP, TON, Stellar, Bitcoin's legacy addresses) is case-sensitive, whatever the text
 * looks like: a base58 address may look like bech32 (a `1` followed by bech32 characters), and its
 * other case is another account. Unlike `sameWalletAddress` (the buy side's), it knows the network
 * and trims nothing: an address with whitespace around it is another text, which the network's
 * rules refuse.
 */
export function sameAddressOnNetwork(network: string, a: string, b: string): boolean {
  if (a === b) return true;
  if (EVM_NETWORKS.has(network)) return EVM_ADDRESS.test(a) && EVM_ADDRESS.test(b) && a.toLowerCase() === b.toLowerCase();
  const caseless = CASELESS_ADDRESSES.get(network);
  if (!caseless || !singleCase(a) || !singleCase(b)) return false;
  const lower = a.toLowerCase();
  return caseless.test(lower) && lower === b.toLowerCase();
}

/** Compares every term the provider reports with the order's; a term it does not report is not checked. */
export function checkSellTerms(ordered: OrderedSellTerms, reported: ReportedSellTerms | undefined): SellVerdict {
  const verdict: SellVerdict = { refused: [], differences: [] };
  if (!reported) return verdict;
  const { cryptoCurrency, cryptoAmount, fiatCurrency, fiatAmount, refundWalletAddress } = reported;
  if (cryptoCurrency !== undefined && cryptoCurrency !== ordered.cryptoCurrency) {
    verdict.refused.push({ field: 'from_currency', ordered: String(ordered.cryptoCurrency), reported: currencyText(cryptoCurrency) });
  }
  // The order's refund address was trimmed by the API; a provider echoing it with spaces around names the same one.
  if (
    refundWalletAddress !== undefined &&
    !sameAddressOnNetwork(ordered.network, ordered.refundWalletAddress.trim(), refundWalletAddress.trim())
  ) {
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
 * - `same`: it names the pinned one (its amount and expiry aside); the order keeps the pinned
 *   spelling, and takes from the report at most its amount and expiry;
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
  // Exact, but for the spellings the network's address format itself treats as one (EVM hex casing,
  // single-case bech32): no trimming, no Unicode folding, no case rule of another network.
  if (!sameAddressOnNetwork(network, pinned.address, reported.address)) fields.push('address');
  // Exact. No memo and an empty one are one: an empty memo is none (the address rules refuse an empty
  // one, so none is ever pinned), while a pinned memo a report leaves out is refused.
  if ((pinned.memo ?? '') !== (reported.memo ?? '')) fields.push('memo');
  if (pinned.network !== reported.network) fields.push('network');
  if (fields.length === 0) return { kind: 'same' };
  return { kind: 'refused', fields, reason: `the deposit's ${fields.join(', ')} differs from the one the order shows` };
}
