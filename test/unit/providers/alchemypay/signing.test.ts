/**
 * Alchemy Pay's signing against its documentation's published strings to sign ("Ramp Signature
 * Description", on ramp example) and a publicly posted Alchemy Pay sample whose test credentials
 * and parameters are fixed. The documentation's `sign` values were made with a secret it does not
 * publish, so only the strings can be checked against it.
 */
import { createHmac } from 'node:crypto';
import { signedRampUrl } from '../../../../src/providers/alchemypay/ramp-url';
import {
  alchemypaySign,
  canonicalBody,
  rampSignString,
  sortedParams,
  webhookSignString,
} from '../../../../src/providers/alchemypay/signing';

const DOC_PARAMS = {
  appId: 'f83Is2y7L425rxl8',
  crypto: 'USDT',
  network: 'ETH',
  showTable: 'buy',
  fiat: 'USD',
  fiatAmount: '30',
  timestamp: '1538054050234',
};

test('the ramp URL signs the documented string: timestamp, GET, /index/rampPageBuy, sorted parameters', () => {
  expect(rampSignString(DOC_PARAMS)).toBe(
    '1538054050234GET/index/rampPageBuy?appId=f83Is2y7L425rxl8&crypto=USDT&fiat=USD&fiatAmount=30&network=ETH&showTable=buy&timestamp=1538054050234',
  );
});

test('empty parameters are left out of the string to sign', () => {
  expect(sortedParams({ b: '2', a: '', c: undefined, d: '4' })).toBe('b=2&d=4');
});

test('the sign is the base64 HMAC-SHA256 of the string, keyed with the app secret', () => {
  const content = rampSignString(DOC_PARAMS);
  expect(alchemypaySign('secret', content)).toBe(createHmac('sha256', 'secret').update(content).digest('base64'));
});

test('the signed URL carries the parameters URL-encoded and the sign last', () => {
  const params = { ...DOC_PARAMS, redirectUrl: 'https://example.com/done?x=1' };
  const url = new URL(signedRampUrl('https://ramptest.alchemypay.org', 'secret', params));
  expect(url.searchParams.get('redirectUrl')).toBe('https://example.com/done?x=1');
  expect([...url.searchParams.keys()].at(-1)).toBe('sign');
  expect(url.searchParams.get('sign')).toBe(alchemypaySign('secret', rampSignString(params)));
});

test('a webhook signs timestamp, POST, the callback path and its sorted body without the signature fields or empty values', () => {
  const body = { status: 'FINISHED', address: 'T1', crypto: 'USDT', signature: 'f13f', newSignature: 'x', txHash: '' };
  expect(canonicalBody(body)).toBe('{"address":"T1","crypto":"USDT","status":"FINISHED"}');
  expect(webhookSignString('1700549311596', '/onRamp/callback', body)).toBe(
    '1700549311596POST/onRamp/callback{"address":"T1","crypto":"USDT","status":"FINISHED"}',
  );
});
