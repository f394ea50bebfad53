import { decodeBase58, decodeBase58Check } from './codecs';
import { EVM_NETWORKS } from './evm';

/** The verdict on a transaction hash: its canonical spelling, or why it was refused. */
export type TransactionHashCheck = { valid: true; normalized: string } | { valid: false; reason: string };

type HashRule = (hash: string) => string | undefined;

const HEX_64 = /^[0-9a-fA-F]{64}$/;
const PREFIXED_HEX_64 = /^0x[0-9a-fA-F]{64}$/;

/** 32 bytes as 64 hex digits, spelled in one case (XRP Ledger and Cosmos explorers print upper case). */
const hex64 =
  (upper = false): HashRule =>
  (hash) =>
    HEX_64.test(hash) ? (upper ? hash.toUpperCase() : hash.toLowerCase()) : undefined;

/** 32 bytes as 0x and 64 hex digits (EVM transaction hashes, Polkadot extrinsic hashes). */
const prefixedHex64: HashRule = (hash) => (PREFIXED_HEX_64.test(hash) ? hash.toLowerCase() : undefined);

/** A Solana transaction is named by its first signature: 64 bytes in base58 (Bitcoin alphabet). */
const solanaSignature: HashRule = (hash) => (decodeBase58(hash)?.length === 64 ? hash : undefined);

/** A Tezos operation hash: Base58Check of the prefix 5, 116 ("o…") and a 32-byte hash. */
const tezosOperation: HashRule = (hash) => (decodeBase58Check(hash, 34, (p) => p[0] === 5 && p[1] === 116).ok ? hash : undefined);

/** An Algorand transaction id: 32 bytes in unpadded base32 (52 characters). */
const algorandTransaction: HashRule = (hash) => (/^[A-Z2-7]{52}$/.test(hash) ? hash : undefined);

/** A TON transaction hash: 32 bytes, printed as hex or as (URL-safe) base64. */
const tonTransaction: HashRule = (hash) => hex64()(hash) ?? (/^[A-Za-z0-9+/_-]{43}=?$/.test(hash) ? hash : undefined);

/** A Map, so that names such as `constructor` are unknown networks. */
const RULES: ReadonlyMap<string, HashRule> = new Map<string, HashRule>([
  ...EVM_NETWORKS.map((network): [string, HashRule] => [network, prefixedHex64]),
  ...['bitcoin', 'litecoin', 'dogecoin', 'bitcoin_cash', 'dash', 'zcash', 'tron', 'cardano', 'stellar'].map(
    (network): [string, HashRule] => [network, hex64()],
  ),
  ['ripple', hex64(true)],
  ['cosmos', hex64(true)],
  ['polkadot', prefixedHex64],
  ['solana', solanaSignature],
  ['tezos', tezosOperation],
  ['algorand', algorandTransaction],
  ['ton', tonTransaction],
]);

/**
 * Whether `hash` can name a transaction on `network` (a network name of the currency dictionary):
 * the format of the network's transaction ids, not that the transaction exists. Hex hashes are
 * spelled in the network's usual case, so that one transaction is one string.
 */
export function checkTransactionHash(network: string, hash: string): TransactionHashCheck {
  const rule = RULES.get(network);
  if (!rule) return { valid: false, reason: `no transaction rules for network ${network}` };
  if (hash === '') return { valid: false, reason: 'the transaction hash is empty' };
  const normalized = rule(hash);
  return normalized === undefined ? { valid: false, reason: `not a ${network} transaction hash` } : { valid: true, normalized };
}
