import { decodeBase58Check } from './codecs';
import { fail, ok, reasons, type NetworkValidator } from './result';

/** Base58Check prefixes of Tezos account addresses, each followed by a 20-byte hash. */
const PREFIXES: readonly (readonly number[])[] = [
  [6, 161, 159], // tz1 (ed25519)
  [6, 161, 161], // tz2 (secp256k1)
  [6, 161, 164], // tz3 (p256)
  [6, 161, 166], // tz4 (bls12-381)
  [2, 90, 121], // KT1 (originated contract)
];

const knownPrefix = (payload: Uint8Array) => PREFIXES.some((prefix) => prefix.every((byte, i) => payload[i] === byte));

/**
 * Tezos: Base58Check (@scure/base, as for Bitcoin) of a 3-byte prefix and a 20-byte hash: implicit
 * accounts tz1 to tz4 and KT1 contracts. multicoin-address-validator's Tezos rule checks only the
 * checksum, not the prefix, so it would accept a Bitcoin address; it is not used here. Tezos test
 * networks share the addresses.
 */
export const tezosValidator: NetworkValidator = (address) => {
  const decoded = decodeBase58Check(address, 23, knownPrefix);
  if (!decoded.ok) return fail(decoded.checksum ? reasons.checksum('tezos') : reasons.notAddress('tezos'));
  return ok(address);
};
