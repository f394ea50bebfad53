import fc from 'fast-check';
import { validateWalletAddress } from '../../../src/addresses/validate';
import { EVM_NETWORKS } from '../../../src/addresses/evm';
import {
  checkSellTerms,
  depositVerdict,
  mergeSellDifferences,
  sameAddressOnNetwork,
  type OrderedSellTerms,
  type ReportedDeposit,
  type ReportedSellTerms,
  type SellDifference,
} from '../../../src/domain/sell-integrity';

// Addresses, each valid on its network (checked below).
const ETH_CHECKSUM = '0x52908400098527886E0F7030069857D2E4169EE7';
const ETH_OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const BTC_BECH32 = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const BTC_BECH32_OTHER = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const BTC_BASE58 = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const LTC_BECH32 = 'ltc1qq6hag67dl53wl99vzg42z8eyzfz2xlkvz9zn23';
const COSMOS = 'cosmos1w508d6qejxtdg4y5r3zarvary0c5xw7k6ah60c';
const CARDANO = 'addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8';
const BCH = 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a';
const SOL = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
/**
 * Two Solana accounts (32 bytes each, base58, no checksum) written in one case each, the one the
 * other's letters upper-cased. Base58 is case-sensitive: they are different accounts. Both also
 * look like bech32 (a `1` followed by bech32 characters), which a format-blind case rule folds.
 */
const SOL_LOWER = '82dfqwwwfww2n6d28df61y648n2yud64ua64q46san2';
const SOL_UPPER = '82DFQWWWFWW2N6D28DF61Y648N2YUD64UA64Q46SAN2';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const XRP = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const TON = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';
const STELLAR = 'GAHK7EEG2WWHVKDNT4CEQFZGKF2LGDSW2IVM4S5DP42RBW3K6BTODB4A';

const EUR = 2;
const USD = 1;
const BTC = 13;
const ETH = 14;

describe('the fixtures', () => {
  test.each([
    ['ethereum', ETH_CHECKSUM],
    ['ethereum', ETH_OTHER],
    ['bitcoin', BTC_BECH32],
    ['bitcoin', BTC_BECH32_OTHER],
    ['bitcoin', BTC_BASE58],
    ['litecoin', LTC_BECH32],
    ['cosmos', COSMOS],
    ['cardano', CARDANO],
    ['bitcoin_cash', BCH],
    ['solana', SOL],
    ['solana', SOL_LOWER],
    ['solana', SOL_UPPER],
    ['tron', TRON],
    ['ripple', XRP],
    ['ton', TON],
    ['stellar', STELLAR],
  ])('%s %s is a valid address', (network, address) => {
    expect(validateWalletAddress(network, address).valid).toBe(true);
  });
});

describe('sameAddressOnNetwork', () => {
  test.each(EVM_NETWORKS.map((network) => [network]))('%s: EVM hex in any case is one account', (network) => {
    expect(sameAddressOnNetwork(network, ETH_CHECKSUM, ETH_CHECKSUM.toLowerCase())).toBe(true);
    expect(sameAddressOnNetwork(network, ETH_CHECKSUM.toLowerCase(), `0x${ETH_CHECKSUM.slice(2).toUpperCase()}`)).toBe(true);
    expect(sameAddressOnNetwork(network, ETH_CHECKSUM, ETH_OTHER)).toBe(false);
  });

  test.each([
    ['bitcoin', BTC_BECH32],
    ['litecoin', LTC_BECH32],
    ['cosmos', COSMOS],
    ['cardano', CARDANO],
    ['bitcoin_cash', BCH],
  ])('%s: a single-case bech32 or CashAddr address in the other case is the same', (network, address) => {
    expect(sameAddressOnNetwork(network, address, address.toUpperCase())).toBe(true);
    expect(sameAddressOnNetwork(network, address.toUpperCase(), address)).toBe(true);
  });

  test.each([
    ['bitcoin', BTC_BECH32],
    ['litecoin', LTC_BECH32],
    ['cosmos', COSMOS],
    ['cardano', CARDANO],
  ])('%s: mixed case is no bech32 spelling (BIP 173)', (network, address) => {
    const mixed = address.slice(0, 6).toUpperCase() + address.slice(6);
    expect(sameAddressOnNetwork(network, address, mixed)).toBe(false);
  });

  test.each([
    ['solana', SOL_LOWER, SOL_UPPER],
    ['solana', SOL, SOL.toLowerCase()],
    ['bitcoin', BTC_BASE58, BTC_BASE58.toLowerCase()],
    ['tron', TRON, TRON.toLowerCase()],
    ['tron', TRON, TRON.toUpperCase()],
    ['ripple', XRP, XRP.toLowerCase()],
    ['ton', TON, TON.toLowerCase()],
    ['stellar', STELLAR, STELLAR.toLowerCase()],
    // An EVM spelling on a network whose addresses are not hex: no case rule applies.
    ['tron', ETH_CHECKSUM, ETH_CHECKSUM.toLowerCase()],
    // A bech32-looking text on a network that is not bech32.
    ['solana', BTC_BECH32, BTC_BECH32.toUpperCase()],
    // Another network's bech32 prefix.
    ['bitcoin', COSMOS, COSMOS.toUpperCase()],
    ['unknown_network', ETH_CHECKSUM, ETH_CHECKSUM.toLowerCase()],
  ])('%s: %s and %s differ in case only, and case is part of the address', (network, a, b) => {
    expect(sameAddressOnNetwork(network, a, b)).toBe(false);
    expect(sameAddressOnNetwork(network, b, a)).toBe(false);
  });

  test('property: on a network whose addresses are case-sensitive, only the identical text is the same', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('solana', 'tron', 'ripple', 'ton', 'stellar', 'polkadot', 'tezos'),
        fc.string(),
        fc.string(),
        (network, a, b) => {
          expect(sameAddressOnNetwork(network, a, b)).toBe(a === b);
        },
      ),
    );
  });

  test('property: on every network, two texts the same only when they are equal ignoring ASCII case', () => {
    const network = fc.constantFrom(...EVM_NETWORKS, 'bitcoin', 'litecoin', 'cosmos', 'cardano', 'bitcoin_cash', 'solana', 'tron');
    fc.assert(
      fc.property(network, fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (n, a, b) => {
        if (sameAddressOnNetwork(n, a, b)) expect(a.toLowerCase()).toBe(b.toLowerCase());
      }),
    );
  });
});

describe('depositVerdict', () => {
  const pinned = { address: ETH_CHECKSUM, network: 'ethereum' };
  const report = (deposit: Partial<ReportedDeposit>): ReportedDeposit => ({ address: ETH_CHECKSUM, network: 'ethereum', ...deposit });

  describe('none', () => {
    test('a report without a deposit says nothing, whether or not the order has one', () => {
      expect(depositVerdict(undefined, undefined, 'ethereum')).toEqual({ kind: 'none' });
      expect(depositVerdict(pinned, undefined, 'ethereum')).toEqual({ kind: 'none' });
    });
  });

  describe('new', () => {
    test('the first deposit on the order network is new (to be validated, then pinned)', () => {
      expect(depositVerdict(undefined, report({}), 'ethereum')).toEqual({ kind: 'new' });
      expect(depositVerdict(undefined, { address: XRP, memo: '12345', network: 'ripple' }, 'ripple')).toEqual({ kind: 'new' });
    });

    test.each(['base', 'Ethereum', 'ETHEREUM', 'eth', 'erc20', ' ethereum', 'ethereum ', 'ethereum\u200b', '', 'еthereum'])(
      'a first deposit on network %p, not the order one, is refused',
      (network) => {
        const verdict = depositVerdict(undefined, report({ network }), 'ethereum');
        expect(verdict).toMatchObject({ kind: 'refused', fields: ['network'] });
      },
    );
  });

  describe('same', () => {
    test('the pinned deposit again', () => {
      expect(depositVerdict(pinned, report({}), 'ethereum')).toEqual({ kind: 'same' });
    });

    test('another amount or expiry does not make another deposit', () => {
      expect(depositVerdict(pinned, report({ amount: '0.5', expiresAt: '2026-12-01T00:00:00Z' }), 'ethereum')).toEqual({ kind: 'same' });
    });

    test.each([
      ['lower case', ETH_CHECKSUM.toLowerCase()],
      ['upper-case hex', `0x${ETH_CHECKSUM.slice(2).toUpperCase()}`],
    ])('EVM: the checksum casing against %s', (_name, address) => {
      expect(depositVerdict(pinned, report({ address }), 'ethereum')).toEqual({ kind: 'same' });
      expect(depositVerdict({ ...pinned, address }, report({}), 'ethereum')).toEqual({ kind: 'same' });
    });

    test.each([
      ['bitcoin', BTC_BECH32],
      ['litecoin', LTC_BECH32],
      ['cosmos', COSMOS],
      ['cardano', CARDANO],
    ])('%s: bech32 in upper case', (network, address) => {
      expect(depositVerdict({ address, network }, { address: address.toUpperCase(), network }, network)).toEqual({ kind: 'same' });
    });

    test('XRP: the same address and destination tag', () => {
      const xrp = { address: XRP, memo: '12345', network: 'ripple' };
      expect(depositVerdict(xrp, { ...xrp, amount: '10' }, 'ripple')).toEqual({ kind: 'same' });
    });

    test('no memo and an empty memo are one: an empty memo is none (the address rules refuse an empty one, so none is pinned)', () => {
      expect(depositVerdict(pinned, report({ memo: '' }), 'ethereum')).toEqual({ kind: 'same' });
      expect(depositVerdict({ ...pinned, memo: '' }, report({}), 'ethereum')).toEqual({ kind: 'same' });
    });
  });

  describe('refused', () => {
    test('another address', () => {
      expect(depositVerdict(pinned, report({ address: ETH_OTHER }), 'ethereum')).toEqual({
        kind: 'refused',
        fields: ['address'],
        reason: "the deposit's address differs from the one the order shows",
      });
    });

    test.each([
      ['bitcoin', BTC_BECH32, BTC_BECH32_OTHER],
      ['bitcoin', BTC_BECH32, BTC_BASE58],
      ['bitcoin', BTC_BASE58, BTC_BASE58.toLowerCase()],
      ['bitcoin', BTC_BECH32, `BC1Q${BTC_BECH32.slice(4)}`],
      ['solana', SOL, SOL.toLowerCase()],
      ['solana', SOL, SOL.toUpperCase()],
      ['solana', SOL_LOWER, SOL_UPPER],
      ['solana', SOL_UPPER, SOL_LOWER],
      ['tron', TRON, TRON.toLowerCase()],
      ['tron', TRON, `t${TRON.slice(1)}`],
      ['ripple', XRP, XRP.toLowerCase()],
      ['ton', TON, TON.toLowerCase()],
      ['ton', TON, TON.replace('-', '+').replace('_', '/')],
      ['stellar', STELLAR, STELLAR.toLowerCase()],
    ])('%s: %s, then %s', (network, first, second) => {
      expect(depositVerdict({ address: first, network }, { address: second, network }, network)).toMatchObject({
        kind: 'refused',
        fields: ['address'],
      });
    });

    // Texts that a person reading the order would take for the pinned address, or that a trim or a
    // normalisation would make it: each is another text, so another address, and raises the alert.
    test.each([
      ['a leading space', ` ${SOL}`],
      ['a trailing newline', `${SOL}\n`],
      ['a no-break space', `${SOL}\u00a0`],
      ['a byte order mark', `\ufeff${SOL}`],
      ['a zero-width space', `${SOL.slice(0, 10)}\u200b${SOL.slice(10)}`],
      ['a zero-width joiner', `${SOL}\u200d`],
      ['a word joiner', `\u2060${SOL}`],
      ['a right-to-left mark', `${SOL}\u200f`],
      ['a Cyrillic lookalike (е for E)', SOL.replace('E', 'Е')],
      ['a Greek lookalike (Α for A)', SOL.replace('A', 'Α')],
      ['a fullwidth digit', SOL.replace('7', '７')],
      ['a combining mark', `${SOL}\u0301`],
      ['the empty string', ''],
      ['a prefix', SOL.slice(0, -1)],
      ['one more character', `${SOL}1`],
    ])('solana: the pinned address with %s', (_name, address) => {
      expect(depositVerdict({ address: SOL, network: 'solana' }, { address, network: 'solana' }, 'solana')).toMatchObject({
        kind: 'refused',
        fields: ['address'],
      });
    });

    test.each([
      ['surrounding spaces', ` ${ETH_CHECKSUM} `],
      ['a non-ASCII letter that lower-cases to ASCII (the Kelvin sign)', ETH_CHECKSUM.toLowerCase().replace('e', '\u212a')],
      ['a dotless i', ETH_CHECKSUM.replace('E', 'ı')],
      ['0X for 0x', `0X${ETH_CHECKSUM.slice(2)}`],
      ['a zero-width space', `${ETH_CHECKSUM}\u200b`],
    ])('EVM: the pinned address with %s', (_name, address) => {
      expect(depositVerdict(pinned, report({ address }), 'ethereum')).toMatchObject({ kind: 'refused', fields: ['address'] });
    });

    test.each([
      ['an address of another EVM network, as the order crypto network', 'base'],
      ['a network alias', 'eth'],
      ['another spelling of the network', 'Ethereum'],
    ])('%s', (_name, network) => {
      expect(depositVerdict(pinned, report({ network }), 'ethereum')).toMatchObject({ kind: 'refused', fields: ['network'] });
    });

    test('a pinned deposit on another network than the order one is never confirmed', () => {
      expect(depositVerdict({ ...pinned, network: 'base' }, report({}), 'ethereum')).toMatchObject({
        kind: 'refused',
        fields: ['network'],
      });
    });

    describe('memo', () => {
      const xrp = { address: XRP, memo: '12345', network: 'ripple' };
      test.each([
        ['another destination tag', '12346'],
        ['a leading zero', '012345'],
        ['a leading space', ' 12345'],
        ['a trailing space', '12345 '],
        ['a zero-width space', '12345\u200b'],
        ['fullwidth digits', '１２３４５'],
        ['an empty memo', ''],
        ['no memo at all', undefined],
      ])('XRP: %s for the pinned destination tag', (_name, memo) => {
        expect(depositVerdict(xrp, { address: XRP, network: 'ripple', ...(memo === undefined ? {} : { memo }) }, 'ripple')).toMatchObject({
          kind: 'refused',
          fields: ['memo'],
        });
      });

      test('a memo added where the pinned deposit has none', () => {
        expect(depositVerdict({ address: XRP, network: 'ripple' }, { ...xrp }, 'ripple')).toMatchObject({
          kind: 'refused',
          fields: ['memo'],
        });
        expect(depositVerdict(pinned, report({ memo: 'x' }), 'ethereum')).toMatchObject({ kind: 'refused', fields: ['memo'] });
      });

      test('a Stellar memo is compared as written: case and Unicode normalisation are part of it', () => {
        const stellar = { address: STELLAR, memo: 'Café', network: 'stellar' };
        expect(depositVerdict(stellar, { ...stellar, memo: 'café' }, 'stellar')).toMatchObject({ kind: 'refused', fields: ['memo'] });
        expect(depositVerdict(stellar, { ...stellar, memo: 'Cafe\u0301' }, 'stellar')).toMatchObject({ kind: 'refused', fields: ['memo'] });
      });

      test('address and memo both changed: both named', () => {
        expect(depositVerdict(xrp, { address: 'rrrrrrrrrrrrrrrrrrrrBZbvji', memo: '1', network: 'ripple' }, 'ripple')).toEqual({
          kind: 'refused',
          fields: ['address', 'memo'],
          reason: "the deposit's address, memo differs from the one the order shows",
        });
      });
    });
  });

  test('property: a report whose address is not the pinned text (but for EVM case) is refused, whatever else it says', () => {
    const pinnedDeposit = fc.constantFrom(
      { address: SOL, network: 'solana' },
      { address: TRON, network: 'tron' },
      { address: XRP, network: 'ripple', memo: '7' },
      { address: ETH_CHECKSUM, network: 'ethereum' },
      { address: BTC_BECH32, network: 'bitcoin' },
    );
    fc.assert(
      fc.property(
        pinnedDeposit,
        fc.string({ unit: 'binary', maxLength: 3 }),
        fc.nat(),
        fc.option(fc.string(), { nil: undefined }),
        (p, inserted, at, amount) => {
          fc.pre(inserted.length > 0);
          const position = at % (p.address.length + 1);
          const address = p.address.slice(0, position) + inserted + p.address.slice(position);
          const verdict = depositVerdict(
            p,
            { address, memo: p.memo, network: p.network, ...(amount === undefined ? {} : { amount }) },
            p.network,
          );
          expect(verdict).toMatchObject({ kind: 'refused', fields: ['address'] });
        },
      ),
    );
  });

  test('property: a report on another network than the order one is refused, pinned or not', () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), (network, isPinned) => {
        fc.pre(network !== 'ethereum');
        const verdict = depositVerdict(isPinned ? pinned : undefined, report({ network }), 'ethereum');
        expect(verdict).toMatchObject({ kind: 'refused', fields: ['network'] });
      }),
    );
  });

  test('property: an EVM address in any casing of its hex digits is the pinned one', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), fc.constantFrom(...EVM_NETWORKS), (upper, network) => {
        const hex = [...ETH_CHECKSUM.slice(2)].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join('');
        expect(depositVerdict({ address: ETH_CHECKSUM, network }, { address: `0x${hex}`, network }, network)).toEqual({ kind: 'same' });
      }),
    );
  });
});

describe('checkSellTerms', () => {
  const ordered: OrderedSellTerms = {
    network: 'bitcoin',
    cryptoCurrency: BTC,
    cryptoAmount: '0.01000000',
    fiatCurrency: EUR,
    fiatAmount: '100.00',
    refundWalletAddress: BTC_BECH32,
  };
  const none = { refused: [], differences: [] };

  test('a report that carries no terms checks nothing', () => {
    expect(checkSellTerms(ordered, undefined)).toEqual(none);
    expect(checkSellTerms(ordered, {})).toEqual(none);
  });

  test('every term as ordered passes', () => {
    const reported: ReportedSellTerms = {
      cryptoCurrency: BTC,
      cryptoAmount: '0.01',
      fiatCurrency: EUR,
      fiatAmount: '100',
      refundWalletAddress: BTC_BECH32.toUpperCase(),
    };
    expect(checkSellTerms(ordered, reported)).toEqual(none);
  });

  describe('from_currency (the crypto sold)', () => {
    test('the ordered one passes', () => {
      expect(checkSellTerms(ordered, { cryptoCurrency: BTC })).toEqual(none);
    });

    test('another one refuses the report', () => {
      expect(checkSellTerms(ordered, { cryptoCurrency: ETH })).toEqual({
        refused: [{ field: 'from_currency', ordered: '13', reported: '14' }],
        differences: [],
      });
    });

    test('one the dictionary does not know (null) refuses the report as unknown', () => {
      expect(checkSellTerms(ordered, { cryptoCurrency: null })).toEqual({
        refused: [{ field: 'from_currency', ordered: '13', reported: 'unknown' }],
        differences: [],
      });
    });
  });

  describe('to_currency (the payout fiat)', () => {
    test('the ordered one passes', () => {
      expect(checkSellTerms(ordered, { fiatCurrency: EUR })).toEqual(none);
    });

    test('another one is a difference shown, not a refusal', () => {
      expect(checkSellTerms(ordered, { fiatCurrency: USD })).toEqual({
        refused: [],
        differences: [{ field: 'to_currency', ordered: '2', reported: '1' }],
      });
    });

    test('one the dictionary does not know refuses the report: the payout cannot be stated', () => {
      expect(checkSellTerms(ordered, { fiatCurrency: null })).toEqual({
        refused: [{ field: 'to_currency', ordered: '2', reported: 'unknown' }],
        differences: [],
      });
    });
  });

  describe('amounts, at the ordered precision (rounded half up)', () => {
    test.each([
      ['100.00', '100'],
      ['100.00', '100.0'],
      ['100.00', '100.00'],
      ['100.00', '100.000000'],
      ['100.00', '100.004'],
      ['100.00', '99.995'],
      ['100.00', ' 100.00 '],
      ['1000', '1000.4'],
      ['0.50', '0.5'],
    ])('to_amount: ordered %s, reported %s agrees', (orderedAmount, reported) => {
      expect(checkSellTerms({ ...ordered, fiatAmount: orderedAmount }, { fiatAmount: reported })).toEqual(none);
    });

    test.each([
      ['100.00', '100.005'],
      ['100.00', '99.994'],
      ['100.00', '100.01'],
      ['100.00', '10.00'],
      ['100.00', '1000.00'],
      ['100.00', '-100.00'],
      ['100.00', 'abc'],
      ['100.00', ''],
      ['100.00', 'NaN'],
      ['100.00', 'Infinity'],
      ['1000', '1000.5'],
    ])('to_amount: ordered %s, reported %s is a difference', (orderedAmount, reported) => {
      expect(checkSellTerms({ ...ordered, fiatAmount: orderedAmount }, { fiatAmount: reported })).toEqual({
        refused: [],
        differences: [{ field: 'to_amount', ordered: orderedAmount, reported }],
      });
    });

    test.each([
      ['0.01000000', '0.01'],
      ['0.01000000', '0.010000004'],
      ['0.01000000', '0.0099999950'],
      ['0.01000000', '0.01000000'],
      ['1.000000000000000000', '1'],
    ])('from_amount: ordered %s, reported %s agrees at the crypto precision', (orderedAmount, reported) => {
      expect(checkSellTerms({ ...ordered, cryptoAmount: orderedAmount }, { cryptoAmount: reported })).toEqual(none);
    });

    test.each([
      ['0.01000000', '0.010000005'],
      ['0.01000000', '0.01000001'],
      ['0.01000000', '0.009999994'],
      ['0.01000000', '0.1'],
      ['0.01000000', '0'],
      ['1.000000000000000000', '1.000000000000000001'],
    ])('from_amount: ordered %s, reported %s is a difference', (orderedAmount, reported) => {
      expect(checkSellTerms({ ...ordered, cryptoAmount: orderedAmount }, { cryptoAmount: reported })).toEqual({
        refused: [],
        differences: [{ field: 'from_amount', ordered: orderedAmount, reported }],
      });
    });
  });

  describe('refund_wallet_address', () => {
    test.each([
      ['bitcoin', BTC_BECH32, BTC_BECH32],
      ['bitcoin', BTC_BECH32, BTC_BECH32.toUpperCase()],
      ['bitcoin', BTC_BECH32, ` ${BTC_BECH32}\n`],
      ['bitcoin', BTC_BASE58, BTC_BASE58],
      ['ethereum', ETH_CHECKSUM, ETH_CHECKSUM.toLowerCase()],
      ['polygon', ETH_CHECKSUM.toLowerCase(), ETH_CHECKSUM],
      ['solana', SOL, SOL],
    ])('%s: ordered %s, reported %s is the same wallet', (network, refund, reported) => {
      expect(checkSellTerms({ ...ordered, network, refundWalletAddress: refund }, { refundWalletAddress: reported })).toEqual(none);
    });

    test.each([
      ['bitcoin', BTC_BECH32, BTC_BECH32_OTHER],
      ['bitcoin', BTC_BECH32, `BC1Q${BTC_BECH32.slice(4)}`],
      ['bitcoin', BTC_BASE58, BTC_BASE58.toLowerCase()],
      ['bitcoin', BTC_BECH32, ''],
      ['ethereum', ETH_CHECKSUM, ETH_OTHER],
      ['solana', SOL, SOL.toLowerCase()],
      ['solana', SOL_LOWER, SOL_UPPER],
      ['tron', TRON, TRON.toLowerCase()],
      ['ripple', XRP, XRP.toLowerCase()],
      ['ton', TON, TON.toLowerCase()],
      ['solana', SOL, `${SOL}\u200b`],
    ])('%s: ordered %s, reported %s refuses the report', (network, refund, reported) => {
      expect(checkSellTerms({ ...ordered, network, refundWalletAddress: refund }, { refundWalletAddress: reported })).toEqual({
        refused: [{ field: 'refund_wallet_address', ordered: refund, reported }],
        differences: [],
      });
    });
  });

  test('every term wrong at once lists each, refusals and differences apart', () => {
    const verdict = checkSellTerms(ordered, {
      cryptoCurrency: ETH,
      cryptoAmount: '1',
      fiatCurrency: USD,
      fiatAmount: '1',
      refundWalletAddress: BTC_BASE58,
    });
    expect(verdict.refused.map((d) => d.field)).toEqual(['from_currency', 'refund_wallet_address']);
    expect(verdict.differences.map((d) => d.field)).toEqual(['to_currency', 'from_amount', 'to_amount']);
  });

  // Each field absent, matching or not (and a currency unknown): 3 x 3 x 4 x 3 x 3 combinations, judged field by field.
  const variants = {
    cryptoCurrency: [undefined, BTC, ETH, null],
    cryptoAmount: [undefined, '0.01', '0.02'],
    fiatCurrency: [undefined, EUR, USD, null],
    fiatAmount: [undefined, '100.00', '99.00'],
    refundWalletAddress: [undefined, BTC_BECH32, BTC_BASE58],
  } as const;
  const combinations: ReportedSellTerms[] = [];
  for (const cryptoCurrency of variants.cryptoCurrency)
    for (const cryptoAmount of variants.cryptoAmount)
      for (const fiatCurrency of variants.fiatCurrency)
        for (const fiatAmount of variants.fiatAmount)
          for (const refundWalletAddress of variants.refundWalletAddress)
            combinations.push({ cryptoCurrency, cryptoAmount, fiatCurrency, fiatAmount, refundWalletAddress });

  test(`all ${combinations.length} combinations are judged field by field`, () => {
    for (const reported of combinations) {
      const verdict = checkSellTerms(ordered, reported);
      const refused = verdict.refused.map((d) => d.field);
      const differences = verdict.differences.map((d) => d.field);
      expect(refused.includes('from_currency')).toBe(reported.cryptoCurrency === ETH || reported.cryptoCurrency === null);
      expect(refused.includes('refund_wallet_address')).toBe(reported.refundWalletAddress === BTC_BASE58);
      expect(refused.includes('to_currency')).toBe(reported.fiatCurrency === null);
      expect(differences.includes('to_currency')).toBe(reported.fiatCurrency === USD);
      expect(differences.includes('from_amount')).toBe(reported.cryptoAmount === '0.02');
      expect(differences.includes('to_amount')).toBe(reported.fiatAmount === '99.00');
      expect(new Set(refused).size).toBe(refused.length);
      expect(new Set(differences).size).toBe(differences.length);
    }
  });
});

describe('mergeSellDifferences', () => {
  const ordered: OrderedSellTerms = {
    network: 'bitcoin',
    cryptoCurrency: BTC,
    cryptoAmount: '0.01000000',
    fiatCurrency: EUR,
    fiatAmount: '100.00',
    refundWalletAddress: BTC_BECH32,
  };
  const crypto: SellDifference = { field: 'from_amount', ordered: '0.01000000', reported: '0.009' };
  const payout: SellDifference = { field: 'to_amount', ordered: '100.00', reported: '90.00' };
  const currency: SellDifference = { field: 'to_currency', ordered: '2', reported: '1' };
  const merge = (previous: readonly SellDifference[], reported: ReportedSellTerms | undefined) =>
    mergeSellDifferences(previous, checkSellTerms(ordered, reported), reported);

  test('nothing before, nothing reported: nothing', () => {
    expect(merge([], undefined)).toEqual([]);
    expect(merge([], {})).toEqual([]);
  });

  test('a new difference is added', () => {
    expect(merge([], { fiatAmount: '90.00' })).toEqual([payout]);
  });

  test('the latest reported value replaces the earlier one', () => {
    expect(merge([payout], { fiatAmount: '80.00' })).toEqual([{ ...payout, reported: '80.00' }]);
    expect(merge([crypto], { cryptoAmount: '0.008' })).toEqual([{ ...crypto, reported: '0.008' }]);
    expect(merge([currency], { fiatCurrency: 3 })).toEqual([{ ...currency, reported: '3' }]);
  });

  test.each([
    ['from_amount', { cryptoAmount: '0.01' }],
    ['to_amount', { fiatAmount: '100' }],
    ['to_currency', { fiatCurrency: EUR }],
  ] as const)('a corrected report clears %s, and only it', (field, reported) => {
    expect(merge([crypto, payout, currency], reported)).toEqual([crypto, payout, currency].filter((d) => d.field !== field));
  });

  test('a report silent on a field keeps its earlier difference', () => {
    expect(merge([crypto, payout, currency], {})).toEqual([crypto, payout, currency]);
    expect(merge([crypto, payout, currency], undefined)).toEqual([crypto, payout, currency]);
    expect(merge([payout], { refundWalletAddress: BTC_BECH32, cryptoCurrency: BTC })).toEqual([payout]);
  });

  test('sorted by field (from_amount, to_amount, to_currency) whatever the order in', () => {
    expect(merge([currency, payout], { cryptoAmount: '0.009' })).toEqual([crypto, payout, currency]);
    expect(mergeSellDifferences([currency, crypto, payout], { refused: [], differences: [] }, undefined)).toEqual([
      crypto,
      payout,
      currency,
    ]);
  });

  test('property: one entry per field, sorted; a reported field carries the report, an unreported one what was before', () => {
    const previousOf = fc
      .subarray([crypto, payout, currency])
      .chain((entries) => fc.shuffledSubarray(entries, { minLength: entries.length }));
    const reportedOf = fc.record(
      {
        cryptoAmount: fc.constantFrom('0.01', '0.009', '0.02'),
        fiatAmount: fc.constantFrom('100', '90.00', '1'),
        fiatCurrency: fc.constantFrom(EUR, USD, 3),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(previousOf, reportedOf, (previous, reported: ReportedSellTerms) => {
        const verdict = checkSellTerms(ordered, reported);
        const merged = mergeSellDifferences(previous, verdict, reported);
        const fields = merged.map((d) => d.field);
        expect(fields).toEqual([...new Set(fields)].sort());
        const reportedFields = new Set([
          ...(reported.cryptoAmount === undefined ? [] : ['from_amount']),
          ...(reported.fiatAmount === undefined ? [] : ['to_amount']),
          ...(reported.fiatCurrency === undefined ? [] : ['to_currency']),
        ]);
        for (const d of merged) {
          if (reportedFields.has(d.field)) expect(verdict.differences).toContainEqual(d);
          else expect(previous).toContainEqual(d);
        }
        for (const d of verdict.differences) expect(merged).toContainEqual(d);
        for (const d of previous) if (!reportedFields.has(d.field)) expect(merged).toContainEqual(d);
      }),
    );
  });
});
