import { sha256 } from '@noble/hashes/sha2';
import { base58, createBase58check } from '@scure/base';
import { checkTransactionHash } from '../../../src/addresses/transaction-hash';
import { ADDRESS_NETWORKS } from '../../../src/addresses/validate';

const base58check = createBase58check(sha256);
const bytes = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 256);

// Bitcoin's genesis coinbase transaction; keccak256 of the empty string as an EVM-shaped hash.
const BTC_GENESIS_TX = '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b';
const EVM_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';
const SOLANA_SIGNATURE = base58.encode(bytes(64));
const TEZOS_OPERATION = base58check.encode(Uint8Array.from([5, 116, ...bytes(32)]));

describe('checkTransactionHash', () => {
  test('every network with address rules has transaction rules', () => {
    for (const network of ADDRESS_NETWORKS) {
      expect(checkTransactionHash(network, '').valid).toBe(false);
      expect(checkTransactionHash(network, '')).toEqual({ valid: false, reason: 'the transaction hash is empty' });
    }
  });

  test.each([
    ['ethereum', EVM_HASH, EVM_HASH],
    ['polygon', EVM_HASH.toUpperCase().replace('0X', '0x'), EVM_HASH],
    ['bitcoin', BTC_GENESIS_TX, BTC_GENESIS_TX],
    ['bitcoin', BTC_GENESIS_TX.toUpperCase(), BTC_GENESIS_TX],
    ['tron', BTC_GENESIS_TX, BTC_GENESIS_TX],
    ['ripple', BTC_GENESIS_TX, BTC_GENESIS_TX.toUpperCase()],
    ['cosmos', BTC_GENESIS_TX, BTC_GENESIS_TX.toUpperCase()],
    ['polkadot', EVM_HASH, EVM_HASH],
    ['solana', SOLANA_SIGNATURE, SOLANA_SIGNATURE],
    ['tezos', TEZOS_OPERATION, TEZOS_OPERATION],
    ['algorand', 'A'.repeat(52), 'A'.repeat(52)],
    ['ton', BTC_GENESIS_TX, BTC_GENESIS_TX],
    ['ton', Buffer.from(bytes(32)).toString('base64'), Buffer.from(bytes(32)).toString('base64')],
  ])('%s takes %s', (network, hash, normalized) => {
    expect(checkTransactionHash(network, hash)).toEqual({ valid: true, normalized });
  });

  test.each([
    ['ethereum', BTC_GENESIS_TX, 'no 0x'],
    ['ethereum', `${EVM_HASH}0`, 'one digit too many'],
    ['ethereum', ` ${EVM_HASH}`, 'whitespace'],
    ['ethereum', EVM_HASH.replace('c5', 'g5'), 'not hex'],
    ['bitcoin', EVM_HASH, 'a 0x prefix'],
    ['bitcoin', BTC_GENESIS_TX.slice(1), 'one digit short'],
    ['bitcoin', `${BTC_GENESIS_TX}\n`, 'a trailing newline'],
    ['solana', base58.encode(bytes(32)), 'an address, not a signature'],
    ['solana', `${SOLANA_SIGNATURE}0`, 'not base58'],
    ['tezos', base58check.encode(Uint8Array.from([6, 161, 159, ...bytes(20)])), 'an account, not an operation'],
    ['tezos', `${TEZOS_OPERATION.slice(0, -1)}${TEZOS_OPERATION.endsWith('a') ? 'b' : 'a'}`, 'a broken checksum'],
    ['algorand', 'a'.repeat(52), 'lower case'],
    ['ton', 'x'.repeat(10), 'short'],
  ])('%s refuses %s (%s)', (network, hash) => {
    expect(checkTransactionHash(network, hash)).toEqual({ valid: false, reason: `not a ${network} transaction hash` });
  });

  test('an unknown network, or a name of Object.prototype, has no rules', () => {
    for (const network of ['moon', 'constructor', '__proto__']) {
      expect(checkTransactionHash(network, BTC_GENESIS_TX)).toEqual({
        valid: false,
        reason: `no transaction rules for network ${network}`,
      });
    }
  });
});
