/** The client's order of offers: the broker's rank (expected crypto delivered) by default, amount on request or when unranked. */
import { sortOffers } from '../../clients/typescript/src';

const offer = (amount: string, rank?: number) => ({
  rate: '1',
  inverted_rate: '1',
  fee: '1.00',
  amount_from: '100.00',
  amount_expected_to: amount,
  payment_methods: [{ payment_method_code: 'card', fee: '1.00' }],
  expires_at: '2026-11-29T12:00:00.000Z',
  total_fee_amount: '1.00',
  ...(rank === undefined
    ? {}
    : { ranking: { score: amount, rank, completion_rate: 0.9, samples: 10, reasons: [], recommended: rank === 1 } }),
});

// The cheapest (most crypto) completes least often: the broker ranks it last.
const ranked = {
  cheap: offer('0.00105', 3),
  steady: offer('0.00101', 1),
  middle: offer('0.00102', 2),
  gone: { error: { code: 'timeout' as const, message: 'no answer within 900 ms' } },
};

test('by score: the broker rank, whatever the amounts; the left-out providers apart', () => {
  const { offers, leftOut } = sortOffers(ranked);
  expect(offers.map((o) => o.provider_code)).toEqual(['steady', 'middle', 'cheap']);
  expect(leftOut).toEqual([{ provider_code: 'gone', code: 'timeout', message: 'no answer within 900 ms' }]);
});

test('by amount: most crypto first, ties by provider code', () => {
  const { offers } = sortOffers({ ...ranked, alike: offer('0.00105', 4) }, 'amount');
  expect(offers.map((o) => o.provider_code)).toEqual(['alike', 'cheap', 'middle', 'steady']);
});

test('an unranked answer (ranking=off) is ordered by amount', () => {
  const { offers } = sortOffers({ a: offer('0.5'), b: offer('0.7'), c: offer('0.6') });
  expect(offers.map((o) => o.provider_code)).toEqual(['b', 'c', 'a']);
});
