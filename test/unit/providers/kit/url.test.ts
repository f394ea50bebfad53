import { trimSlash } from '../../../../src/providers/kit/url';

describe('trimSlash', () => {
  test.each([
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com//', 'https://api.example.com'],
    ['http://127.0.0.1:4000/banxa/', 'http://127.0.0.1:4000/banxa'],
    ['https://api.example.com/v1.6', 'https://api.example.com/v1.6'],
    ['', ''],
  ])('%s → %s', (url, expected) => {
    expect(trimSlash(url)).toBe(expected);
  });
});
