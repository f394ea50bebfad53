import { createServer, type Server } from 'node:http';
import { quoteFront } from '../../../bench/lib/quote-front';
import { SimulatorHost } from '../../../src/simulators/kit/host';
import { SandboxSimulator } from '../../../src/simulators/sandbox/server';
import { closeServer, listenOnLoopback } from '../../helpers/ports';

/**
 * The offers benchmark answers simulator quotes through bench/lib/quote-front.ts instead of the
 * simulator's Express route. Its figures are only worth something if both answer alike: same status,
 * content type and body (apart from the fresh quote id and expiry), same key check, same latency.
 */
const KEY = 'sk_front_test';
const simulator = new SandboxSimulator({
  apiKey: KEY,
  webhookSecret: 'whsec_front',
  webhookUrl: 'http://127.0.0.1:1',
  publicUrl: 'http://127.0.0.1:1',
});
const host = new SimulatorHost([simulator]);
let express: Server;
let front: Server;

let expressUrl: string;
let frontUrl: string;

beforeAll(async () => {
  express = createServer(host.app);
  front = createServer(quoteFront(host));
  [expressUrl, frontUrl] = await Promise.all([listenOnLoopback(express), listenOnLoopback(front)]);
});
afterEach(() => Object.assign(simulator.faults, { latencyMs: 0, errorRate: 0, timeoutRate: 0 }));
afterAll(async () => {
  host.stop();
  await Promise.all([closeServer(express), closeServer(front)]);
});

async function ask(base: string, path: string, key: string | null = KEY) {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: key === null ? {} : { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as Record<string, unknown>;
  const { quote_id: quoteId, expires_at: expiresAt, ...rest } = body;
  return { status: response.status, type: response.headers.get('content-type'), rest, quoteId, expiresAt, ms: performance.now() - started };
}

const quote = (params: Record<string, string>) => `/sandbox/v1/quotes?${new URLSearchParams(params).toString()}`;
const GOOD = {
  fiat_currency: 'GBP',
  crypto_currency: 'BTC',
  network: 'bitcoin',
  fiat_amount: '100',
  payment_method: 'card',
  country: 'GB',
};

const sellQuote = (params: Record<string, string>) => `/sandbox/v1/sell/quotes?${new URLSearchParams(params).toString()}`;
const SELL = {
  crypto_currency: 'BTC',
  network: 'bitcoin',
  crypto_amount: '0.01',
  fiat_currency: 'GBP',
  payout_method: 'card_payout',
  country: 'GB',
};

const CASES: [string, string, string | null][] = [
  ['a quote', quote(GOOD), KEY],
  ['a US state', quote({ ...GOOD, fiat_currency: 'USD', country: 'US', state: 'CA' }), KEY],
  ['a state the provider leaves out', quote({ ...GOOD, fiat_currency: 'USD', country: 'US', state: 'NY' }), KEY],
  ['an amount under the minimum', quote({ ...GOOD, fiat_amount: '1' }), KEY],
  ['an amount over the maximum', quote({ ...GOOD, fiat_amount: '9999999' }), KEY],
  ['an unsupported country', quote({ ...GOOD, country: 'JP' }), KEY],
  ['an unsupported asset', quote({ ...GOOD, crypto_currency: 'DOGE', network: 'dogecoin' }), KEY],
  ['a malformed amount', quote({ ...GOOD, fiat_amount: '1e3' }), KEY],
  ['a missing parameter', quote({ fiat_currency: 'GBP', crypto_currency: 'BTC' }), KEY],
  ['a wrong API key', quote(GOOD), 'sk_wrong'],
  ['no API key', quote(GOOD), null],
  ['another route', '/sandbox/v1/currencies', KEY],
  ['an unknown provider', '/nobody/v1/quotes?fiat_currency=GBP', KEY],
  ['a sell quote', sellQuote(SELL), KEY],
  ['a sell quote by another payout method', sellQuote({ ...SELL, fiat_currency: 'EUR', country: 'DE', payout_method: 'sepa' }), KEY],
  ['a sell amount under the minimum', sellQuote({ ...SELL, crypto_amount: '0.0000001' }), KEY],
  ['a sell payout method the fiat has not', sellQuote({ ...SELL, payout_method: 'ach' }), KEY],
  ['a sell in an unsupported country', sellQuote({ ...SELL, country: 'JP' }), KEY],
  ['a malformed sell amount', sellQuote({ ...SELL, crypto_amount: '1e3' }), KEY],
  ['a sell quote missing a parameter', sellQuote({ crypto_currency: 'BTC', network: 'bitcoin' }), KEY],
  ['a sell quote with a wrong API key', sellQuote(SELL), 'sk_wrong'],
];

test.each(CASES)('answers %s as the Express route does', async (_name, path, key) => {
  const [viaExpress, viaFront] = await Promise.all([ask(expressUrl, path, key), ask(frontUrl, path, key)]);
  expect(viaFront.status).toBe(viaExpress.status);
  expect(viaFront.type).toBe(viaExpress.type);
  expect(viaFront.rest).toEqual(viaExpress.rest);
  expect(typeof viaFront.quoteId).toBe(typeof viaExpress.quoteId);
  expect(typeof viaFront.expiresAt).toBe(typeof viaExpress.expiresAt);
});

test('the quotes compared are real ones', async () => {
  const answer = await ask(frontUrl, quote(GOOD));
  expect(answer.status).toBe(200);
  expect(answer.rest).toMatchObject({ fiat_currency: 'GBP', crypto_currency: 'BTC', payment_method: 'card' });
  expect(Number(answer.rest.crypto_amount)).toBeGreaterThan(0);
});

test('the sell quotes compared are real ones, and come from the front', async () => {
  const answer = await ask(frontUrl, sellQuote(SELL));
  expect(answer.status).toBe(200);
  expect(answer.rest).toMatchObject({ fiat_currency: 'GBP', crypto_currency: 'BTC', payout_method: 'card_payout' });
  expect(Number(answer.rest.fiat_amount)).toBeGreaterThan(0);
  // Answered by the front itself, not handed to the host's Express app.
  const answered = jest.spyOn(simulator, 'sellQuoteAnswer');
  try {
    await ask(frontUrl, sellQuote(SELL));
    expect(answered).toHaveBeenCalledTimes(1);
  } finally {
    answered.mockRestore();
  }
});

test('keeps the latency switch', async () => {
  simulator.faults.latencyMs = 150;
  const answer = await ask(frontUrl, quote(GOOD));
  expect(answer.status).toBe(200);
  expect(answer.ms).toBeGreaterThanOrEqual(145);
});

test("leaves outages to the simulator's own route", async () => {
  simulator.faults.errorRate = 1;
  const [viaExpress, viaFront] = await Promise.all([ask(expressUrl, quote(GOOD)), ask(frontUrl, quote(GOOD))]);
  expect(viaExpress.status).toBe(503);
  expect(viaFront).toMatchObject({ status: 503, rest: viaExpress.rest });
});
