/** The verdict on one wallet address. */
export interface AddressValidation {
  valid: boolean;
  /** Why the address was refused; absent when valid. */
  reason?: string;
  /** The canonical spelling of a valid address (EIP-55 checksummed, lowercase bech32, XRP classic address, ...). */
  normalized?: string;
  /** The destination tag or memo that goes with the address (from the caller, or carried by an XRP X-address). */
  tag?: string;
}

/** Checks one network's addresses; whitespace and empty input are refused before it is called. */
export type NetworkValidator = (address: string) => AddressValidation;

export const ok = (normalized: string, tag?: string): AddressValidation =>
  tag === undefined ? { valid: true, normalized } : { valid: true, normalized, tag };

export const fail = (reason: string): AddressValidation => ({ valid: false, reason });

/** The reasons are part of the API (`reason` of POST /api/on_ramp/validate-address): keep them stable. */
export const reasons = {
  unknownNetwork: (network: string) => `no address rules for network ${network}`,
  empty: 'the address is empty',
  whitespace: 'the address contains whitespace',
  notAddress: (network: string) => `not a ${network} address`,
  checksum: (network: string) => `not a ${network} address: the checksum does not match`,
  testnet: (network: string) => `a ${network} testnet address; only mainnet addresses are accepted`,
  mixedCase: 'the address mixes upper and lower case',
  eip55: 'the mixed-case address fails its EIP-55 checksum',
  zero: 'the zero address cannot receive funds',
  providerRefused: 'the provider does not accept this address',
} as const;

export function isAllZero(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0);
}
