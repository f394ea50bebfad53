import {
  checkReportedTerms,
  mergeDifferences,
  sameFiatAmount,
  sameWalletAddress,
  type OrderedTerms,
  type ReportedTerms,
} from '../../../src/domain/integrity';

const ETH_CHECKSUM = '0x52908400098527886E0F7030069857D2E4169EE7';
const BTC_BECH32 = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const BTC_BASE58 = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const SOL = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const XRP = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const TON = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';

const USD = 1;
const EUR = 2;
const BTC = 13;
const ETH = 14;

const ordered: OrderedTerms = { walletAddress: BTC_BECH32, cryptoCurrency: BTC, fiatCurrency: USD, fiatAmount: '100.00' };

describe('sameWalletAddress', () => {
  test.each([
    ['the same text', BTC_BECH32, BTC_BECH32],
    ['surrounding spaces', BTC_BECH32, ` ${BTC_BECH32} `],
    ['EVM checksum casing against lower case', ETH_CHECKSUM, ETH_CHECKSUM.toLowerCase()],
    ['EVM upper-case hex', ETH_CHECKSUM, `0x${ETH_CHECKSUM.slice(2).toUpperCase()}`],
    ['bech32 in upper case', BTC_BECH32, BTC_BECH32.toUpperCase()],
  ])('agrees: %s', (_name, a, b) => {
    expect(sameWalletAddress(a, b)).toBe(true);
    expect(sameWalletAddress(b, a)).toBe(true);
  });

  test.each([
    ['another EVM address', ETH_CHECKSUM, '0x52908400098527886E0F7030069857D2E4169EE8'],
    ['base58 differing only in case', BTC_BASE58, BTC_BASE58.toLowerCase()],
    ['Solana differing only in case', SOL, SOL.toUpperCase()],
    ['XRP differing only in case', XRP, XRP.toLowerCase()],
    ['TON differing only in case', TON, TON.toLowerCase()],
    ['mixed-case bech32 (invalid per BIP 173)', BTC_BECH32, `BC1Q${BTC_BECH32.slice(4)}`],
    ['another bech32 address', BTC_BECH32, 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh'],
    ['a prefix of the address', BTC_BECH32, BTC_BECH32.slice(0, -1)],
    ['the empty string', BTC_BECH32, ''],
    ['an EVM address against its base58-looking neighbour', ETH_CHECKSUM, BTC_BASE58],
  ])('differs: %s', (_name, a, b) => {
    expect(sameWalletAddress(a, b)).toBe(false);
    expect(sameWalletAddress(b, a)).toBe(false);
  });
});

describe('sameFiatAmount', () => {
  test.each([
    ['100.00', '100'],
    ['100.00', '100.0'],
    ['100.00', '100.000000'],
    ['100.00', '100.004'],
    ['100.00', '99.995'],
    ['100.00', ' 100.00 '],
    ['1000', '1000.4'],
    ['0.50', '0.5'],
  ])('%s agrees with %s at the order precision', (a, b) => {
    expect(sameFiatAmount(a, b)).toBe(true);
  });

  test.each([
    ['100.00', '100.005'],
    ['100.00', '99.994'],
    ['100.00', '10.00'],
    ['100.00', '1000.00'],
    ['100.00', '-100.00'],
    ['100.00', 'abc'],
    ['100.00', ''],
    ['100.00', 'NaN'],
    ['100.00', 'Infinity'],
    ['1000', '1000.5'],
  ])('%s differs from %s', (a, b) => {
    expect(sameFiatAmount(a, b)).toBe(false);
  });
});

describe('checkReportedTerms', () => {
  test('a report that carries no terms checks nothing', () => {
    expect(checkReportedTerms(ordered, undefined)).toEqual({ refused: [], differences: [] });
    expect(checkReportedTerms(ordered, {})).toEqual({ refused: [], differences: [] });
  });

  test('every term as ordered passes', () => {
    const reported: ReportedTerms = { walletAddress: BTC_BECH32.toUpperCase(), cryptoCurrency: BTC, fiatCurrency: USD, fiatAmount: '100' };
    expect(checkReportedTerms(ordered, reported)).toEqual({ refused: [], differences: [] });
  });

  test('another wallet refuses the report', () => {
    expect(checkReportedTerms(ordered, { walletAddress: BTC_BASE58 })).toEqual({
      refused: [{ field: 'wallet_address', ordered: BTC_BECH32, reported: BTC_BASE58 }],
      differences: [],
    });
  });

  test('another crypto currency, or one the dictionary does not know, refuses the report', () => {
    expect(checkReportedTerms(ordered, { cryptoCurrency: ETH }).refused).toEqual([{ field: 'to_currency', ordered: '13', reported: '14' }]);
    expect(checkReportedTerms(ordered, { cryptoCurrency: null }).refused).toEqual([
      { field: 'to_currency', ordered: '13', reported: 'unknown' },
    ]);
  });

  test('another fiat currency is a difference, not a refusal', () => {
    expect(checkReportedTerms(ordered, { fiatCurrency: EUR })).toEqual({
      refused: [],
      differences: [{ field: 'from_currency', ordered: '1', reported: '2' }],
    });
  });

  test('a fiat currency the dictionary does not know refuses the report: the payment cannot be stated', () => {
    expect(checkReportedTerms(ordered, { fiatCurrency: null, fiatAmount: '10' })).toEqual({
      refused: [{ field: 'from_currency', ordered: '1', reported: 'unknown' }],
      differences: [{ field: 'from_amount', ordered: '100.00', reported: '10' }],
    });
  });

  test('another fiat amount is a difference', () => {
    expect(checkReportedTerms(ordered, { fiatAmount: '10.00' })).toEqual({
      refused: [],
      differences: [{ field: 'from_amount', ordered: '100.00', reported: '10.00' }],
    });
  });

  test('every term wrong at once lists each', () => {
    const verdict = checkReportedTerms(ordered, { walletAddress: SOL, cryptoCurrency: ETH, fiatCurrency: EUR, fiatAmount: '1' });
    expect(verdict.refused.map((d) => d.field)).toEqual(['wallet_address', 'to_currency']);
    expect(verdict.differences.map((d) => d.field)).toEqual(['from_currency', 'from_amount']);
  });

  // Each field absent, matching or not (and a currency unknown): 3 x 3 x 4 x 3 combinations, judged field by field.
  const variants = {
    walletAddress: [undefined, BTC_BECH32, BTC_BASE58],
    cryptoCurrency: [undefined, BTC, ETH],
    fiatCurrency: [undefined, USD, EUR, null],
    fiatAmount: [undefined, '100.00', '99.00'],
  } as const;
  const combinations: ReportedTerms[] = [];
  for (const walletAddress of variants.walletAddress)
    for (const cryptoCurrency of variants.cryptoCurrency)
      for (const fiatCurrency of variants.fiatCurrency)
        for (const fiatAmount of variants.fiatAmount) combinations.push({ walletAddress, cryptoCurrency, fiatCurrency, fiatAmount });

  test.each(combinations)('%j is judged field by field', (reported) => {
    const verdict = checkReportedTerms(ordered, reported);
    expect(verdict.refused.some((d) => d.field === 'wallet_address')).toBe(reported.walletAddress === BTC_BASE58);
    expect(verdict.refused.some((d) => d.field === 'to_currency')).toBe(reported.cryptoCurrency === ETH);
    expect(verdict.refused.some((d) => d.field === 'from_currency')).toBe(reported.fiatCurrency === null);
    expect(verdict.differences.some((d) => d.field === 'from_currency')).toBe(reported.fiatCurrency === EUR);
    expect(verdict.differences.some((d) => d.field === 'from_amount')).toBe(reported.fiatAmount === '99.00');
  });
});

describe('mergeDifferences', () => {
  const amount = { field: 'from_amount', ordered: '100.00', reported: '10.00' } as const;
  const currency = { field: 'from_currency', ordered: '1', reported: '2' } as const;

  test('a new difference is added, sorted by field', () => {
    const verdict = checkReportedTerms(ordered, { fiatCurrency: EUR });
    expect(mergeDifferences([amount], verdict, { fiatCurrency: EUR })).toEqual([amount, currency]);
  });

  test('the latest reported value replaces the earlier one', () => {
    const verdict = checkReportedTerms(ordered, { fiatAmount: '20.00' });
    expect(mergeDifferences([amount], verdict, { fiatAmount: '20.00' })).toEqual([{ ...amount, reported: '20.00' }]);
  });

  test('a report of the ordered value clears that field only', () => {
    const verdict = checkReportedTerms(ordered, { fiatAmount: '100.00' });
    expect(mergeDifferences([amount, currency], verdict, { fiatAmount: '100.00' })).toEqual([currency]);
  });

  test('a report silent on a field keeps its earlier difference', () => {
    expect(mergeDifferences([amount], checkReportedTerms(ordered, {}), {})).toEqual([amount]);
    expect(mergeDifferences([amount], checkReportedTerms(ordered, undefined), undefined)).toEqual([amount]);
  });
});
