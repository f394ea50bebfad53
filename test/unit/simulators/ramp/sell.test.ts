/**
 * The simulated Ramp's off-ramp, read over HTTP as Ramp's docs describe it (not through the adapter):
 * the quote keyed by payout method, the OFFRAMP widget making the sale, the sale lookup guarded by its
 * view token, signed `SaleStatusWebhookEvent` bodies to the widget's own URL, retried as the purchase
 * webhooks are, and the deposit address on the widget page only.
 */
import { createServer, type Server } from 'node:http';
import { createPublicKey, verify } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import { RAMP_SIMULATOR_CREDENTIALS } from '../../../../src/providers/ramp/config';
import { createRampSimulator, type RampSimulator } from '../../../../src/simulators/ramp/server';
import { eventually } from '../../../helpers/http';
import { closeServer, listenOnLoopback } from '../../../helpers/ports';

const KEY = RAMP_SIMULATOR_CREDENTIALS.hostApiKey;
let simulator: RampSimulator;
let simServer: Server;
let base: string;
let receiver: Server;
let receiverUrl: string;
/** What reached the receiver; the first attempt of each body is answered 500 to see the retry. */
const received: { url: string; signature: string; body: string; answered: number }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answered = received.some((r) => r.body === body) ? 200 : 500;
      received.push({ url: req.url ?? '', signature: String(req.headers['x-body-signature']), body, answered });
      res.writeHead(answered).end();
    });
  });
  receiverUrl = await listenOnLoopback(receiver);
  simServer = createServer();
  base = await listenOnLoopback(simServer);
  simulator = createRampSimulator({
    publicUrl: base,
    brokerWebhookUrl: `${receiverUrl}/fixed`,
    credentials: RAMP_SIMULATOR_CREDENTIALS,
    stepDelayMs: 20,
  });
  simServer.on('request', simulator.app);
});

afterAll(async () => {
  simulator?.stop();
  await closeServer(simServer);
  await closeServer(receiver);
});

const quote = (body: unknown, key = KEY) =>
  fetch(`${base}/api/host-api/v3/offramp/quote/all?hostApiKey=${key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

function widgetUrl(orderId: string, overrides: Record<string, string> = {}) {
  const url = new URL(`${base}/app`);
  const params = {
    hostApiKey: KEY,
    enabledFlows: 'OFFRAMP',
    defaultFlow: 'OFFRAMP',
    offrampAsset: 'ETH_ETH',
    swapAmount: '200000000000000000',
    fiatCurrency: 'EUR',
    offrampWebhookV3Url: `${receiverUrl}/api/webhooks/ramp?order_id=${orderId}&order_mac=x`,
    ...overrides,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

const bodiesFor = (orderId: string) =>
  received.filter((r) => r.answered === 200 && r.url.includes(`order_id=${orderId}`)).map((r) => JSON.parse(r.body) as Record<string, any>);

describe('the simulated Ramp off-ramp', () => {
  test('quotes per payout method: the crypto echoed in base units, fiatValue the payout net of appliedFee', async () => {
    const res = await quote({ cryptoAssetSymbol: 'ETH_ETH', fiatCurrency: 'EUR', cryptoAmount: '100000000000000000' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expect(Object.keys(body).sort()).toEqual(['CARD', 'SEPA', 'asset']);
    expect(body.asset).toMatchObject({ symbol: 'ETH', chain: 'ETH', decimals: 18 });
    expect(body.SEPA).toMatchObject({ fiatCurrency: 'EUR', cryptoAmount: '100000000000000000' });
    // 0.1 ETH at 3200 USD * 0.92, less 0.9 %: 291.75 gross; fee and payout add up to it.
    expect(body.SEPA.fiatValue + body.SEPA.appliedFee).toBeCloseTo(291.75, 1);
    expect(body.CARD.fiatValue).toBeLessThan(body.SEPA.fiatValue);
  });

  test.each([
    [{ cryptoAssetSymbol: 'ETH_ETH', fiatCurrency: 'EUR', cryptoAmount: '0' }, 'SWAP.VALIDATION.SWAP_VALUE_IS_ZERO'],
    [{ cryptoAssetSymbol: 'BTC_BTC', fiatCurrency: 'EUR', cryptoAmount: '100000' }, 'SERVICES.HOST_API.UNSUPPORTED_ASSET'],
    [{ cryptoAssetSymbol: 'ETH_ETH', fiatCurrency: 'BRL', cryptoAmount: '1' }, 'SERVICES.HOST_API.UNSUPPORTED_CURRENCY'],
    [{ cryptoAssetSymbol: 'ETH_ETH', fiatCurrency: 'EUR', cryptoAmount: '1000' }, 'SERVICES.HOST_API.AMOUNT_OUT_OF_LIMITS'],
    [{ cryptoAssetSymbol: 'ETH_ETH', fiatCurrency: 'EUR', cryptoAmount: '0.1' }, 'SERVICES.HOST_API.INVALID_REQUEST'],
  ])('refuses %j with %s', async (body, code) => {
    const res = await quote(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code });
  });

  test('a quote needs the host key; the off-ramp lists are public', async () => {
    expect((await quote({ cryptoAssetSymbol: 'ETH_ETH', fiatCurrency: 'EUR', cryptoAmount: '1' }, 'wrong')).status).toBe(401);
    const assets = (await (await fetch(`${base}/api/host-api/v3/offramp/assets?currencyCode=USD`)).json()) as Record<string, any>;
    expect(assets).toMatchObject({ currencyCode: 'USD', minPurchaseAmount: 15, maxPurchaseAmount: 10000 });
    expect(assets.assets.map((a: { chain: string; symbol: string }) => `${a.chain}_${a.symbol}`)).toContain('SOLANA_USDC');
    const methods = (await (await fetch(`${base}/api/host-api/v3/payout-methods`)).json()) as { name: string; countries: string[] }[];
    expect(methods.map((m) => m.name)).toEqual(['CARD', 'SEPA', 'AMERICAN_BANK_TRANSFER']);
    expect(methods[2]!.countries).toEqual(['us']);
  });

  test('the widget makes one sale per URL; pay sends signed CREATED, CREATED with the transaction, RELEASED, each retried once', async () => {
    const url = widgetUrl('order-1');
    const page = await (await fetch(url)).text();
    const address = /id="deposit-address">([^<]+)</.exec(page)![1]!;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await fetch(url);
    expect(simulator.sell.sales.size).toBe(1);
    const pay = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"action":"pay"}' });
    expect(pay.status).toBe(200);
    const bodies = await eventually(
      () => Promise.resolve(bodiesFor('order-1').length === 3 ? bodiesFor('order-1') : undefined),
      'three sale webhooks',
    );
    expect(bodies.map((b) => [b.type, b.mode, b.payload.status, Boolean(b.payload.transactionHash)])).toEqual([
      ['CREATED', 'OFFRAMP', 'CREATED', false],
      ['CREATED', 'OFFRAMP', 'CREATED', true],
      ['RELEASED', 'OFFRAMP', 'RELEASED', true],
    ]);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(3);
    const publicKey = createPublicKey(RAMP_SIMULATOR_CREDENTIALS.webhookPublicKey);
    for (const r of received.filter((x) => x.url.includes('order_id=order-1'))) {
      expect(verify('sha256', Buffer.from(stableStringify(JSON.parse(r.body))), publicKey, Buffer.from(r.signature, 'base64'))).toBe(true);
      expect(r.body).not.toContain(address);
      expect(r.url.startsWith('/api/webhooks/ramp?')).toBe(true);
    }
    // The first attempt of each was refused and retried with the same body.
    expect(received.filter((r) => r.url.includes('order_id=order-1')).map((r) => r.answered)).toEqual([500, 200, 500, 200, 500, 200]);

    const sale = bodies[2]!.payload as { id: string; saleViewToken: string };
    const lookup = await fetch(`${base}/api/host-api/v3/offramp/sale/${sale.id}?secret=${sale.saleViewToken}`);
    const read = (await lookup.json()) as Record<string, any>;
    expect(read).toMatchObject({ id: sale.id, status: 'RELEASED', crypto: { amount: '200000000000000000' } });
    expect(typeof read.fiat.amount).toBe('number');
    expect(JSON.stringify(read)).not.toContain(address);
    expect((await fetch(`${base}/api/host-api/v3/offramp/sale/${sale.id}?secret=nope`)).status).toBe(403);
    expect((await fetch(`${base}/api/host-api/v3/offramp/sale/unknown?secret=nope`)).status).toBe(404);
  });

  test('actions: expire ends the sale; fail and refund are undocumented; nothing after the end', async () => {
    const url = widgetUrl('order-2');
    await fetch(url);
    const post = (action: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action }) });
    for (const action of ['fail', 'refund']) {
      const res = await post(action);
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ error: { code: 'action_not_documented' } });
    }
    expect((await post('expire')).status).toBe(200);
    await eventually(() => Promise.resolve(bodiesFor('order-2').some((b) => b.type === 'EXPIRED') || undefined), 'EXPIRED');
    expect((await post('pay')).status).toBe(409);
  });

  test('a widget URL without OFFRAMP is a purchase; one without a sellable asset or amount makes no sale', async () => {
    expect((await fetch(widgetUrl('order-3', { offrampAsset: 'BTC_BTC' }))).status).toBe(400);
    expect((await fetch(widgetUrl('order-3', { swapAmount: '0.2' }))).status).toBe(400);
    expect((await fetch(widgetUrl('order-3', { hostApiKey: 'wrong' }))).status).toBe(401);
    const before = simulator.sell.sales.size;
    await fetch(widgetUrl('order-3', { defaultFlow: 'ONRAMP' }));
    expect(simulator.sell.sales.size).toBe(before);
  });
});
