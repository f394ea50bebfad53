import { bech32Prefix, decodeBech32Bytes, isMixedCase } from './codecs';
import { fail, ok, reasons, type NetworkValidator } from './result';

/**
 * Cosmos Hub: bech32 with prefix `cosmos` over a 20-byte account (or a 32-byte module or interchain
 * account), decoded with @scure/base. Validator operator (cosmosvaloper…) and other chains' prefixes
 * are refused. Cosmos Hub testnets share the `cosmos` prefix, so they cannot be told apart.
 */
export const cosmosValidator: NetworkValidator = (address) => {
  if (bech32Prefix(address) !== 'cosmos') return fail(reasons.notAddress('cosmos'));
  if (isMixedCase(address)) return fail(reasons.mixedCase);
  const decoded = decodeBech32Bytes(address);
  if (!decoded.ok) return fail(decoded.checksum ? reasons.checksum('cosmos') : reasons.notAddress('cosmos'));
  const { length } = decoded.value.bytes;
  if (length !== 20 && length !== 32) return fail(reasons.notAddress('cosmos'));
  return ok(address.toLowerCase());
};
