import { isAddress } from '@solana/addresses';
import { decodeBase58 } from './codecs';
import { fail, isAllZero, ok, reasons, type NetworkValidator } from './result';

/**
 * Solana, with @solana/addresses `isAddress`: base58 of exactly 32 bytes. Solana addresses carry no
 * checksum, so a mistyped character is caught only when it changes the length. Off-curve addresses
 * (program derived addresses) are accepted: they are valid accounts and token accounts can be owned
 * by them. The all-zero address (the System Program, 111…1) is refused.
 */
export const solanaValidator: NetworkValidator = (address) => {
  if (!isAddress(address)) return fail(reasons.notAddress('solana'));
  if (isAllZero(decodeBase58(address) ?? new Uint8Array([1]))) return fail(reasons.zero);
  return ok(address);
};
