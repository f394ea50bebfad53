import { createdAtMillis, createdAtSeconds, createdAtText } from '../../../../src/providers/kit/created-at';

const at = (iso: string) => ({ providerOrderCreatedAt: iso });

describe('createdAtText', () => {
  test.each([
    ['2024-05-01T10:20:30Z', '2024-05-01T10:20:30.000Z'],
    ['2024-05-01T10:20:30.123Z', '2024-05-01T10:20:30.123Z'],
    ['2024-05-01T10:20:30.123456Z', '2024-05-01T10:20:30.123Z'],
    ['2024-05-01T12:20:30+02:00', '2024-05-01T10:20:30.000Z'],
    ['2024-05-01T05:20:30-0500', '2024-05-01T10:20:30.000Z'],
    ['2024-05-02T00:20:30+14:00', '2024-05-01T10:20:30.000Z'],
    ['2024-05-01 10:20:30Z', '2024-05-01T10:20:30.000Z'],
    [' 2024-05-01T10:20Z ', '2024-05-01T10:20:00.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(createdAtText(text)).toEqual(at(iso));
  });

  test('a time without a zone is read as UTC only where the provider is read so', () => {
    expect(createdAtText('2024-05-01 10:20:30')).toEqual({});
    expect(createdAtText('2024-05-01 10:20:30', 'utc')).toEqual(at('2024-05-01T10:20:30.000Z'));
  });

  test.each([
    ['not a time'],
    [''],
    ['2024-02-30T10:00:00Z'],
    ['2024-13-01T10:00:00Z'],
    ['2024-05-01T24:00:00Z'],
    ['1969-12-31T23:59:59Z'],
    ['99999-01-01T00:00:00Z'],
    ['1714558830'],
    ['2024-05-01'],
    // Offsets no clock uses: read as such they would date the order days earlier.
    ['2024-05-01T10:20:30+99:99'],
    ['2024-05-01T10:20:30-15:00'],
    ['2024-05-01T10:20:30+14:30'],
    ['2024-05-01T10:20:30+02:60'],
  ])('%j is left out, never thrown', (text) => {
    expect(createdAtText(text, 'utc')).toEqual({});
  });

  test('absent values are left out', () => {
    expect(createdAtText(undefined)).toEqual({});
    expect(createdAtText(null)).toEqual({});
  });
});

describe('Unix times', () => {
  test('milliseconds and seconds, as numbers or digits', () => {
    expect(createdAtMillis(1714558830123)).toEqual(at('2024-05-01T10:20:30.123Z'));
    expect(createdAtMillis('1714558830123')).toEqual(at('2024-05-01T10:20:30.123Z'));
    expect(createdAtSeconds(1714558830)).toEqual(at('2024-05-01T10:20:30.000Z'));
    expect(createdAtSeconds('1714558830')).toEqual(at('2024-05-01T10:20:30.000Z'));
  });

  test.each([[NaN], [Infinity], [-1], [0], ['12ab'], [''], [null], [undefined], [1e20]])('%p is left out', (value) => {
    expect(createdAtMillis(value)).toEqual({});
    expect(createdAtSeconds(value)).toEqual({});
  });
});
