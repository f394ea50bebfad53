import { checksum, MIXED_CASE, notAddress, testnet, withChar, ZERO, type InvalidVector, type ValidVector } from './types';

export const LONG_TAIL = {
  stellar: 'GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ', // Stellar documentation
  stellar2: 'GAHK7EEG2WWHVKDNT4CEQFZGKF2LGDSW2IVM4S5DP42RBW3K6BTODB4A',
  stellarMuxed: 'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ', // SEP-23
  // CIP-19 test vectors
  cardanoBase: 'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x',
  cardanoEnterprise: 'addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8',
  cardanoScript: 'addr1w8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtcyjy7wx',
  cardanoTestnet: 'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae',
  cardanoStake: 'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw',
  cardanoByronIcarus: 'Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAi',
  cardanoByronDaedalus: 'DdzFFzCqrhsw3prhfMFDNFowbzUku3QmrMwarfjUbWXRisodn97R436SHc1rimp4MhPNmbdYb1aTdqtGSJixMVMi5MkArDQJ6Sc1n3Ez',
  // The development key "Alice" (0xd43593c7…a56da27d) under three SS58 prefixes.
  polkadot: '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5',
  substrate: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
  kusama: 'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F',
  // Encoded with bech32 from the BIP-173 key hash 751e76e8…3bd6 and from 32 bytes of 0x07.
  cosmos: 'cosmos1w508d6qejxtdg4y5r3zarvary0c5xw7k6ah60c',
  cosmos32: 'cosmos1qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurs79d55s',
  cosmos25: 'cosmos1qyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpgh7yj8',
  cosmosValoper: 'cosmosvaloper1w508d6qejxtdg4y5r3zarvary0c5xw7klfr0rt',
  osmosis: 'osmo1w508d6qejxtdg4y5r3zarvary0c5xw7kjxy2e2',
  // Base32 of a 32-byte key and its SHA-512/256 checksum: 32 bytes of 0x07; all zero (the zero address).
  algorand: 'A4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DVZ36IB4',
  algorandPublished: 'VCMJKWOY5P5P7SKMZFFOCEROPJCZOTIJMNIYNUCKH7LRO45JMJP6UYBIJA',
  algorandZero: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ',
  // Base58Check of each prefix and 20 bytes of SHA-256("tz1") etc., encoded with bs58check.
  tz1: 'tz1hSucZs6SG666pn6weMb79SKhFFKNNN8wQ',
  tz2: 'tz2TKCoFgSBDmhyrrkfeQxv1ktuXBYz5XAYT',
  tz3: 'tz3bosVA4w3HA9Ps8rtmmYMwNmumiLh2KR8S',
  tz4: 'tz4T5ke56J3aKoFW6dTdLuuQtQF1vN65CUoh',
  kt1: 'KT1AaU2BMAatoEDBiHfNDzQbLaGrkaA3X12i',
  tzAlice: 'tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb', // the sandbox account "alice"
  tzBtc: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn', // tzBTC contract
} as const;

const L = LONG_TAIL;

export const LONG_TAIL_VALID: ValidVector[] = [
  { network: 'stellar', address: L.stellar, note: 'G… account' },
  { network: 'stellar', address: L.stellar2, note: 'G… account' },
  { network: 'stellar', address: L.stellar, tag: 'invoice 1234', resultTag: 'invoice 1234', note: 'text memo' },
  { network: 'stellar', address: L.stellar, tag: '18446744073709551615', resultTag: '18446744073709551615', note: 'id memo' },
  { network: 'stellar', address: L.stellar, tag: 'x'.repeat(28), resultTag: 'x'.repeat(28), note: '28-byte memo' },
  { network: 'cardano', address: L.cardanoBase, note: 'CIP-19 base address' },
  { network: 'cardano', address: L.cardanoEnterprise, note: 'CIP-19 enterprise address' },
  { network: 'cardano', address: L.cardanoScript, note: 'CIP-19 script enterprise address' },
  {
    network: 'cardano',
    address: 'addr1z8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gten0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs9yc0hh',
    note: 'CIP-19 type 1: script payment, key stake',
  },
  {
    network: 'cardano',
    address: 'addr1yx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerkr0vd4msrxnuwnccdxlhdjar77j6lg0wypcc9uar5d2shs2z78ve',
    note: 'CIP-19 type 2: key payment, script stake',
  },
  {
    network: 'cardano',
    address: 'addr1x8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gt7r0vd4msrxnuwnccdxlhdjar77j6lg0wypcc9uar5d2shskhj42g',
    note: 'CIP-19 type 3: script payment, script stake',
  },
  { network: 'cardano', address: 'addr1gx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer5pnz75xxcrzqf96k', note: 'CIP-19 type 4: pointer' },
  {
    network: 'cardano',
    address: 'addr128phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtupnz75xxcrtw79hu',
    note: 'CIP-19 type 5: script pointer',
  },
  { network: 'cardano', address: L.cardanoBase.toUpperCase(), normalized: L.cardanoBase, note: 'all uppercase' },
  { network: 'cardano', address: L.cardanoByronIcarus, note: 'Byron (Icarus)' },
  { network: 'cardano', address: L.cardanoByronDaedalus, note: 'Byron (Daedalus)' },
  { network: 'polkadot', address: L.polkadot, note: 'SS58 prefix 0' },
  { network: 'cosmos', address: L.cosmos, note: '20-byte account' },
  { network: 'cosmos', address: L.cosmos32, note: '32-byte module account' },
  { network: 'cosmos', address: L.cosmos.toUpperCase(), normalized: L.cosmos, note: 'all uppercase' },
  { network: 'cosmos', address: L.cosmos, tag: '104729', resultTag: '104729', note: 'with a memo' },
  { network: 'algorand', address: L.algorand, note: 'generated' },
  { network: 'algorand', address: L.algorandPublished, note: 'published address' },
  { network: 'tezos', address: L.tz1, note: 'tz1 (ed25519)' },
  { network: 'tezos', address: L.tz2, note: 'tz2 (secp256k1)' },
  { network: 'tezos', address: L.tz3, note: 'tz3 (p256)' },
  { network: 'tezos', address: L.tz4, note: 'tz4 (bls12-381)' },
  { network: 'tezos', address: L.kt1, note: 'KT1 contract' },
  { network: 'tezos', address: L.tzAlice, note: 'published tz1' },
  { network: 'tezos', address: L.tzBtc, note: 'published KT1' },
];

export const LONG_TAIL_INVALID: InvalidVector[] = [
  // stellar
  { network: 'stellar', address: withChar(L.stellar, 10, 'A'), reason: checksum('stellar'), note: 'one character changed' },
  { network: 'stellar', address: L.stellar.slice(0, -1), reason: notAddress('stellar'), note: 'truncated' },
  { network: 'stellar', address: L.stellar.toLowerCase(), reason: notAddress('stellar'), note: 'lowercase' },
  {
    network: 'stellar',
    address: L.stellarMuxed,
    reason: 'muxed Stellar addresses (M…) are not accepted; give the G… account and a memo',
    note: 'muxed account',
  },
  { network: 'stellar', address: L.stellar, tag: 'x'.repeat(29), reason: 'the memo is longer than 28 bytes', note: '29-byte memo' },
  {
    network: 'stellar',
    address: L.stellar,
    tag: 'é'.repeat(15),
    reason: 'the memo is longer than 28 bytes',
    note: '15 characters, 30 bytes',
  },
  { network: 'stellar', address: L.stellar, tag: 'a\u0000b', reason: 'the memo contains control characters', note: 'NUL in the memo' },
  { network: 'stellar', address: L.stellar, tag: ' 12', reason: 'the memo has leading or trailing whitespace', note: 'memo with a space' },
  { network: 'stellar', address: L.stellar, tag: '', reason: 'the memo is empty', note: 'empty memo' },
  { network: 'stellar', address: L.cardanoByronIcarus, reason: notAddress('stellar'), note: 'cardano' },
  // cardano
  { network: 'cardano', address: withChar(L.cardanoBase, 30, 'q'), reason: checksum('cardano'), note: 'one character changed' },
  { network: 'cardano', address: L.cardanoEnterprise.slice(0, -1), reason: checksum('cardano'), note: 'truncated' },
  { network: 'cardano', address: L.cardanoTestnet, reason: testnet('cardano'), note: 'CIP-19 testnet base address' },
  {
    network: 'cardano',
    address: L.cardanoStake,
    reason: 'a Cardano stake (reward) address cannot receive payments',
    note: 'CIP-19 reward address',
  },
  {
    network: 'cardano',
    address: `addr1${L.cardanoBase.slice(5, 20).toUpperCase()}${L.cardanoBase.slice(20)}`,
    reason: MIXED_CASE,
    note: 'mixed case',
  },
  {
    network: 'cardano',
    address: withChar(L.cardanoByronIcarus, 20, 'z'),
    reason: notAddress('cardano'),
    note: 'Byron, one character changed',
  },
  { network: 'cardano', address: '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH', reason: notAddress('cardano'), note: 'bitcoin' },
  { network: 'cardano', address: L.cosmos, reason: notAddress('cardano'), note: 'cosmos' },
  // polkadot
  { network: 'polkadot', address: withChar(L.polkadot, 10, 'z'), reason: checksum('polkadot'), note: 'one character changed' },
  { network: 'polkadot', address: L.polkadot.slice(0, -1), reason: checksum('polkadot'), note: 'truncated by one character' },
  { network: 'polkadot', address: L.polkadot.slice(0, -3), reason: notAddress('polkadot'), note: 'truncated by three characters' },
  {
    network: 'polkadot',
    address: L.substrate,
    reason: 'not a polkadot address: SS58 network prefix 42 (Polkadot uses 0)',
    note: 'generic Substrate (5…)',
  },
  { network: 'polkadot', address: L.kusama, reason: 'not a polkadot address: SS58 network prefix 2 (Polkadot uses 0)', note: 'Kusama' },
  {
    network: 'polkadot',
    address: 'X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqZ',
    reason: notAddress('polkadot'),
    note: 'XRP X-address',
  },
  { network: 'polkadot', address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', reason: notAddress('polkadot'), note: 'solana' },
  // cosmos
  { network: 'cosmos', address: withChar(L.cosmos, 12, 'q'), reason: checksum('cosmos'), note: 'one character changed' },
  { network: 'cosmos', address: L.cosmos.slice(0, -1), reason: checksum('cosmos'), note: 'truncated' },
  {
    network: 'cosmos',
    address: `cosmos1${L.cosmos.slice(7, 12).toUpperCase()}${L.cosmos.slice(12)}`,
    reason: MIXED_CASE,
    note: 'mixed case',
  },
  { network: 'cosmos', address: L.cosmos25, reason: notAddress('cosmos'), note: '25-byte data' },
  { network: 'cosmos', address: L.cosmosValoper, reason: notAddress('cosmos'), note: 'validator operator address' },
  { network: 'cosmos', address: L.osmosis, reason: notAddress('cosmos'), note: 'osmosis' },
  {
    network: 'cosmos',
    address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    reason: notAddress('cosmos'),
    note: 'bitcoin, same key hash',
  },
  {
    network: 'cosmos',
    address: L.cosmos,
    tag: 'm'.repeat(257),
    reason: 'the memo is longer than 256 characters',
    note: '257-character memo',
  },
  // algorand
  { network: 'algorand', address: withChar(L.algorand, 10, 'Z'), reason: checksum('algorand'), note: 'one character changed' },
  { network: 'algorand', address: L.algorand.slice(0, -1), reason: notAddress('algorand'), note: 'truncated' },
  { network: 'algorand', address: L.algorand.toLowerCase(), reason: notAddress('algorand'), note: 'lowercase' },
  { network: 'algorand', address: L.algorandZero, reason: ZERO, note: 'the zero address' },
  { network: 'algorand', address: L.stellar, reason: notAddress('algorand'), note: 'stellar (base32 too)' },
  // tezos
  { network: 'tezos', address: withChar(L.tz1, 10, 'z'), reason: checksum('tezos'), note: 'one character changed' },
  { network: 'tezos', address: L.tzBtc.slice(0, -3), reason: notAddress('tezos'), note: 'truncated' },
  {
    network: 'tezos',
    address: '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH',
    reason: notAddress('tezos'),
    note: 'bitcoin (valid Base58Check, another prefix)',
  },
  { network: 'tezos', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', reason: notAddress('tezos'), note: 'tron' },
  {
    network: 'tezos',
    address: 'edpkuBknW28nW72KG6RoHtYW7p12T6GKc7nAbwYX5m8Wd9sDVC9yav',
    reason: notAddress('tezos'),
    note: 'a public key, not an address',
  },
];
