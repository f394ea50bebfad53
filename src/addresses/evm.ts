import { getAddress, isAddress } from 'viem';
import { fail, ok, reasons, type NetworkValidator } from './result';

/** Account addresses of Ethereum and the EVM chains (for Avalanche, the C-Chain). */
export const EVM_NETWORKS = ['ethereum', 'base', 'arbitrum', 'optimism', 'polygon', 'bsc', 'avalanche', 'ethereum_classic'] as const;

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** EIP-55: an address in one case carries no checksum. */
const SINGLE_CASE = /^0x([0-9a-f]{40}|[0-9A-F]{40})$/;
const ZERO = `0x${'0'.repeat(40)}`;

/**
 * viem: `isAddress(a, { strict: true })` verifies EIP-55 on mixed-case input. viem also takes
 * all-lowercase without a checksum, but not all-uppercase, which EIP-55 treats alike; that case is
 * lowercased first. The normalized form is `getAddress()`, the EIP-55 checksummed spelling.
 */
export function evmValidator(network: string): NetworkValidator {
  return (address) => {
    if (!HEX_ADDRESS.test(address)) {
      // Avalanche X-Chain and P-Chain addresses (X-avax1…, P-avax1…) are not EVM accounts.
      return fail(reasons.notAddress(network));
    }
    const unchecked = SINGLE_CASE.test(address);
    const candidate = unchecked ? address.toLowerCase() : address;
    if (!isAddress(candidate, { strict: true })) return fail(reasons.eip55);
    if (candidate === ZERO) return fail(reasons.zero);
    return ok(getAddress(candidate));
  };
}
