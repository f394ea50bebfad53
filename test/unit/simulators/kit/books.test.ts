import { pickBookSwitches } from '../../../../src/simulators/kit/books';

describe('pickBookSwitches', () => {
  test('a status is a provider word or a provider status code (Onramp.money numbers its statuses)', () => {
    expect(pickBookSwitches({ status: 'refunded' })).toEqual({ status: 'refunded' });
    expect(pickBookSwitches({ status: 'ORDER_FAILED' })).toEqual({ status: 'ORDER_FAILED' });
    expect(pickBookSwitches({ status: '-4' })).toEqual({ status: '-4' });
    expect(pickBookSwitches({ status: '16' })).toEqual({ status: '16' });
    for (const status of ['', '4.5', '--4', '4a', 'a b', '1234567890', -4, null]) expect(pickBookSwitches({ status })).toEqual({});
  });

  test('keeps the well-formed switches only', () => {
    expect(pickBookSwitches({ dropped: true, fiatAmount: '1234.56', other: 1 })).toEqual({ dropped: true, fiatAmount: '1234.56' });
    expect(pickBookSwitches({ dropped: 'yes', fiatAmount: '-1' })).toEqual({});
    expect(pickBookSwitches(undefined)).toEqual({});
  });
});
