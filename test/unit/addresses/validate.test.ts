import { address as bitcoinAddress } from 'bitcoinjs-lib';
import express from 'express';
import request from 'supertest';
import { decodeCashAddr } from '../../../src/addresses/cashaddr';
import {
  ADDRESS_NETWORKS,
  MEMO_NETWORKS,
  validateForProvider,
  validateWalletAddress,
  type AddressValidation,
  type ProviderAddressRule,
} from '../../../src/addresses/validate';
import { errorHandler } from '../../../src/api/problem';
import { validateAddressRoutes } from '../../../src/api/routes/validate-address';
import { currencyDictionary } from '../../../src/domain/currencies';
import { CurrencyDictionary, type Currency } from '../../../src/domain/currency';
import { ProviderRegistry } from '../../../src/providers/registry';
import type { ProviderAdapter } from '../../../src/providers/types';
import { ACCOUNT, ACCOUNT_INVALID, ACCOUNT_VALID, EIP55, EVM_NETWORKS } from './address-vectors/accounts';
import { deriveUtxoVectors } from './address-vectors/derive-utxo';
import { LONG_TAIL, LONG_TAIL_INVALID, LONG_TAIL_VALID } from './address-vectors/long-tail';
import { checksum, notAddress, testnet, withChar, type InvalidVector, type ValidVector } from './address-vectors/types';
import { CASHADDR, UTXO, UTXO_INVALID, UTXO_VALID } from './address-vectors/utxo';

const VALID: ValidVector[] = [...UTXO_VALID, ...ACCOUNT_VALID, ...LONG_TAIL_VALID];
const INVALID: InvalidVector[] = [...UTXO_INVALID, ...ACCOUNT_INVALID, ...LONG_TAIL_INVALID];

const expected = (v: ValidVector): AddressValidation => ({
  valid: true,
  normalized: v.normalized ?? v.address,
  ...(v.resultTag !== undefined ? { tag: v.resultTag } : {}),
});

const options = (tag: string | undefined) => (tag === undefined ? {} : { tag });

/** One address per network, none of them valid on any other network. */
const SAMPLE: Record<string, string> = {
  ethereum: EIP55.mixed[0],
  bitcoin: UTXO.btcP2wpkh,
  litecoin: UTXO.ltcP2pkh,
  dogecoin: UTXO.dogeP2pkh,
  bitcoin_cash: CASHADDR[0][1],
  tron: ACCOUNT.tron,
  solana: ACCOUNT.solana,
  ripple: ACCOUNT.xrp,
  ton: ACCOUNT.tonBounceable,
  stellar: LONG_TAIL.stellar,
  cardano: LONG_TAIL.cardanoBase,
  polkadot: LONG_TAIL.polkadot,
  cosmos: LONG_TAIL.cosmos,
  dash: UTXO.dashP2pkh,
  zcash: UTXO.zecP2pkh,
  algorand: LONG_TAIL.algorand,
  tezos: LONG_TAIL.tz1,
};
const familyOf = (network: string) => ((EVM_NETWORKS as readonly string[]).includes(network) ? 'ethereum' : network);

describe('validateWalletAddress', () => {
  test('the vectors cover every network with address rules', () => {
    expect(new Set(VALID.map((v) => v.network))).toEqual(new Set(ADDRESS_NETWORKS));
    expect(new Set(INVALID.map((v) => v.network))).toEqual(new Set(ADDRESS_NETWORKS));
    expect(Object.keys(SAMPLE).sort()).toEqual([...new Set(ADDRESS_NETWORKS.map(familyOf))].sort());
  });

  test.each(VALID.map((v) => [v.network, v.address, v.note, v]))('%s accepts %s (%s)', (network, address, _note, vector) => {
    expect(validateWalletAddress(network, address, options(vector.tag))).toEqual(expected(vector));
  });

  test.each(INVALID.map((v) => [v.network, v.address, v.note, v]))('%s refuses %p (%s)', (network, address, _note, vector) => {
    expect(validateWalletAddress(network, address, options(vector.tag))).toEqual({ valid: false, reason: vector.reason });
  });

  const cross = ADDRESS_NETWORKS.flatMap((network) =>
    Object.entries(SAMPLE)
      .filter(([family]) => family !== familyOf(network))
      .map(([family, address]) => [network, family, address]),
  );
  test.each(cross)('%s refuses the %s address %s', (network, _family, address) => {
    expect(validateWalletAddress(network, address)).toEqual({ valid: false, reason: notAddress(network) });
  });

  describe('formats that two networks share', () => {
    test('a bitcoin P2SH address is also a litecoin legacy P2SH address (same version byte 0x05)', () => {
      expect(validateWalletAddress('litecoin', UTXO.btcP2sh)).toEqual({ valid: true, normalized: UTXO.btcP2sh });
    });

    test('bitcoin legacy addresses are bitcoin cash legacy addresses', () => {
      expect(validateWalletAddress('bitcoin_cash', UTXO.btcP2pkh)).toEqual({ valid: true, normalized: UTXO.btcP2pkh });
      expect(validateWalletAddress('bitcoin', CASHADDR[0][0])).toEqual({ valid: true, normalized: CASHADDR[0][0] });
    });

    test('an EVM address is valid on every EVM network', () => {
      for (const network of EVM_NETWORKS) {
        expect(validateWalletAddress(network, EIP55.mixed[1])).toEqual({ valid: true, normalized: EIP55.mixed[1] });
      }
    });

    test('solana addresses carry no checksum: a changed character that keeps 32 bytes is still an address', () => {
      const changed = withChar(ACCOUNT.solana, 10, 'z');
      expect(validateWalletAddress('solana', changed)).toEqual({ valid: true, normalized: changed });
    });
  });

  test.each(ADDRESS_NETWORKS)('%s refuses empty input and whitespace', (network) => {
    const sample = SAMPLE[familyOf(network)] ?? '';
    expect(validateWalletAddress(network, '')).toEqual({ valid: false, reason: 'the address is empty' });
    for (const address of [` ${sample}`, `${sample} `, `${sample}\n`, `\t${sample}`, `${sample.slice(0, 8)} ${sample.slice(8)}`, ' ']) {
      expect(validateWalletAddress(network, address)).toEqual({ valid: false, reason: 'the address contains whitespace' });
    }
  });

  test.each([
    'dogecoin_testnet',
    'Ethereum',
    'ETH',
    'eth',
    '',
    'bitcoin ',
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'valueOf',
  ])('unknown network %p is refused', (network) => {
    expect(validateWalletAddress(network, EIP55.mixed[0])).toEqual({ valid: false, reason: `no address rules for network ${network}` });
  });

  test('every crypto network in the currency dictionary has address rules', () => {
    const networks = new Set(currencyDictionary.currencies.flatMap((c) => (c.network ? [c.network] : [])));
    expect(networks.size).toBeGreaterThan(0);
    for (const network of networks) {
      expect(validateWalletAddress(network, '')).toEqual({ valid: false, reason: 'the address is empty' });
    }
  });

  test('the bitcoin-family vectors are what bitcoinjs-lib derives from the fixed keys', () => {
    expect(deriveUtxoVectors()).toEqual(UTXO);
  });

  test.each(CASHADDR)('the CashAddr of %s holds the same hash as the legacy address', (legacy, cash) => {
    const decoded = decodeCashAddr(cash);
    const base58 = bitcoinAddress.fromBase58Check(legacy);
    expect(decoded).toEqual({ prefix: 'bitcoincash', type: base58.version === 0x00 ? 0 : 1, hash: expect.any(Uint8Array) });
    expect(Buffer.from((decoded as { hash: Uint8Array }).hash).toString('hex')).toBe(Buffer.from(base58.hash).toString('hex'));
  });
});

describe('destination tags and memos', () => {
  test('MEMO_NETWORKS names networks that have address rules', () => {
    expect([...MEMO_NETWORKS.keys()].sort()).toEqual(['cosmos', 'ripple', 'stellar', 'ton']);
    for (const network of MEMO_NETWORKS.keys()) expect(ADDRESS_NETWORKS).toContain(network);
  });

  test.each(ADDRESS_NETWORKS.filter((n) => !MEMO_NETWORKS.has(n)))('%s refuses a tag', (network) => {
    const sample = SAMPLE[familyOf(network)] ?? '';
    expect(validateWalletAddress(network, sample, { tag: '123' })).toEqual({
      valid: false,
      reason: `${network} transfers carry no destination tag or memo`,
    });
  });

  const TAG_RULE = 'the destination tag must be an integer from 0 to 4294967295';
  test.each(['4294967296', '-1', '+1', '1.5', '1e3', 'abc', '0x10', '99999999999', '٣'])('the XRP destination tag %p is refused', (tag) => {
    expect(validateWalletAddress('ripple', ACCOUNT.xrp, { tag })).toEqual({ valid: false, reason: TAG_RULE });
  });

  test('an XRP tag with spaces or an empty one is refused', () => {
    expect(validateWalletAddress('ripple', ACCOUNT.xrp, { tag: ' 1' })).toEqual({
      valid: false,
      reason: 'the destination tag has leading or trailing whitespace',
    });
    expect(validateWalletAddress('ripple', ACCOUNT.xrp, { tag: '' })).toEqual({ valid: false, reason: 'the destination tag is empty' });
  });

  test('a TON comment may hold 123 bytes', () => {
    const tag = 'c'.repeat(123);
    expect(validateWalletAddress('ton', ACCOUNT.tonNonBounceable, { tag })).toEqual({
      valid: true,
      normalized: ACCOUNT.tonNonBounceable,
      tag,
    });
    expect(validateWalletAddress('ton', ACCOUNT.tonNonBounceable, { tag: `${tag}c` })).toEqual({
      valid: false,
      reason: 'the comment is longer than 123 bytes',
    });
  });

  test('an invalid address is reported before its tag', () => {
    expect(validateWalletAddress('ripple', ACCOUNT.xrpXTest, { tag: 'abc' })).toEqual({ valid: false, reason: testnet('ripple') });
  });
});

describe('validateForProvider', () => {
  const noTaproot: ProviderAddressRule = (network, address) =>
    network === 'bitcoin' && /^bc1p/i.test(address) ? { valid: false, reason: 'this provider cannot pay taproot addresses' } : undefined;

  test('without a provider rule it is the network verdict', () => {
    expect(validateForProvider('bitcoin', UTXO.btcP2tr)).toEqual({ valid: true, normalized: UTXO.btcP2tr });
    expect(validateForProvider('ripple', ACCOUNT.xrpXTag12345, { tag: '12345' })).toEqual({
      valid: true,
      normalized: ACCOUNT.xrpClassic,
      tag: '12345',
    });
  });

  test('the provider rule may refuse an address the network accepts', () => {
    expect(validateForProvider('bitcoin', UTXO.btcP2tr, {}, noTaproot)).toEqual({
      valid: false,
      reason: 'this provider cannot pay taproot addresses',
    });
    expect(validateForProvider('bitcoin', UTXO.btcP2wpkh, {}, noTaproot)).toEqual({ valid: true, normalized: UTXO.btcP2wpkh });
  });

  test('a refusal without a reason gets the generic one', () => {
    expect(validateForProvider('tron', ACCOUNT.tron, {}, () => ({ valid: false }))).toEqual({
      valid: false,
      reason: 'the provider does not accept this address',
    });
  });

  test('the provider rule cannot accept an address the network refuses, and is not asked', () => {
    const rule = jest.fn<AddressValidation, [string, string]>(() => ({ valid: true }));
    expect(validateForProvider('bitcoin', UTXO.btcTestP2wpkh, {}, rule)).toEqual({ valid: false, reason: testnet('bitcoin') });
    expect(rule).not.toHaveBeenCalled();
  });

  test('an approving rule keeps the network verdict, and sees the address as given', () => {
    const rule = jest.fn<AddressValidation, [string, string]>(() => ({ valid: true, normalized: 'ignored' }));
    expect(validateForProvider('ripple', ACCOUNT.xrpXMaxTag, {}, rule)).toEqual({
      valid: true,
      normalized: ACCOUNT.xrpClassic,
      tag: '4294967295',
    });
    expect(rule).toHaveBeenCalledWith('ripple', ACCOUNT.xrpXMaxTag);
  });
});

describe('POST /api/on_ramp/validate-address', () => {
  const crypto = (id: number, ticker: string, network: string): Currency => ({
    id,
    ticker,
    network,
    currency_type: 'crypto',
    precision: 8,
    name: ticker,
    icon_url: `https://example.com/${ticker.toLowerCase()}.svg`,
  });
  const currencies = new CurrencyDictionary([
    { id: 1, ticker: 'USD', currency_type: 'fiat', precision: 2, name: 'US Dollar', icon_url: 'https://example.com/usd.svg' },
    crypto(13, 'BTC', 'bitcoin'),
    crypto(14, 'ETH', 'ethereum'),
    crypto(30, 'XRP', 'ripple'),
    crypto(31, 'XLM', 'stellar'),
  ]);
  const adapter = (code: string, validateAddress?: ProviderAddressRule) =>
    ({
      info: { code, name: code, description: code, icon_url: 'https://example.com/p.svg' },
      validateAddress,
    }) as unknown as ProviderAdapter;
  const providers = new ProviderRegistry([
    adapter('sandbox'),
    adapter('picky', (network, address) =>
      address.startsWith('3') ? { valid: false, reason: 'picky pays no P2SH addresses' } : undefined,
    ),
  ]);
  const app = express();
  const api = express.Router();
  validateAddressRoutes(api, currencies, providers);
  app.use('/api', api);
  app.use(errorHandler);

  const post = (body: unknown) =>
    request(app)
      .post('/api/on_ramp/validate-address')
      .send(body as object);
  const problem = (code: string, status: number, title: string, detail: string, errors?: { path: string; message: string }[]) => ({
    type: `urn:onramp-broker:problem:${code}`,
    title,
    status,
    detail,
    code,
    ...(errors ? { errors } : {}),
  });

  test('a valid address is {result: true}', async () => {
    const res = await post({ provider_code: 'sandbox', currency: 13, wallet_address: UTXO.btcP2wpkh });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true });
  });

  test('an invalid address is 200 with {result: false} and the reason', async () => {
    const res = await post({ provider_code: 'sandbox', currency: 13, wallet_address: withChar(UTXO.btcP2wpkh, 20, 'q') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: false, reason: checksum('bitcoin') });
  });

  test.each([
    [13, UTXO.btcTestP2wpkh, testnet('bitcoin')],
    [13, EIP55.mixed[0], notAddress('bitcoin')],
    [14, UTXO.btcP2pkh, notAddress('ethereum')],
    [14, withChar(EIP55.mixed[0], 3, 'A'), 'the mixed-case address fails its EIP-55 checksum'],
    [30, ACCOUNT.xrpXTest, testnet('ripple')],
  ])('currency %p refuses %s', async (currency, wallet_address, reason) => {
    const res = await post({ provider_code: 'sandbox', currency, wallet_address });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: false, reason });
  });

  test('the address is trimmed, as in order creation', async () => {
    const res = await post({ provider_code: 'sandbox', currency: 13, wallet_address: `  ${UTXO.btcP2pkh}\n` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true });
  });

  test('memo: the destination tag or memo of networks that have one', async () => {
    const xrp = { provider_code: 'sandbox', currency: 30 };
    expect((await post({ ...xrp, wallet_address: ACCOUNT.xrp, memo: '12345' })).body).toEqual({ result: true });
    expect((await post({ ...xrp, wallet_address: ACCOUNT.xrp, memo: 'abc' })).body).toEqual({
      result: false,
      reason: 'the destination tag must be an integer from 0 to 4294967295',
    });
    expect((await post({ ...xrp, wallet_address: ACCOUNT.xrpXTag12345, memo: '54321' })).body).toEqual({
      result: false,
      reason: 'tag conflicts with the X-address',
    });
    expect((await post({ provider_code: 'sandbox', currency: 31, wallet_address: LONG_TAIL.stellar, memo: 'x'.repeat(29) })).body).toEqual({
      result: false,
      reason: 'the memo is longer than 28 bytes',
    });
    expect((await post({ provider_code: 'sandbox', currency: 13, wallet_address: UTXO.btcP2pkh, memo: '1' })).body).toEqual({
      result: false,
      reason: 'bitcoin transfers carry no destination tag or memo',
    });
  });

  test("the provider's own rule applies", async () => {
    expect((await post({ provider_code: 'picky', currency: 13, wallet_address: UTXO.btcP2sh })).body).toEqual({
      result: false,
      reason: 'picky pays no P2SH addresses',
    });
    expect((await post({ provider_code: 'sandbox', currency: 13, wallet_address: UTXO.btcP2sh })).body).toEqual({ result: true });
    expect((await post({ provider_code: 'picky', currency: 13, wallet_address: UTXO.btcP2pkh })).body).toEqual({ result: true });
  });

  test('a ticker where the currency ID belongs is ticker_not_allowed', async () => {
    const res = await post({ provider_code: 'sandbox', currency: 'BTC', wallet_address: UTXO.btcP2pkh });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toEqual(
      problem(
        'ticker_not_allowed',
        400,
        'Currency tickers are not accepted',
        'currency must be a currency ID from GET /api/dict/currencies, not a ticker ("BTC").',
        [{ path: 'currency', message: 'tickers are not accepted; use the integer currency ID' }],
      ),
    );
  });

  test('an unknown currency ID is unknown_currency', async () => {
    const res = await post({ provider_code: 'sandbox', currency: 999, wallet_address: UTXO.btcP2pkh });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      problem('unknown_currency', 400, 'Unknown currency', 'currency 999 is not in the currency dictionary.', [
        { path: 'currency', message: 'unknown currency ID' },
      ]),
    );
  });

  test('a fiat currency is unsupported_pair', async () => {
    const res = await post({ provider_code: 'sandbox', currency: 1, wallet_address: UTXO.btcP2pkh });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      problem('unsupported_pair', 422, 'Unsupported currency pair', 'currency must be a crypto currency; USD is fiat.', [
        { path: 'currency', message: 'expected a crypto currency' },
      ]),
    );
  });

  test('a missing currency is validation_error', async () => {
    const res = await post({ provider_code: 'sandbox', wallet_address: UTXO.btcP2pkh });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      problem('validation_error', 400, 'Invalid request', 'currency must be an integer currency ID.', [
        { path: 'currency', message: 'required' },
      ]),
    );
  });

  test('a currency ID sent as a string is validation_error: the body takes a JSON number', async () => {
    const res = await post({ provider_code: 'sandbox', currency: '13', wallet_address: UTXO.btcP2pkh });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      problem('validation_error', 400, 'Invalid request', 'currency must be an integer currency ID, sent as a JSON number.', [
        { path: 'currency', message: 'expected a JSON number, not a string' },
      ]),
    );
  });

  test('an unknown provider_code is validation_error on provider_code', async () => {
    const res = await post({ provider_code: 'nobody', currency: 13, wallet_address: UTXO.btcP2pkh });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      problem('validation_error', 400, 'Invalid request', 'Provider nobody is not available.', [
        { path: 'provider_code', message: 'unknown or disabled provider' },
      ]),
    );
  });

  test('invalid fields are validation_error with their paths', async () => {
    const res = await post({ provider_code: 'Sandbox!', currency: 13, wallet_address: '', memo: 5, extra: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      problem('validation_error', 400, 'Invalid request', 'The request has 4 invalid field(s).', [
        { path: 'provider_code', message: 'Invalid string: must match pattern /^[a-z0-9_]{2,32}$/' },
        { path: 'wallet_address', message: 'Too small: expected string to have >=1 characters' },
        { path: 'memo', message: 'Invalid input: expected string, received number' },
        { path: '(root)', message: 'Unrecognized key: "extra"' },
      ]),
    );
  });

  test('a ticker, an unknown provider and a malformed field are all listed, the ticker leading', async () => {
    const res = await post({ provider_code: 'nobody', currency: 'BTC', wallet_address: '' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ticker_not_allowed');
    expect(res.body.detail).toMatch(/2 other field\(s\) are invalid too/);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['currency', 'provider_code', 'wallet_address']);
  });

  test('a wallet_address longer than 256 characters is validation_error', async () => {
    const res = await post({ provider_code: 'sandbox', currency: 13, wallet_address: 'a'.repeat(257) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      problem('validation_error', 400, 'Invalid request', 'The request has 1 invalid field(s).', [
        { path: 'wallet_address', message: 'Too big: expected string to have <=256 characters' },
      ]),
    );
  });

  test('a body that is not JSON is refused', async () => {
    const text = await request(app).post('/api/on_ramp/validate-address').set('Content-Type', 'text/plain').send('hello');
    expect(text.status).toBe(415);
    expect(text.body).toEqual(problem('unsupported_media_type', 415, 'Unsupported media type', 'Send the request as application/json.'));
    const broken = await request(app)
      .post('/api/on_ramp/validate-address')
      .set('Content-Type', 'application/json')
      .send('{"provider_code":');
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual(problem('validation_error', 400, 'Invalid request', 'The request body is not valid JSON.'));
  });

  test.each(['get', 'put', 'patch', 'delete'] as const)('%s is 405 with Allow: POST', async (method) => {
    const res = await request(app)[method]('/api/on_ramp/validate-address');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.body).toEqual(
      problem('method_not_allowed', 405, 'Method not allowed', `${method.toUpperCase()} is not allowed here; use POST.`),
    );
  });
});
