import fc from 'fast-check';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../src/domain/currency';
import { decimal } from '../../../src/domain/money';
import { paysOut, sellAmounts, SellOfferSchema, toSellOffer } from '../../../src/offers/sell-calculate';
import type { SellQuote } from '../../../src/providers/sell-types';

const EUR = currencyDictionary.fiat(2) as FiatCurrency;
const JPY = currencyDictionary.fiat(7) as FiatCurrency;
const BTC = currencyDictionary.crypto(13) as CryptoCurrency;
const EXPIRES = new Date('2026-11-21T12:02:00Z');

/** 0.01 BTC sold for a 600.00 EUR payout, 9.00 + 1.00 EUR fees taken off a gross 610.00. */
const quote: SellQuote = { cryptoAmount: '0.01', fiatAmount: '600.00', processingFee: '9.00', networkFee: '1.00', payoutMethod: 'sepa' };

test('payout, fees in fiat, gross = payout + fees and both rates from the gross', () => {
  const offer = toSellOffer(quote, BTC, EUR, '0.01', EXPIRES);
  expect(offer).toEqual({
    rate: '61000',
    inverted_rate: '0.000016393442623',
    amount_from: '0.01000000',
    amount_expected_to: '600.00',
    fee: '10.00',
    total_fee_amount: '10.00',
    fees: { processing: '9.00', network: '1.00' },
    payout_methods: [{ payout_method_code: 'sepa', fee: '10.00' }],
    expires_at: '2026-11-21T12:02:00.000Z',
  });
  expect(SellOfferSchema.parse(offer)).toEqual(offer);
});

test('what the customer receives is never overstated: the payout rounds down, the fees up', () => {
  const offer = toSellOffer({ ...quote, fiatAmount: '600.009', processingFee: '9.001', networkFee: '0.004' }, BTC, EUR, '0.01', EXPIRES);
  expect(offer.amount_expected_to).toBe('600.00');
  expect(offer.total_fee_amount).toBe('9.01');
  // The kinds add up to the total: the network fee rounded up, the processing fee the rest.
  expect(offer.fees).toEqual({ processing: '9.00', network: '0.01' });
  // The rate is read from what is shown: (600.00 + 9.01) / 0.01.
  expect(offer.rate).toBe('60901');
});

test('a currency without decimals rounds to whole units', () => {
  const offer = toSellOffer({ ...quote, fiatAmount: '95123.9', processingFee: '1000.2', networkFee: '0' }, BTC, JPY, '0.01', EXPIRES);
  expect(offer).toMatchObject({ amount_expected_to: '95123', total_fee_amount: '1001', fees: { processing: '1001', network: '0' } });
});

test('a quote that pays nothing out is no offer', () => {
  expect(paysOut(sellAmounts({ ...quote, fiatAmount: '0.004' }, EUR))).toBe(false);
  expect(paysOut(sellAmounts({ ...quote, fiatAmount: '-1' }, EUR))).toBe(false);
  expect(paysOut(sellAmounts(quote, EUR))).toBe(true);
});

test('for any quote: payout = gross − fees, nothing shown above the quote, rates within one unit of rounding', () => {
  const cents = fc.integer({ min: 1, max: 10_000_000_00 });
  const fee = fc.integer({ min: 0, max: 1_000_000_000 });
  fc.assert(
    fc.property(cents, fee, fee, fc.integer({ min: 1, max: 100_000_000_00 }), (payout, processing, network, sats) => {
      // Fees and payout with more decimals than the currency allows (thousandths of a cent).
      const q: SellQuote = {
        cryptoAmount: decimal(sats).shiftedBy(-8).toFixed(),
        fiatAmount: decimal(payout).shiftedBy(-3).toFixed(),
        processingFee: decimal(processing).shiftedBy(-3).toFixed(),
        networkFee: decimal(network).shiftedBy(-3).toFixed(),
        payoutMethod: 'sepa',
      };
      const amounts = sellAmounts(q, EUR);
      if (!paysOut(amounts)) return;
      const offer = toSellOffer(q, BTC, EUR, q.cryptoAmount, EXPIRES, amounts);
      const shown = decimal(offer.amount_expected_to);
      const fees = decimal(offer.total_fee_amount);
      expect(shown.lte(q.fiatAmount)).toBe(true);
      expect(fees.gte(decimal(q.processingFee).plus(q.networkFee))).toBe(true);
      expect(decimal(offer.fees.processing).plus(offer.fees.network).eq(fees)).toBe(true);
      const gross = shown.plus(fees);
      expect(gross.minus(fees).eq(shown)).toBe(true);
      // rate rounded down, inverted_rate up: rate x amount_from never exceeds the gross.
      expect(decimal(offer.rate).times(offer.amount_from).lte(gross)).toBe(true);
      expect(decimal(offer.inverted_rate).times(gross).gte(offer.amount_from)).toBe(true);
    }),
    { numRuns: 300 },
  );
});
