/**
 * Made-up deposit addresses a simulated provider hands out for a sell order: random, but well formed
 * for their network (checksums, version bytes, EIP-55 casing), so the broker's address rules
 * (src/addresses) accept them as they would a real provider's. No one holds their keys.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { base58, bech32, createBase58check } from '@scure/base';
import { encodeAccountID } from 'ripple-address-codec';
import { getAddress } from 'viem';
import { EVM_NETWORKS } from '../../addresses/evm';

export interface SimulatedDeposit {
  address: string;
  /** The destination tag (XRP) the transfer must carry, where the network tells customers apart by one. */
  memo?: string;
}

const sha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());
const base58check = createBase58check(sha256);

/** Random bytes, never all zero (the networks' rules refuse the zero address). */
function nonZeroBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(randomBytes(length));
  if (bytes.every((b) => b === 0)) bytes[0] = 1;
  return bytes;
}

const segwitV0 = (hrp: string) => bech32.encode(hrp, [0, ...bech32.toWords(nonZeroBytes(20))]);
const versioned = (version: number, length: number) => base58check.encode(Uint8Array.of(version, ...nonZeroBytes(length)));

const GENERATORS: ReadonlyMap<string, () => SimulatedDeposit> = new Map<string, () => SimulatedDeposit>([
  ...EVM_NETWORKS.map((network): [string, () => SimulatedDeposit] => [
    network,
    () => ({ address: getAddress(`0x${Buffer.from(nonZeroBytes(20)).toString('hex')}`) }),
  ]),
  // Native segwit (P2WPKH), as exchanges' deposit addresses mostly are.
  ['bitcoin', () => ({ address: segwitV0('bc') })],
  ['litecoin', () => ({ address: segwitV0('ltc') })],
  // P2PKH, version 0x1e (D…).
  ['dogecoin', () => ({ address: versioned(0x1e, 20) })],
  // Base58Check of 0x41 and the account's 20 bytes (T…).
  ['tron', () => ({ address: versioned(0x41, 20) })],
  // An account key's 32 bytes in base58.
  ['solana', () => ({ address: base58.encode(nonZeroBytes(32)) })],
  // One shared classic address, customers told apart by a destination tag (1 to 2^32 - 1).
  ['ripple', () => ({ address: encodeAccountID(Buffer.from(nonZeroBytes(20))), memo: String(randomInt(1, 4_294_967_295)) })],
]);

/** The networks a simulated deposit address can be made for. */
export const DEPOSIT_NETWORKS: readonly string[] = [...GENERATORS.keys()];

/** A new deposit address on `network` (the dictionary's network name); undefined for a network it cannot make one for. */
export function simulatedDepositAddress(network: string): SimulatedDeposit | undefined {
  return GENERATORS.get(network)?.();
}

/** A made-up transaction id of a deposit on `network`, in that network's usual spelling. */
export function simulatedDepositTransaction(network: string): string {
  if ((EVM_NETWORKS as readonly string[]).includes(network)) return `0x${randomBytes(32).toString('hex')}`;
  if (network === 'solana') return base58.encode(randomBytes(64));
  if (network === 'ripple') return randomBytes(32).toString('hex').toUpperCase();
  return randomBytes(32).toString('hex');
}
