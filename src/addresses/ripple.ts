import { base58xrp } from '@scure/base';
import { decodeAccountID, isValidClassicAddress, isValidXAddress, xAddressToClassicAddress } from 'ripple-address-codec';
import { fail, isAllZero, ok, reasons, type NetworkValidator } from './result';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** Byte length of the base58 text in the XRP alphabet, or undefined when it is not base58. */
function rawLength(text: string): number | undefined {
  if (!BASE58.test(text)) return undefined;
  try {
    return base58xrp.decode(text).length;
  } catch {
    return undefined;
  }
}

/**
 * XRP Ledger, with ripple-address-codec. A classic address (r…: version byte, 20-byte account id,
 * checksum) is valid without a destination tag; an X-address (XLS-5d: account id plus an optional
 * tag) is turned into its classic address and tag. X-addresses for test networks (T…) are refused.
 * The tag is checked against a caller's tag in validateWalletAddress.
 */
export const rippleValidator: NetworkValidator = (address) => {
  if (address.startsWith('r')) {
    if (rawLength(address) !== 25) return fail(reasons.notAddress('ripple'));
    if (!isValidClassicAddress(address)) return fail(reasons.checksum('ripple'));
    if (isAllZero(decodeAccountID(address))) return fail(reasons.zero);
    return ok(address);
  }
  if (address.startsWith('X') || address.startsWith('T')) {
    if (rawLength(address) !== 35) return fail(reasons.notAddress('ripple'));
    if (!isValidXAddress(address)) return fail(reasons.checksum('ripple'));
    const { classicAddress, tag, test } = xAddressToClassicAddress(address);
    if (test) return fail(reasons.testnet('ripple'));
    if (isAllZero(decodeAccountID(classicAddress))) return fail(reasons.zero);
    return ok(classicAddress, tag === false ? undefined : String(tag));
  }
  return fail(reasons.notAddress('ripple'));
};
