import { address, networks, payments, type Network } from 'bitcoinjs-lib';
import bs58check from 'bs58check';

/**
 * Bitcoin-family test vectors, derived with bitcoinjs-lib (an implementation independent of the
 * validators' @scure/base) from fixed public keys: the compressed points G, 2G and 3G of secp256k1
 * (private keys 1, 2 and 3). The checked-in vectors (utxo.ts) must equal what this derives.
 */
export const KEYS = {
  g: '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
  g2: '02c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5',
  g3: '02f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9',
} as const;

const LITECOIN: Network = {
  messagePrefix: '\x19Litecoin Signed Message:\n',
  bech32: 'ltc',
  bip32: { public: 0x019da462, private: 0x019d9cfe },
  pubKeyHash: 0x30,
  scriptHash: 0x32,
  wif: 0xb0,
};
const LITECOIN_TESTNET: Network = { ...networks.testnet, bech32: 'tltc', scriptHash: 0x3a };
const DOGECOIN: Network = {
  messagePrefix: '\x19Dogecoin Signed Message:\n',
  bech32: 'doge',
  bip32: { public: 0x02facafd, private: 0x02fac398 },
  pubKeyHash: 0x1e,
  scriptHash: 0x16,
  wif: 0x9e,
};
const DOGECOIN_TESTNET: Network = { ...DOGECOIN, pubKeyHash: 0x71, scriptHash: 0xc4, wif: 0xf1 };
const DASH: Network = { ...DOGECOIN, messagePrefix: '\x19DarkCoin Signed Message:\n', pubKeyHash: 0x4c, scriptHash: 0x10, wif: 0xcc };
const DASH_TESTNET: Network = { ...DASH, pubKeyHash: 0x8c, scriptHash: 0x13, wif: 0xef };

/** Zcash transparent addresses have two version bytes, which bitcoinjs-lib does not write: bs58check does. */
function zcash(version: readonly [number, number], pubkey: string, script = false): string {
  const payment = script ? payments.p2sh({ redeem: payments.p2pk({ pubkey: key(pubkey) }) }) : payments.p2pkh({ pubkey: key(pubkey) });
  if (!payment.hash) throw new Error('bitcoinjs-lib derived no hash');
  return bs58check.encode(Uint8Array.from([...version, ...payment.hash]));
}

const key = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
const xOnly = (hex: string): Uint8Array => key(hex).subarray(1);

function required(value: string | undefined): string {
  if (value === undefined) throw new Error('bitcoinjs-lib derived no address');
  return value;
}

const p2pkh = (pubkey: string, network: Network) => required(payments.p2pkh({ pubkey: key(pubkey), network }).address);
const p2shP2wpkh = (pubkey: string, network: Network) =>
  required(payments.p2sh({ redeem: payments.p2wpkh({ pubkey: key(pubkey), network }), network }).address);
const p2shP2pk = (pubkey: string, network: Network) =>
  required(payments.p2sh({ redeem: payments.p2pk({ pubkey: key(pubkey), network }), network }).address);
const p2wpkh = (pubkey: string, network: Network) => required(payments.p2wpkh({ pubkey: key(pubkey), network }).address);
const p2wsh = (pubkey: string, network: Network) =>
  required(payments.p2wsh({ redeem: payments.p2pk({ pubkey: key(pubkey), network }), network }).address);
/** Taproot output for the x-only key (as the output key; no tweak, so no elliptic-curve library is needed). */
const p2tr = (pubkey: string, network: Network) => address.toBech32(xOnly(pubkey), 1, network.bech32);

export function deriveUtxoVectors() {
  const { bitcoin, testnet } = networks;
  return {
    btcP2pkh: p2pkh(KEYS.g, bitcoin),
    btcP2sh: p2shP2wpkh(KEYS.g, bitcoin),
    btcP2wpkh: p2wpkh(KEYS.g2, bitcoin),
    btcP2wsh: p2wsh(KEYS.g, bitcoin),
    btcP2tr: p2tr(KEYS.g3, bitcoin),
    btcTestP2pkh: p2pkh(KEYS.g, testnet),
    btcTestP2sh: p2shP2wpkh(KEYS.g, testnet),
    btcTestP2wpkh: p2wpkh(KEYS.g2, testnet),
    btcTestP2tr: p2tr(KEYS.g3, testnet),
    ltcP2pkh: p2pkh(KEYS.g, LITECOIN),
    ltcP2sh: p2shP2wpkh(KEYS.g, LITECOIN),
    ltcLegacyP2sh: p2shP2wpkh(KEYS.g2, { ...LITECOIN, scriptHash: 0x05 }),
    ltcP2wpkh: p2wpkh(KEYS.g2, LITECOIN),
    ltcP2wsh: p2wsh(KEYS.g, LITECOIN),
    ltcP2tr: p2tr(KEYS.g3, LITECOIN),
    ltcTestP2pkh: p2pkh(KEYS.g, LITECOIN_TESTNET),
    ltcTestP2sh: p2shP2wpkh(KEYS.g, LITECOIN_TESTNET),
    ltcTestP2wpkh: p2wpkh(KEYS.g2, LITECOIN_TESTNET),
    dogeP2pkh: p2pkh(KEYS.g, DOGECOIN),
    dogeP2pkh2: p2pkh(KEYS.g3, DOGECOIN),
    dogeP2sh: p2shP2pk(KEYS.g, DOGECOIN),
    dogeP2sh2: p2shP2pk(KEYS.g2, DOGECOIN),
    dogeTestP2pkh: p2pkh(KEYS.g, DOGECOIN_TESTNET),
    dogeTestP2sh: p2shP2pk(KEYS.g, DOGECOIN_TESTNET),
    dashP2pkh: p2pkh(KEYS.g, DASH),
    dashP2sh: p2shP2pk(KEYS.g2, DASH),
    dashTestP2pkh: p2pkh(KEYS.g, DASH_TESTNET),
    dashTestP2sh: p2shP2pk(KEYS.g2, DASH_TESTNET),
    zecP2pkh: zcash([0x1c, 0xb8], KEYS.g),
    zecP2sh: zcash([0x1c, 0xbd], KEYS.g2, true),
    zecTestP2pkh: zcash([0x1d, 0x25], KEYS.g),
    zecTestP2sh: zcash([0x1c, 0xba], KEYS.g2, true),
  };
}
