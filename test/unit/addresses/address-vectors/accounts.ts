import { checksum, notAddress, testnet, withChar, ZERO, type InvalidVector, type ValidVector } from './types';

export const EVM_NETWORKS = ['ethereum', 'base', 'arbitrum', 'optimism', 'polygon', 'bsc', 'avalanche', 'ethereum_classic'] as const;

/** EIP-55 test vectors (eips.ethereum.org/EIPS/eip-55). */
export const EIP55 = {
  mixed: [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ],
  upper: ['0x52908400098527886E0F7030069857D2E4169EE7', '0x8617E340B3D01FA5F11F306F4090FD50E238070D'],
  lower: ['0xde709f2102306220921060314715629080e2fb77', '0x27b1fdb04752bbc536007a920d24acb045561c26'],
} as const;

const EVM = EIP55.mixed[0];
const EIP55_WRONG_CASE = 'the mixed-case address fails its EIP-55 checksum';

export const ACCOUNT = {
  evm: EVM,
  tron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', // USDT contract
  tronUsdc: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', // USDC contract
  tronZero: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', // 0x41 and 20 zero bytes
  solana: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', // USDC mint
  solanaWallet: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  solanaProgram: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', // SPL Token program
  solanaWrapped: 'So11111111111111111111111111111111111111112', // wrapped SOL mint, 43 characters
  xrp: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', // genesis account
  xrpClassic: 'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf', // XLS-5d examples
  xrpX: 'X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqZ', // XLS-5d: r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59, no tag
  xrpXMaxTag: 'XVLhHMPHU98es4dbozjVtdWzVrDjtV18pX8yuPT7y4xaEHi', // XLS-5d: rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf, tag 4294967295
  // Encoded with ripple-address-codec classicAddressToXAddress from xrpClassic:
  xrpXTag12345: 'XVLhHMPHU98es4dbozjVtdWzVrDjtVFpRb8iCFUkMtRyVii',
  xrpXTag0: 'XVLhHMPHU98es4dbozjVtdWzVrDjtV8AqEL4xcZj5whKbmc',
  xrpXTest: 'TVE26TYGhfLC7tQDno7G8dGtxSkYQn7h4mkJyVSGxTcrDFJ', // test network, tag 12345
  xrpZero: 'rrrrrrrrrrrrrrrrrrrrrhoLvTp', // ACCOUNT_ZERO
  // Encoded with @ton/core from workchain 0 and 32 bytes of 0x11:
  tonBounceable: 'EQAREREREREREREREREREREREREREREREREREREREREREeYT',
  tonNonBounceable: 'UQAREREREREREREREREREREREREREREREREREREREREREbvW',
  tonTestNonBounceable: '0QAREREREREREREREREREREREREREREREREREREREREREQBc',
  tonTestBounceable: 'kQAREREREREREREREREREREREREREREREREREREREREREV2Z',
  tonRaw: '0:1111111111111111111111111111111111111111111111111111111111111111',
  tonWorkchain1: 'EQEREREREREREREREREREREREREREREREREREREREREREWvP',
  // Workchain 0, 32 bytes of 0xfb: the base64 and base64url spellings differ.
  tonBase64: 'EQD7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+/v7+0EU',
  tonBase64Url: 'EQD7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-0EU',
  tonElector: 'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF', // masterchain (-1)
  tonPublished: 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2',
} as const;

export const ACCOUNT_VALID: ValidVector[] = [
  ...EVM_NETWORKS.flatMap((network): ValidVector[] => [
    ...EIP55.mixed.map((address) => ({ network, address, note: 'EIP-55 checksummed' })),
    // The EIP's single-case examples are checksummed spellings that happen to be in one case.
    ...EIP55.upper.map((address) => ({ network, address, note: 'EIP-55 example, all uppercase' })),
    ...EIP55.lower.map((address) => ({ network, address, note: 'EIP-55 example, all lowercase' })),
    { network, address: EVM.toLowerCase(), normalized: EVM, note: 'lowercase, normalized to EIP-55' },
    { network, address: `0x${EVM.slice(2).toUpperCase()}`, normalized: EVM, note: 'uppercase, normalized to EIP-55' },
  ]),
  { network: 'tron', address: ACCOUNT.tron, note: 'USDT contract' },
  { network: 'tron', address: ACCOUNT.tronUsdc, note: 'USDC contract' },
  { network: 'solana', address: ACCOUNT.solana, note: '44 characters' },
  { network: 'solana', address: ACCOUNT.solanaWallet, note: 'wallet' },
  { network: 'solana', address: ACCOUNT.solanaProgram, note: 'program address' },
  { network: 'solana', address: ACCOUNT.solanaWrapped, note: '43 characters' },
  { network: 'ripple', address: ACCOUNT.xrp, note: 'classic address, no tag' },
  { network: 'ripple', address: ACCOUNT.xrpClassic, tag: '12345', resultTag: '12345', note: 'classic address with a tag' },
  { network: 'ripple', address: ACCOUNT.xrpClassic, tag: '0', resultTag: '0', note: 'tag 0' },
  { network: 'ripple', address: ACCOUNT.xrpClassic, tag: '4294967295', resultTag: '4294967295', note: 'largest tag' },
  { network: 'ripple', address: ACCOUNT.xrpX, normalized: 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59', note: 'X-address without a tag' },
  {
    network: 'ripple',
    address: ACCOUNT.xrpX,
    tag: '7',
    normalized: 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59',
    resultTag: '7',
    note: 'X-address without a tag, tag given',
  },
  {
    network: 'ripple',
    address: ACCOUNT.xrpXMaxTag,
    normalized: ACCOUNT.xrpClassic,
    resultTag: '4294967295',
    note: 'X-address with its tag',
  },
  {
    network: 'ripple',
    address: ACCOUNT.xrpXTag12345,
    normalized: ACCOUNT.xrpClassic,
    resultTag: '12345',
    note: 'X-address with tag 12345',
  },
  {
    network: 'ripple',
    address: ACCOUNT.xrpXTag12345,
    tag: '12345',
    normalized: ACCOUNT.xrpClassic,
    resultTag: '12345',
    note: 'X-address, the same tag given',
  },
  { network: 'ripple', address: ACCOUNT.xrpXTag0, normalized: ACCOUNT.xrpClassic, resultTag: '0', note: 'X-address with tag 0' },
  { network: 'ton', address: ACCOUNT.tonBounceable, note: 'bounceable (EQ…)' },
  { network: 'ton', address: ACCOUNT.tonNonBounceable, note: 'non-bounceable (UQ…)' },
  { network: 'ton', address: ACCOUNT.tonNonBounceable, tag: 'order 42', resultTag: 'order 42', note: 'with a comment' },
  { network: 'ton', address: ACCOUNT.tonRaw, note: 'raw form' },
  { network: 'ton', address: `0:${'AB'.repeat(32)}`, normalized: `0:${'ab'.repeat(32)}`, note: 'raw form, uppercase hex' },
  { network: 'ton', address: '-1:3333333333333333333333333333333333333333333333333333333333333333', note: 'raw form, masterchain' },
  { network: 'ton', address: ACCOUNT.tonElector, note: 'masterchain, elector contract' },
  { network: 'ton', address: ACCOUNT.tonBase64, normalized: ACCOUNT.tonBase64Url, note: 'standard base64, normalized to base64url' },
  { network: 'ton', address: ACCOUNT.tonBase64Url, note: 'base64url' },
  { network: 'ton', address: ACCOUNT.tonPublished, note: 'published address' },
];

export const ACCOUNT_INVALID: InvalidVector[] = [
  ...EVM_NETWORKS.flatMap((network): InvalidVector[] => [
    { network, address: withChar(EVM, 3, 'A'), reason: EIP55_WRONG_CASE, note: 'one letter in the wrong case' },
    { network, address: withChar(EIP55.mixed[1], 3, 'b'), reason: EIP55_WRONG_CASE, note: 'an uppercase letter lowercased' },
    { network, address: withChar(EVM, 10, '7'), reason: EIP55_WRONG_CASE, note: 'checksummed, one digit changed' },
    { network, address: `0x${'0'.repeat(40)}`, reason: ZERO, note: 'the zero address' },
    { network, address: EVM.slice(2), reason: notAddress(network), note: 'no 0x' },
    { network, address: `0X${EVM.slice(2)}`, reason: notAddress(network), note: 'capital 0X' },
    { network, address: EVM.slice(0, -1), reason: notAddress(network), note: 'truncated: 39 hex digits' },
    { network, address: `${EVM}0`, reason: notAddress(network), note: '41 hex digits' },
    { network, address: withChar(EVM, 5, 'g'), reason: notAddress(network), note: 'not hex' },
    { network, address: ACCOUNT.tron, reason: notAddress(network), note: 'tron' },
    { network, address: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c', reason: notAddress(network), note: 'tron hex form' },
    { network, address: ACCOUNT.solana, reason: notAddress(network), note: 'solana' },
    { network, address: 'bc1qq6hag67dl53wl99vzg42z8eyzfz2xlkvxechjp', reason: notAddress(network), note: 'bitcoin' },
  ]),
  {
    network: 'avalanche',
    address: 'X-avax1qr4kys2f8d6hfxz8uxtfvd7qt2rz8ylvvqmv49',
    reason: notAddress('avalanche'),
    note: 'X-Chain, not C-Chain',
  },
  // tron
  { network: 'tron', address: withChar(ACCOUNT.tron, 10, 'z'), reason: checksum('tron'), note: 'one character changed' },
  { network: 'tron', address: withChar(ACCOUNT.tron, -1, 'u'), reason: checksum('tron'), note: 'last character changed' },
  { network: 'tron', address: ACCOUNT.tron.slice(0, -1), reason: notAddress('tron'), note: 'truncated' },
  { network: 'tron', address: `${ACCOUNT.tron}t`, reason: notAddress('tron'), note: 'one character longer' },
  { network: 'tron', address: `t${ACCOUNT.tron.slice(1)}`, reason: notAddress('tron'), note: 'lowercase prefix' },
  { network: 'tron', address: withChar(ACCOUNT.tron, 5, '0'), reason: notAddress('tron'), note: "base58 has no '0'" },
  { network: 'tron', address: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c', reason: notAddress('tron'), note: 'hex form' },
  { network: 'tron', address: ACCOUNT.tronZero, reason: ZERO, note: 'the zero address' },
  { network: 'tron', address: EVM, reason: notAddress('tron'), note: 'EVM' },
  {
    network: 'tron',
    address: '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH',
    reason: notAddress('tron'),
    note: 'bitcoin: Base58Check of another version',
  },
  { network: 'tron', address: ACCOUNT.solana, reason: notAddress('tron'), note: 'solana' },
  { network: 'tron', address: ACCOUNT.xrp, reason: notAddress('tron'), note: 'XRP' },
  // solana
  { network: 'solana', address: ACCOUNT.solana.slice(0, -3), reason: notAddress('solana'), note: 'truncated' },
  { network: 'solana', address: `${ACCOUNT.solana}A`, reason: notAddress('solana'), note: '45 characters' },
  { network: 'solana', address: '1'.repeat(31), reason: notAddress('solana'), note: '31 characters' },
  { network: 'solana', address: withChar(ACCOUNT.solana, 5, '0'), reason: notAddress('solana'), note: "base58 has no '0'" },
  { network: 'solana', address: withChar(ACCOUNT.solana, 5, 'I'), reason: notAddress('solana'), note: "base58 has no 'I'" },
  { network: 'solana', address: '11111111111111111111111111111111', reason: ZERO, note: 'all zero: the System Program' },
  { network: 'solana', address: EVM, reason: notAddress('solana'), note: 'EVM' },
  { network: 'solana', address: ACCOUNT.tron, reason: notAddress('solana'), note: 'tron' },
  { network: 'solana', address: 'bc1qq6hag67dl53wl99vzg42z8eyzfz2xlkvxechjp', reason: notAddress('solana'), note: 'bitcoin bech32' },
  // ripple
  { network: 'ripple', address: withChar(ACCOUNT.xrp, 10, 'z'), reason: checksum('ripple'), note: 'classic, one character changed' },
  { network: 'ripple', address: ACCOUNT.xrp.slice(0, -1), reason: checksum('ripple'), note: 'classic, truncated' },
  { network: 'ripple', address: ACCOUNT.xrp.slice(0, 20), reason: notAddress('ripple'), note: 'classic, cut in half' },
  { network: 'ripple', address: withChar(ACCOUNT.xrpX, 10, 'z'), reason: checksum('ripple'), note: 'X-address, one character changed' },
  { network: 'ripple', address: ACCOUNT.xrpX.slice(0, -1), reason: notAddress('ripple'), note: 'X-address truncated' },
  { network: 'ripple', address: ACCOUNT.xrpXTest, reason: testnet('ripple'), note: 'test-network X-address (T…)' },
  {
    network: 'ripple',
    address: ACCOUNT.xrpXTag12345,
    tag: '54321',
    reason: 'tag conflicts with the X-address',
    note: 'X-address tag and another tag',
  },
  {
    network: 'ripple',
    address: ACCOUNT.xrpXTag0,
    tag: '00',
    reason: 'the destination tag must be an integer from 0 to 4294967295',
    note: 'leading zero',
  },
  { network: 'ripple', address: ACCOUNT.xrpZero, reason: ZERO, note: 'ACCOUNT_ZERO' },
  { network: 'ripple', address: ACCOUNT.tron, reason: notAddress('ripple'), note: 'tron (T…, but not an X-address)' },
  { network: 'ripple', address: '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH', reason: notAddress('ripple'), note: 'bitcoin' },
  { network: 'ripple', address: EVM, reason: notAddress('ripple'), note: 'EVM' },
  { network: 'ripple', address: 'sn259rEFXrQrWyx3Q7XneWcwV6dfL', reason: notAddress('ripple'), note: 'a secret seed' },
  // ton
  { network: 'ton', address: ACCOUNT.tonTestNonBounceable, reason: testnet('ton'), note: 'test-only, non-bounceable (0Q…)' },
  { network: 'ton', address: ACCOUNT.tonTestBounceable, reason: testnet('ton'), note: 'test-only, bounceable (kQ…)' },
  { network: 'ton', address: withChar(ACCOUNT.tonBounceable, 10, 'S'), reason: checksum('ton'), note: 'one character changed' },
  {
    network: 'ton',
    address: withChar(ACCOUNT.tonPublished, -2, 'r'),
    reason: checksum('ton'),
    note: 'published address, one character changed',
  },
  { network: 'ton', address: ACCOUNT.tonBounceable.slice(0, -1), reason: notAddress('ton'), note: 'truncated' },
  {
    network: 'ton',
    address: 'EQD7+/v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-0EU',
    reason: notAddress('ton'),
    note: 'base64 and base64url mixed',
  },
  { network: 'ton', address: ACCOUNT.tonWorkchain1, reason: 'TON workchain 1 is not accepted (only 0 and -1)', note: 'workchain 1' },
  { network: 'ton', address: `1:${'11'.repeat(32)}`, reason: 'TON workchain 1 is not accepted (only 0 and -1)', note: 'raw, workchain 1' },
  { network: 'ton', address: `0:${'11'.repeat(31)}`, reason: notAddress('ton'), note: 'raw, 31-byte hash' },
  { network: 'ton', address: `00:${'11'.repeat(32)}`, reason: notAddress('ton'), note: 'raw, workchain with a leading zero' },
  {
    network: 'ton',
    address: '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5',
    reason: notAddress('ton'),
    note: 'polkadot: 48 characters but no TON flags',
  },
  { network: 'ton', address: EVM, reason: notAddress('ton'), note: 'EVM' },
  { network: 'ton', address: ACCOUNT.solana, reason: notAddress('ton'), note: 'solana' },
];
