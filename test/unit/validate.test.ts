import { validateWalletAddress } from '../../src/addresses/validate';
import { currencyDictionary } from '../../src/domain/currencies';

const EVM_NETWORKS = ['ethereum', 'polygon', 'base', 'arbitrum', 'bsc'] as const;

const ADDRESS = {
  btcBech32: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  btcTaproot: 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297',
  btcP2pkh: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
  btcP2sh: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
  ltcBech32: 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea',
  ltcL: 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9',
  ltcM: 'MGxNPPB7eBoWPUaprtX9v9CXJZoD2465zN',
  tron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  solana44: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  solana43: 'So11111111111111111111111111111111111111112',
  solana32: '11111111111111111111111111111111',
  evm: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  evmLower: '0x742d35cc6634c0532925a3b844bc454e4438f44e',
  evmUpper: '0x742D35CC6634C0532925A3B844BC454E4438F44E',
} as const;

const VALID: [string, string][] = [
  ['bitcoin', ADDRESS.btcBech32],
  ['bitcoin', ADDRESS.btcTaproot],
  ['bitcoin', ADDRESS.btcP2pkh],
  ['bitcoin', ADDRESS.btcP2sh],
  ['litecoin', ADDRESS.ltcBech32],
  ['litecoin', ADDRESS.ltcL],
  ['litecoin', ADDRESS.ltcM],
  ['tron', ADDRESS.tron],
  ['solana', ADDRESS.solana44],
  ['solana', ADDRESS.solana43],
  ['solana', ADDRESS.solana32],
  ...EVM_NETWORKS.flatMap((network): [string, string][] => [
    [network, ADDRESS.evm],
    [network, ADDRESS.evmLower],
    [network, ADDRESS.evmUpper],
  ]),
];

const INVALID: [string, string, string][] = [
  // network, address, why
  ['bitcoin', '', 'empty'],
  ['bitcoin', ` ${ADDRESS.btcBech32}`, 'leading space'],
  ['bitcoin', `${ADDRESS.btcP2pkh} `, 'trailing space'],
  ['bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdo', "bech32 has no 'o'"],
  ['bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdb', "bech32 has no 'b'"],
  ['bitcoin', 'bc1qshort', 'bech32 too short'],
  ['bitcoin', `bc1q${'q'.repeat(71)}`, 'bech32 too long'],
  ['bitcoin', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'testnet'],
  ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0', "base58 has no '0'"],
  ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNO', "base58 has no 'O'"],
  ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNl', "base58 has no 'l'"],
  ['bitcoin', '2A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'unknown legacy prefix'],
  ['bitcoin', '1A1zP1eP5QGefi2DMPT', 'legacy too short'],
  ['bitcoin', `1${'A'.repeat(35)}`, 'legacy too long'],
  ['litecoin', 'ltc1', 'bech32 without data'],
  ['litecoin', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9x', 'too long'],
  ['litecoin', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH0', "base58 has no '0'"],
  ['litecoin', 'XVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9', 'unknown prefix'],
  ['tron', 'tR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'lowercase prefix'],
  ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6', 'too short'],
  ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6tt', 'too long'],
  ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60', "base58 has no '0'"],
  ['tron', '41a614f803b6fd780986a42c78ec9c7f77e6ded13c', 'hex form'],
  ['solana', '1111111111111111111111111111111', '31 characters'],
  ['solana', `${ADDRESS.solana44}A`, '45 characters'],
  ['solana', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWW0', "base58 has no '0'"],
  ['solana', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWI', "base58 has no 'I'"],
  ...EVM_NETWORKS.flatMap((network): [string, string, string][] => [
    [network, '742d35Cc6634C0532925a3b844Bc454e4438f44e', 'no 0x'],
    [network, '0X742d35Cc6634C0532925a3b844Bc454e4438f44e', 'capital 0X'],
    [network, '0x742d35Cc6634C0532925a3b844Bc454e4438f44', '39 hex digits'],
    [network, '0x742d35Cc6634C0532925a3b844Bc454e4438f44e0', '41 hex digits'],
    [network, '0x742d35Cc6634C0532925a3b844Bc454e4438f44g', 'non-hex digit'],
    [network, '', 'empty'],
  ]),
];

/** Addresses of one network offered for another; the formats do not overlap for these pairs. */
const CROSS: [string, string, string][] = [
  ['bitcoin', ADDRESS.evm, 'EVM'],
  ['bitcoin', ADDRESS.tron, 'tron'],
  ['bitcoin', ADDRESS.ltcBech32, 'litecoin bech32'],
  ['bitcoin', ADDRESS.ltcL, 'litecoin L-address'],
  ['bitcoin', ADDRESS.solana44, 'solana'],
  ['litecoin', ADDRESS.btcBech32, 'bitcoin bech32'],
  ['litecoin', ADDRESS.btcP2pkh, 'bitcoin 1-address'],
  ['litecoin', ADDRESS.evm, 'EVM'],
  ['litecoin', ADDRESS.tron, 'tron'],
  ['tron', ADDRESS.evm, 'EVM'],
  ['tron', ADDRESS.btcP2pkh, 'bitcoin'],
  ['tron', ADDRESS.solana44, 'solana'],
  ['tron', ADDRESS.ltcL, 'litecoin'],
  ['solana', ADDRESS.evm, 'EVM'],
  ['solana', ADDRESS.btcBech32, 'bitcoin bech32'],
  ['solana', ADDRESS.ltcBech32, 'litecoin bech32'],
  ...EVM_NETWORKS.flatMap((network): [string, string, string][] => [
    [network, ADDRESS.btcBech32, 'bitcoin bech32'],
    [network, ADDRESS.btcP2pkh, 'bitcoin legacy'],
    [network, ADDRESS.ltcL, 'litecoin'],
    [network, ADDRESS.tron, 'tron'],
    [network, ADDRESS.solana44, 'solana'],
  ]),
];

describe('validateWalletAddress', () => {
  test.each(VALID)('%s accepts %s', (network, address) => {
    expect(validateWalletAddress(network, address)).toEqual({ valid: true });
  });

  test.each(INVALID)('%s refuses %p (%s)', (network, address) => {
    expect(validateWalletAddress(network, address)).toEqual({ valid: false, reason: `not a ${network} address` });
  });

  test.each(CROSS)('%s refuses the %s address %s', (network, address) => {
    expect(validateWalletAddress(network, address)).toEqual({ valid: false, reason: `not a ${network} address` });
  });

  test.each(['dogecoin', 'Ethereum', 'ETH', 'eth', '', 'bitcoin ', 'ton', 'constructor', '__proto__', 'toString', 'hasOwnProperty'])('unknown network %p is refused', (network) => {
    expect(validateWalletAddress(network, ADDRESS.evm)).toEqual({ valid: false, reason: `no address rules for network ${network}` });
  });

  test('every crypto network in the currency dictionary has address rules', () => {
    const networks = new Set(currencyDictionary.currencies.flatMap((c) => (c.network ? [c.network] : [])));
    expect(networks.size).toBeGreaterThan(0);
    for (const network of networks) {
      expect(validateWalletAddress(network, '').reason).toBe(`not a ${network} address`);
    }
  });
});
