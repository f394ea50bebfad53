/**
 * Wallet address checks per network. This first version checks each network's address format
 * (alphabet, prefix, length); checksum verification per network replaces it (docs/decisions.md).
 */
export interface AddressValidation {
  valid: boolean;
  reason?: string;
}

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
const BECH32 = '[02-9ac-hj-np-z]';
const EVM = /^0x[0-9a-fA-F]{40}$/;

const FORMATS: ReadonlyMap<string, RegExp> = new Map(Object.entries({
  bitcoin: new RegExp(`^(bc1${BECH32}{11,71}|[13]${BASE58}{25,34})$`),
  litecoin: new RegExp(`^(ltc1${BECH32}{11,71}|[LM3]${BASE58}{26,33})$`),
  tron: new RegExp(`^T${BASE58}{33}$`),
  solana: new RegExp(`^${BASE58}{32,44}$`),
  ethereum: EVM,
  polygon: EVM,
  base: EVM,
  arbitrum: EVM,
  bsc: EVM,
}));

export function validateWalletAddress(network: string, address: string): AddressValidation {
  const format = FORMATS.get(network);
  if (!format) return { valid: false, reason: `no address rules for network ${network}` };
  return format.test(address) ? { valid: true } : { valid: false, reason: `not a ${network} address` };
}
