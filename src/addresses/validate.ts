/**
 * Wallet address checks per network: checksums, mainnet against testnet, addresses of another
 * network, and the format of a destination tag or memo where the network has one. docs/decisions.md
 * ("Wallet addresses") lists what is checked for each network and with which library.
 */
import { bitcoinCashValidator } from './cashaddr';
import { cosmosValidator } from './cosmos';
import { EVM_NETWORKS, evmValidator } from './evm';
import { algorandValidator, cardanoValidator, polkadotValidator, stellarValidator } from './fallback';
import { MEMO_NETWORKS } from './memo';
import { fail, reasons, type AddressValidation, type NetworkValidator } from './result';
import { rippleValidator } from './ripple';
import { solanaValidator } from './solana';
import { tezosValidator } from './tezos';
import { tonValidator } from './ton';
import { tronValidator } from './tron';
import { bitcoinValidator, dashValidator, dogecoinValidator, litecoinValidator, zcashValidator } from './utxo';

export type { AddressValidation } from './result';
export { MEMO_NETWORKS, type MemoCapability } from './memo';

export interface AddressOptions {
  /** Destination tag (XRP), memo (Stellar, Cosmos) or comment (TON) the funds are to carry. */
  tag?: string;
}

/** A Map, so that names such as `constructor` or `__proto__` are unknown networks. */
const VALIDATORS: ReadonlyMap<string, NetworkValidator> = new Map<string, NetworkValidator>([
  ...EVM_NETWORKS.map((network): [string, NetworkValidator] => [network, evmValidator(network)]),
  ['bitcoin', bitcoinValidator],
  ['litecoin', litecoinValidator],
  ['dogecoin', dogecoinValidator],
  ['bitcoin_cash', bitcoinCashValidator],
  ['dash', dashValidator],
  ['zcash', zcashValidator],
  ['tron', tronValidator],
  ['solana', solanaValidator],
  ['ripple', rippleValidator],
  ['ton', tonValidator],
  ['stellar', stellarValidator],
  ['cardano', cardanoValidator],
  ['polkadot', polkadotValidator],
  ['cosmos', cosmosValidator],
  ['algorand', algorandValidator],
  ['tezos', tezosValidator],
]);

/** The networks with address rules. */
export const ADDRESS_NETWORKS: readonly string[] = [...VALIDATORS.keys()];

function withTag(network: string, result: AddressValidation, tag: string | undefined): AddressValidation {
  if (tag === undefined) return result;
  const memo = MEMO_NETWORKS.get(network);
  if (!memo) return fail(`${network} transfers carry no destination tag or memo`);
  if (tag === '') return fail(`the ${memo.label} is empty`);
  if (tag.trim() !== tag) return fail(`the ${memo.label} has leading or trailing whitespace`);
  const refused = memo.check(tag);
  if (refused) return fail(refused);
  if (result.tag !== undefined && result.tag !== tag) return fail('tag conflicts with the X-address');
  return { ...result, tag };
}

/**
 * Whether `address` can receive funds on `network` (a network name of the currency dictionary).
 * A valid result carries the address's canonical spelling in `normalized` and, when there is one,
 * the destination tag or memo in `tag`: the caller's, or the one an XRP X-address carries.
 */
export function validateWalletAddress(network: string, address: string, options: AddressOptions = {}): AddressValidation {
  const validator = VALIDATORS.get(network);
  if (!validator) return fail(reasons.unknownNetwork(network));
  if (address === '') return fail(reasons.empty);
  if (/\s/.test(address)) return fail(reasons.whitespace);
  const result = validator(address);
  return result.valid ? withTag(network, result, options.tag) : result;
}

/**
 * A provider's own address rule, run after the network's rules have accepted the address (for
 * example a provider that cannot pay taproot or X-addresses). It sees the address as the caller gave
 * it. It may refuse (`{ valid: false, reason }`) or say nothing (`undefined` or `{ valid: true }`);
 * it cannot accept an address the network's rules refused.
 */
export type ProviderAddressRule = (network: string, address: string) => AddressValidation | undefined;

/** The network's rules, then the provider's own rule, which may only make the verdict stricter. */
export function validateForProvider(
  network: string,
  address: string,
  options: AddressOptions = {},
  providerRule?: ProviderAddressRule,
): AddressValidation {
  const result = validateWalletAddress(network, address, options);
  if (!result.valid || !providerRule) return result;
  const verdict = providerRule(network, address);
  if (verdict === undefined || verdict.valid) return result;
  return fail(verdict.reason ?? reasons.providerRefused);
}
