import { PairCache } from '../../../src/metrics/label-cache';

test('one value per pair of keys, made on first use and the same object after', () => {
  let made = 0;
  const cache = new PairCache((provider, reason) => (made++, { provider, reason }));
  const first = cache.get('moonpay', 'ok');
  expect(first).toEqual({ provider: 'moonpay', reason: 'ok' });
  expect(cache.get('moonpay', 'ok')).toBe(first);
  expect(cache.get('moonpay', 'timeout')).toEqual({ provider: 'moonpay', reason: 'timeout' });
  expect(cache.get('banxa', 'ok')).not.toBe(first);
  expect(made).toBe(3);
});
