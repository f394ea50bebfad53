/** Sandbox Pay's simulated sell protocol: deposit addresses, sell prices, and its API's own refusals. */
import { createServer } from 'node:http';
import { ADDRESS_NETWORKS, validateWalletAddress } from '../../../../src/addresses/validate';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { DEPOSIT_NETWORKS, simulatedDepositAddress } from '../../../../src/simulators/kit/deposit-address';
import { sellQuote } from '../../../../src/simulators/kit/sell-pricing';
import { SandboxSimulator } from '../../../../src/simulators/sandbox/server';
import { SANDBOX_SELL_PROFILE } from '../../../../src/simulators/sandbox/sell-profile';
import { closeServer, listenOnLoopback } from '../../../helpers/ports';

describe('simulated deposit addresses', () => {
  test('every network a deposit address is made for has the repository’s address rules', () => {
    for (const network of DEPOSIT_NETWORKS) expect(ADDRESS_NETWORKS).toContain(network);
  });

  test.each(DEPOSIT_NETWORKS)('%s: 50 fresh addresses, each valid and in its canonical spelling', (network) => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { address, memo } = simulatedDepositAddress(network)!;
      const validation = validateWalletAddress(network, address, memo === undefined ? {} : { tag: memo });
      expect(validation).toMatchObject({ valid: true, normalized: address });
      expect(memo === undefined).toBe(network !== 'ripple');
      seen.add(`${address}/${memo ?? ''}`);
    }
    expect(seen.size).toBe(50);
  });

  test('every asset the sandbox buys is in the dictionary, on a network it can make deposit addresses for', () => {
    for (const asset of SANDBOX_SELL_PROFILE.assets) {
      const [ticker, network] = asset.split('/');
      expect(currencyDictionary.currencies.some((c) => c.ticker === ticker && c.network === network)).toBe(true);
      expect(DEPOSIT_NETWORKS).toContain(network);
    }
  });

  test('no address for a network it does not know', () => {
    expect(simulatedDepositAddress('dogecoin_testnet')).toBeUndefined();
  });
});

describe('sellQuote', () => {
  const base = { crypto: 'BTC', network: 'bitcoin', fiat: 'EUR', payoutMethod: 'sepa', country: 'DE' };

  test('the payout is the value less the spread, the processing fee and the network fee', () => {
    // 95000 USD * 0.92 = 87400 EUR, less 1 %: 86526; 0.01 BTC = 865.26; SEPA 0.5 % = 4.33 (rounded up); network 0.92.
    expect(sellQuote(SANDBOX_SELL_PROFILE, { ...base, cryptoAmount: '0.01' })).toMatchObject({
      ok: true,
      price: '86526.00',
      processingFee: '4.33',
      networkFee: '0.92',
      fiatAmount: '860.01',
    });
  });

  test('limits: the crypto amount in the asset’s units, the payout in the fiat currency', () => {
    expect(sellQuote(SANDBOX_SELL_PROFILE, { ...base, cryptoAmount: '0.0001' })).toMatchObject({ ok: false, code: 'amount_out_of_range' });
    const card = sellQuote(SANDBOX_SELL_PROFILE, { ...base, payoutMethod: 'card_payout', cryptoAmount: '0.1' });
    expect(card).toMatchObject({ ok: false, code: 'payout_out_of_range', max: '4600.00' });
  });
});

describe('the sell API', () => {
  const simulator = new SandboxSimulator({
    apiKey: 'k',
    webhookSecret: 's',
    webhookUrl: 'http://127.0.0.1:9/none',
    publicUrl: 'http://sim',
  });
  const server = createServer(simulator.app);
  let url = '';
  beforeAll(async () => {
    url = await listenOnLoopback(server);
  });
  afterAll(async () => {
    simulator.stop();
    await closeServer(server);
  });

  const call = (path: string, init: RequestInit & { key?: string } = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${init.key ?? 'k'}`, 'content-type': 'application/json' } });

  test('needs the API key, as the buy API does', async () => {
    expect((await call('/v1/sell/currencies', { key: 'wrong' })).status).toBe(401);
    expect((await call('/v1/sell/orders', { key: 'wrong', method: 'POST', body: '{}' })).status).toBe(401);
  });

  test('refuses an order without its refund address, or with an amount that is not a decimal', async () => {
    const body = {
      partner_order_id: 'p1',
      crypto_currency: 'BTC',
      network: 'bitcoin',
      crypto_amount: '0.01',
      fiat_currency: 'EUR',
      payout_method: 'sepa',
      country: 'DE',
    };
    const missing = await call('/v1/sell/orders', { method: 'POST', body: JSON.stringify(body) });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: 'invalid_request', message: 'missing refund_address' } });
    const bad = await call('/v1/sell/orders', {
      method: 'POST',
      body: JSON.stringify({ ...body, refund_address: 'x', crypto_amount: '1e3' }),
    });
    expect(bad.status).toBe(400);
  });

  test('lists its sell orders beside its buy orders for the test routes', async () => {
    const body = {
      partner_order_id: 'listed-1',
      crypto_currency: 'ETH',
      network: 'ethereum',
      crypto_amount: '0.1',
      fiat_currency: 'USD',
      payout_method: 'ach',
      country: 'US',
      state: 'CA',
      refund_address: '0x52908400098527886E0F7030069857D2E4169EE7',
    };
    const created = await call('/v1/sell/orders', { method: 'POST', body: JSON.stringify(body) });
    expect(created.status).toBe(201);
    const listed = (await (await fetch(`${url}/_simulator/orders?reference=listed-1`)).json()) as { orders: unknown[] };
    expect(listed.orders).toEqual([expect.objectContaining({ reference: 'listed-1', status: 'AWAITING_DEPOSIT' })]);
  });
});
