import { decodeBase58Check } from './codecs';
import { fail, isAllZero, ok, reasons, type NetworkValidator } from './result';

/**
 * TRON: Base58Check of 21 bytes whose first byte is 0x41 (the T… form). The checksum is checked with
 * @scure/base's Base58Check, the algorithm bs58check implements. TRON's testnets (Shasta, Nile) use
 * the same addresses, so they cannot be told apart. The hex form (41…) is not accepted.
 */
export const tronValidator: NetworkValidator = (address) => {
  const decoded = decodeBase58Check(address, 21, (payload) => payload[0] === 0x41);
  if (!decoded.ok) return fail(decoded.checksum ? reasons.checksum('tron') : reasons.notAddress('tron'));
  if (isAllZero(decoded.value.subarray(1))) return fail(reasons.zero);
  return ok(address);
};
