import { firstOffer } from '../../../bench/conversion';
import { seededRandom } from '../../../bench/lib/seeded-random';

describe('bench:conversion customers', () => {
  const offers = {
    cheap: { amount_expected_to: '0.0110', ranking: { rank: 2, score: '0.0066' } },
    reliable: { amount_expected_to: '0.0109', ranking: { rank: 1, score: '0.0098' } },
    down: { error: { code: 'provider_unavailable' } },
  };

  test('a ranked customer takes rank 1, a price customer the most crypto', () => {
    expect(firstOffer(offers, true)).toBe('reliable');
    expect(firstOffer(offers, false)).toBe('cheap');
  });

  test('amounts are compared as decimals, not as text', () => {
    expect(firstOffer({ a: { amount_expected_to: '9.5' }, b: { amount_expected_to: '10.25' } }, false)).toBe('b');
  });

  test('no live offer: no choice', () => {
    expect(firstOffer({ down: { error: { code: 'timeout' } } }, false)).toBeUndefined();
    expect(firstOffer({ cheap: { amount_expected_to: '1' } }, true)).toBeUndefined();
  });
});

describe('seededRandom', () => {
  test('the same seed and label draw the same sequence; another label or seed another', () => {
    const draw = (random: () => number) => Array.from({ length: 5 }, random);
    expect(draw(seededRandom(33, 'revolut'))).toEqual(draw(seededRandom(33, 'revolut')));
    expect(draw(seededRandom(33, 'revolut'))).not.toEqual(draw(seededRandom(33, 'banxa')));
    expect(draw(seededRandom(33, 'revolut'))).not.toEqual(draw(seededRandom(34, 'revolut')));
  });

  test('draws are uniform in [0, 1)', () => {
    const random = seededRandom(1);
    const draws = Array.from({ length: 20_000 }, random);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    const below = (x: number) => draws.filter((d) => d < x).length / draws.length;
    for (const x of [0.1, 0.6, 0.9]) expect(Math.abs(below(x) - x)).toBeLessThan(0.015);
  });
});
