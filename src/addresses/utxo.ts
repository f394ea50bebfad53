import { bech32Prefix, decodeBase58Check, decodeSegwit, isMixedCase } from './codecs';
import { fail, ok, reasons, type AddressValidation, type NetworkValidator } from './result';

type Net = 'mainnet' | 'testnet';

interface UtxoChain {
  network: string;
  /** Length of the Base58Check version: one byte, or two for Zcash. */
  versionBytes: 1 | 2;
  /** Base58Check version of legacy addresses (P2PKH, P2SH) and the network it belongs to. */
  versions: ReadonlyMap<number, Net>;
  /** Bech32 segwit prefixes, where the chain has segwit. */
  segwit?: { mainnet: string; testnet: readonly string[] };
}

const chain = (network: string, versions: [number, Net][], segwit?: UtxoChain['segwit'], versionBytes: 1 | 2 = 1): UtxoChain => ({
  network,
  versionBytes,
  versions: new Map(versions),
  segwit,
});

const BITCOIN = chain(
  'bitcoin',
  [
    [0x00, 'mainnet'],
    [0x05, 'mainnet'],
    [0x6f, 'testnet'],
    [0xc4, 'testnet'],
  ],
  {
    mainnet: 'bc',
    testnet: ['tb', 'bcrt'],
  },
);
// L (0x30), M (0x32) and the legacy P2SH 3 (0x05, the same bytes as Bitcoin's P2SH).
const LITECOIN = chain(
  'litecoin',
  [
    [0x30, 'mainnet'],
    [0x32, 'mainnet'],
    [0x05, 'mainnet'],
    [0x6f, 'testnet'],
    [0x3a, 'testnet'],
    [0xc4, 'testnet'],
  ],
  { mainnet: 'ltc', testnet: ['tltc', 'rltc'] },
);
const DOGECOIN = chain('dogecoin', [
  [0x1e, 'mainnet'],
  [0x16, 'mainnet'],
  [0x71, 'testnet'],
  [0xc4, 'testnet'],
]);
const DASH = chain('dash', [
  [0x4c, 'mainnet'],
  [0x10, 'mainnet'],
  [0x8c, 'testnet'],
  [0x13, 'testnet'],
]);
/** Zcash transparent addresses: t1 (P2PKH 0x1cb8), t3 (P2SH 0x1cbd); testnet tm (0x1d25), t2 (0x1cba). */
const ZCASH = chain(
  'zcash',
  [
    [0x1cb8, 'mainnet'],
    [0x1cbd, 'mainnet'],
    [0x1d25, 'testnet'],
    [0x1cba, 'testnet'],
  ],
  undefined,
  2,
);
/** Bitcoin Cash legacy addresses are Bitcoin's (same version bytes). */
const BITCOIN_CASH_LEGACY = chain('bitcoin_cash', [
  [0x00, 'mainnet'],
  [0x05, 'mainnet'],
  [0x6f, 'testnet'],
  [0xc4, 'testnet'],
]);

function legacy({ network, versionBytes, versions }: UtxoChain, address: string): AddressValidation {
  const version = (payload: Uint8Array) => (versionBytes === 1 ? (payload[0] ?? -1) : ((payload[0] ?? 0) << 8) | (payload[1] ?? 0));
  const decoded = decodeBase58Check(address, versionBytes + 20, (payload) => versions.has(version(payload)));
  if (!decoded.ok) return fail(decoded.checksum ? reasons.checksum(network) : reasons.notAddress(network));
  if (versions.get(version(decoded.value)) === 'testnet') return fail(reasons.testnet(network));
  return ok(address);
}

/**
 * Segwit v0 (P2WPKH 20 bytes, P2WSH 32 bytes, bech32) and v1 taproot (32 bytes, bech32m). Other v1
 * lengths and versions 2 to 16 are valid encodings but nobody can hold their keys yet: anything
 * sent to them can be taken by anyone, so they are refused.
 */
function segwit({ network, segwit: prefixes }: UtxoChain, address: string): AddressValidation {
  if (isMixedCase(address)) return fail(reasons.mixedCase);
  const decoded = decodeSegwit(address);
  if (!decoded.ok) return fail(decoded.checksum ? reasons.checksum(network) : reasons.notAddress(network));
  const { hrp, version, program } = decoded.value;
  if (hrp !== prefixes?.mainnet) return fail(reasons.testnet(network));
  if (version >= 2) return fail(`segwit version ${version} addresses are not in use yet`);
  const standard = version === 0 ? program.length === 20 || program.length === 32 : program.length === 32;
  if (!standard) return fail(reasons.notAddress(network));
  return ok(address.toLowerCase());
}

/** Extra refusals with a reason of their own, by bech32 prefix. */
const REFUSED_PREFIXES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  ['litecoin', new Map([['ltcmweb', 'Litecoin MWEB addresses (ltcmweb1…) are not accepted']])],
  [
    'zcash',
    new Map(
      ['zs', 'u', 'tex'].map((prefix): [string, string] => [
        prefix,
        'only transparent Zcash addresses (t1…, t3…) are accepted, not shielded, unified or TEX ones',
      ]),
    ),
  ],
]);

function utxoValidator(chain: UtxoChain): NetworkValidator {
  return (address) => {
    const prefix = bech32Prefix(address);
    const { segwit: prefixes } = chain;
    if (prefixes && prefix !== undefined && (prefix === prefixes.mainnet || prefixes.testnet.includes(prefix))) {
      return segwit(chain, address);
    }
    const refused = prefix === undefined ? undefined : REFUSED_PREFIXES.get(chain.network)?.get(prefix);
    if (refused) return fail(refused);
    return legacy(chain, address);
  };
}

export const bitcoinValidator = utxoValidator(BITCOIN);
export const litecoinValidator = utxoValidator(LITECOIN);
export const dogecoinValidator = utxoValidator(DOGECOIN);
export const dashValidator = utxoValidator(DASH);
export const zcashValidator = utxoValidator(ZCASH);
export const bitcoinCashLegacyValidator = utxoValidator(BITCOIN_CASH_LEGACY);
