import { validate } from 'multicoin-address-validator';
import { bech32Prefix, decodeBase58, decodeBech32Bytes, isMixedCase } from './codecs';
import { fail, ok, reasons, type AddressValidation, type NetworkValidator } from './result';

/**
 * Long-tail networks with no dedicated library in docs/decisions.md: multicoin-address-validator
 * (the pinned fallback) checks their checksums, and the rules here add what it leaves out (network
 * prefixes, testnet and address kinds).
 */

/** `multicoin-address-validator` for one currency symbol, mainnet rules. */
const multicoin = (symbol: string, address: string): boolean => validate(address, symbol, { networkType: 'prod' });

/**
 * Stellar: a G… account (strkey: version byte, ed25519 key, CRC16-XModem). Muxed M… accounts are
 * refused: not every provider can pay them, and a G… account with a memo says the same. Stellar's
 * testnet uses the same addresses.
 */
export const stellarValidator: NetworkValidator = (address) => {
  if (/^M[A-Z2-7]{68}$/.test(address)) return fail('muxed Stellar addresses (M…) are not accepted; give the G… account and a memo');
  if (!/^G[A-Z2-7]{55}$/.test(address)) return fail(reasons.notAddress('stellar'));
  return multicoin('xlm', address) ? ok(address) : fail(reasons.checksum('stellar'));
};

/**
 * Polkadot: SS58 with network prefix 0 (addresses starting with 1) and a 32-byte account id; the
 * library checks the Blake2b checksum, the prefix is checked here. The same account under another
 * prefix (generic Substrate 42, Kusama 2) is refused: re-encode it for Polkadot.
 */
export const polkadotValidator: NetworkValidator = (address) => {
  const bytes = decodeBase58(address);
  // 35 bytes: a one-byte network prefix (0 to 63), the 32-byte account id and a 2-byte checksum.
  const prefix = bytes?.length === 35 ? (bytes[0] ?? 0xff) : 0xff;
  if (prefix > 63) return fail(reasons.notAddress('polkadot'));
  if (!multicoin('dot', address)) return fail(prefix === 0 ? reasons.checksum('polkadot') : reasons.notAddress('polkadot'));
  if (prefix !== 0) return fail(`not a polkadot address: SS58 network prefix ${prefix} (Polkadot uses 0)`);
  return ok(address);
};

/** Shelley header: address type (high nibble) and network id (low nibble, 1 = mainnet). */
const SHELLEY_LENGTHS: ReadonlyMap<number, (length: number) => boolean> = new Map([
  // base addresses: payment and stake credentials
  ...[0, 1, 2, 3].map((type): [number, (length: number) => boolean] => [type, (length) => length === 57]),
  // pointer addresses: payment credential and a chain pointer of three variable-length integers
  ...[4, 5].map((type): [number, (length: number) => boolean] => [type, (length) => length >= 32 && length <= 59]),
  // enterprise addresses: payment credential only
  ...[6, 7].map((type): [number, (length: number) => boolean] => [type, (length) => length === 29]),
]);

function shelley(address: string, prefix: string): AddressValidation {
  if (isMixedCase(address)) return fail(reasons.mixedCase);
  const decoded = decodeBech32Bytes(address);
  if (!decoded.ok) return fail(decoded.checksum ? reasons.checksum('cardano') : reasons.notAddress('cardano'));
  if (prefix === 'addr_test' || prefix === 'stake_test') return fail(reasons.testnet('cardano'));
  if (prefix === 'stake') return fail('a Cardano stake (reward) address cannot receive payments');
  const { bytes } = decoded.value;
  const header = bytes[0] ?? 0xff;
  const lengthOk = SHELLEY_LENGTHS.get(header >> 4);
  if (!lengthOk?.(bytes.length) || (header & 0x0f) !== 1) return fail(reasons.notAddress('cardano'));
  return ok(address.toLowerCase());
}

/**
 * Cardano: Shelley addresses (bech32 `addr1…`, CIP-19) are decoded with @scure/base and their header
 * checked (payment address type, mainnet network id, length); Byron addresses (base58 CBOR with a
 * CRC32, Ae2…/DdzFF…) are checked by the fallback library, which cannot tell a Byron testnet address.
 */
export const cardanoValidator: NetworkValidator = (address) => {
  const prefix = bech32Prefix(address);
  if (prefix === 'addr' || prefix === 'addr_test' || prefix === 'stake' || prefix === 'stake_test') return shelley(address, prefix);
  return multicoin('ada', address) ? ok(address) : fail(reasons.notAddress('cardano'));
};

/** Algorand's zero address (32 zero bytes), a burn address. */
const ALGORAND_ZERO = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ';

/**
 * Algorand: 58 characters of base32 (a 32-byte public key and the last 4 bytes of its
 * SHA-512/256); the fallback library checks the checksum. TestNet uses the same addresses.
 */
export const algorandValidator: NetworkValidator = (address) => {
  if (!/^[A-Z2-7]{58}$/.test(address)) return fail(reasons.notAddress('algorand'));
  if (!multicoin('algo', address)) return fail(reasons.checksum('algorand'));
  if (address === ALGORAND_ZERO) return fail(reasons.zero);
  return ok(address);
};
