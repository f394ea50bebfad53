/**
 * Cross-check against Revolut's own description of the API: the adapter's requests and the
 * simulator's answers and webhooks are validated against an excerpt of the Crypto Ramp OpenAPI
 * document (fixtures/crypto-ramp-2.0-excerpt.json, written from it: the document has no licence,
 * so it is not in this repository). Adapter and simulator run over real HTTP on 127.0.0.1.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import { currencyDictionary } from '../../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../../src/domain/currency';
import { createRevolutAdapter, REVOLUT_SIMULATOR_CREDENTIALS } from '../../../../src/providers/revolut';
import { RevolutConfigSchema, RevolutOrderSchema, RevolutQuoteSchema } from '../../../../src/providers/revolut/schemas';
import { createRevolutSimulator, type RevolutSimulator } from '../../../../src/simulators/revolut/server';
import { currencyId as idOf } from '../../../helpers/currencies';
import { eventually } from '../../../helpers/http';
import { checkout } from '../../../helpers/orders';
import { closeServer, listenOnLoopback } from '../../../helpers/ports';

jest.setTimeout(20_000);

interface ParameterSpec {
  required: boolean;
  enum?: string[];
  pattern?: string;
}
interface Operation {
  server: string;
  path?: string;
  query: Record<string, ParameterSpec>;
  answer: string;
  body?: string;
}
const excerpt = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'crypto-ramp-2.0-excerpt.json'), 'utf8')) as {
  securityHeader: string;
  operations: Record<string, Operation>;
  webhookHeaders: string[];
  schemas: Record<string, object>;
};

const ajv = new Ajv2019({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema({ $id: 'excerpt', schemas: excerpt.schemas });
const validate = (schema: string, value: unknown) => {
  const check = ajv.getSchema(`excerpt#/schemas/${schema}`)!;
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
};

/** The documented operation a request is, by method and path (its server's version prefix taken off). */
function operationOf(method: string, path: string): [string, Operation] | undefined {
  const match = /^\/revolut\/partners\/api\/(\d\.\d)(\/.*)$/.exec(path);
  if (!match) return undefined;
  const [, server, rest = ''] = match;
  return Object.entries(excerpt.operations).find(([key, op]) => {
    const [m, p] = key.split(' ') as [string, string];
    return m === method && op.server === server && (op.path ? new RegExp(op.path).test(rest) : p === rest);
  });
}

/** What the request breaks of its operation's documented parameters and security. */
function requestProblems(method: string, url: URL, headers: Record<string, unknown>): string[] {
  const found = operationOf(method, url.pathname);
  if (!found) return [`${method} ${url.pathname} is no documented operation`];
  const [name, op] = found;
  const problems: string[] = [];
  if (typeof headers[excerpt.securityHeader] !== 'string') problems.push(`${name}: no ${excerpt.securityHeader}`);
  for (const [param, spec] of Object.entries(op.query)) {
    const value = url.searchParams.get(param);
    if (value === null) {
      if (spec.required) problems.push(`${name}: ${param} missing`);
      continue;
    }
    if (spec.enum && !spec.enum.includes(value)) problems.push(`${name}: ${param}=${value} not in ${spec.enum.join('|')}`);
    if (spec.pattern && !new RegExp(spec.pattern).test(value)) problems.push(`${name}: ${param}=${value} does not match`);
  }
  for (const param of url.searchParams.keys()) {
    if (!(param in op.query) && !param.startsWith('additionalProperties.')) problems.push(`${name}: undocumented ${param}`);
  }
  return problems;
}

const GBP = currencyDictionary.fiat(idOf('GBP')) as FiatCurrency;
const USDT = currencyDictionary.crypto(idOf('USDT', 'ethereum')) as CryptoCurrency;
const WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';

let simulator: RevolutSimulator;
let apiUrl: string;
let simulatorUrl: string;
const requests: { method: string; url: URL; headers: Record<string, unknown> }[] = [];
const webhookBodies: { headers: Record<string, unknown>; body: string }[] = [];
const servers: ReturnType<typeof createServer>[] = [];

beforeAll(async () => {
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      webhookBodies.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  const front = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    if (url.pathname.startsWith('/revolut/partners/')) requests.push({ method: req.method ?? '', url, headers: req.headers });
    req.url = req.url?.replace(/^\/revolut/, '') ?? '/';
    simulator.app(req, res);
  });
  servers.push(receiver, front);
  const brokerUrl = await listenOnLoopback(receiver);
  simulatorUrl = await listenOnLoopback(front);
  apiUrl = `${simulatorUrl}/revolut/partners/api/2.0`;
  simulator = createRevolutSimulator({
    publicUrl: `${simulatorUrl}/revolut`,
    brokerWebhookUrl: `${brokerUrl}/api/webhooks/revolut`,
    credentials: REVOLUT_SIMULATOR_CREDENTIALS,
    stepDelayMs: 20,
  });
});

afterAll(async () => {
  simulator.stop();
  await Promise.all(servers.map(closeServer));
});

const get = async (path: string, base = apiUrl) => {
  const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': REVOLUT_SIMULATOR_CREDENTIALS.apiKey } });
  return { status: res.status, body: await res.json() };
};

test("the adapter's requests are the documented operations with their parameters, and the simulator's answers their schemas", async () => {
  const adapter = createRevolutAdapter(
    { ...REVOLUT_SIMULATOR_CREDENTIALS, apiUrl, brokerPublicUrl: 'https://broker.example' },
    currencyDictionary,
  );
  await adapter.getCatalogue();
  await adapter.getQuote({ fiat: GBP, crypto: USDT, fiatAmount: '250.00', paymentMethod: 'apple_pay', country: 'GB', externalUserId: 'u' });
  const orderId = randomUUID();
  const order = await adapter.createOrder({
    orderId,
    fiat: GBP,
    crypto: USDT,
    fiatAmount: '250.00',
    walletAddress: WALLET,
    paymentMethod: 'revolut_pay',
    country: 'GB',
    externalUserId: 'u',
    extras: { return_url: 'https://integrator.example/back' },
  });
  await fetch(order.redirectUrl);
  await checkout(order.redirectUrl, 'pay');
  await eventually(
    async () => ((await adapter.getOrder(orderId, order.providerOrderId)).status === 'complete' ? true : undefined),
    'complete',
  );

  expect(requests.map((r) => `${r.method} ${r.url.pathname.replace(orderId, '{order_id}')}`)).toEqual(
    expect.arrayContaining([
      'GET /revolut/partners/api/2.0/config',
      'GET /revolut/partners/api/2.0/quote',
      'GET /revolut/partners/api/2.0/buy',
      'GET /revolut/partners/api/2.0/orders/{order_id}',
    ]),
  );
  expect(requests.flatMap((r) => requestProblems(r.method, r.url, r.headers))).toEqual([]);

  const buy = requests.find((r) => r.url.pathname.endsWith('/buy'))!.url.searchParams;
  expect(Object.fromEntries(buy)).toEqual({
    fiat: 'GBP',
    amount: '250.00',
    crypto: 'USDT-ETH',
    payment: 'revolut',
    region: 'GB',
    wallet: WALLET,
    orderId,
    partnerRedirectUrl: 'https://integrator.example/back',
  });

  // The simulator's answers, read back as Revolut documents them.
  const config = await get('/config');
  expect(validate('Config', config.body)).toEqual([]);
  const quote = await get('/quote?fiat=EUR&amount=120&crypto=BTC&payment=card&region=DE&feePercentage=1');
  expect(validate('Quote', quote.body)).toEqual([]);
  const redirect = await get(`/buy?fiat=EUR&amount=120&crypto=BTC&payment=card&region=DE&wallet=${WALLET}&orderId=${randomUUID()}`);
  expect(validate('RampRedirectUrl', redirect.body)).toEqual([]);
  const found = await get(`/orders/${orderId}?wallet=${WALLET}`);
  expect(found.status).toBe(200);
  expect(validate('Order', found.body)).toEqual([]);
  const list = await get(`/orders?start=2000-01-01&end=2100-01-01`);
  expect(validate('Order', (list.body as unknown[])[0])).toEqual([]);
  expect(validate('Error', (await get(`/orders/${randomUUID()}?wallet=${WALLET}`)).body)).toEqual([]);
  expect(validate('Error', (await get('/quote?fiat=GBP')).body)).toEqual([]);
  expect(validate('Webhooks', (await get('/webhooks', `${simulatorUrl}/revolut/partners/api/1.0`)).body)).toEqual([]);

  // Its webhooks: the documented body and headers.
  expect(webhookBodies.map((w) => (JSON.parse(w.body) as { event: string }).event)).toEqual([
    'ORDER_CREATED',
    'ORDER_PROCESSING',
    'ORDER_COMPLETED',
  ]);
  for (const { headers, body } of webhookBodies) {
    expect(validate('WebhookEvent', JSON.parse(body))).toEqual([]);
    for (const header of excerpt.webhookHeaders) expect(typeof headers[header]).toBe('string');
  }
});

test('answers shaped as the documentation shows them are read by the adapter', () => {
  // The OpenAPI examples' shapes, with values of our own: the contract address of a token shown as
  // a number (as the document's own example has it) is read as no contract.
  const config = {
    version: '1.0.0',
    countries: ['GB', 'FR'],
    fiat: [{ currency: 'GBP', min_limit: 40, max_limit: 800 }],
    crypto: [
      { id: 'BTC', currency: 'BTC', blockchain: 'BITCOIN' },
      { id: 'USDT-OPTIMISM', currency: 'USDT', blockchain: 'OPTIMISM', smartContractAddress: 9.4e47 },
    ],
    feePercentages: [0.8, 1],
    payment_methods: ['card', 'revolut', 'apple-pay', 'google-pay'],
  };
  expect(RevolutConfigSchema.parse(config).crypto[1]!.smartContractAddress).toBeNull();
  const quote = {
    service_fee: { amount: 2.5, currency: 'GBP' },
    network_fee: { amount: 0.6, currency: 'GBP' },
    crypto: { amount: 0.00123456, currencyId: 'BTC' },
    partner_fee: { amount: 0.5, currency: 'GBP' },
  };
  expect(validate('Quote', quote)).toEqual([]);
  expect(RevolutQuoteSchema.parse(quote).crypto.amount).toBe('0.00123456');
  const money = (amount: number) => ({ amount, currency: 'GBP' });
  const order = {
    id: randomUUID(),
    fiat: money(96.9),
    crypto: { amount: 0.001, currencyId: 'BTC' },
    fees: { ramp_fee: money(2), partner_fee: money(0.5), network_fee: money(0.6) },
    exchange_rate: 0.0000103,
    payment: 'card',
    created_at: '2026-01-02T10:00:00Z',
    updated_at: '2026-01-02T10:05:00Z',
    status: 'COMPLETED',
    wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    transaction_hash: 'ab'.repeat(32),
    fees_partner_currency: { ramp_fee: money(2), partner_fee: money(0.5), network_fee: money(0.6) },
  };
  expect(validate('Order', order)).toEqual([]);
  // The excerpt does check: an undocumented status, or a completed order without its hash, is not an Order.
  expect(validate('Order', { ...order, status: 'REFUNDED' })).not.toEqual([]);
  expect(validate('Order', { ...order, transaction_hash: undefined })).not.toEqual([]);
  expect(RevolutOrderSchema.parse(order)).toMatchObject({ fiat: { amount: '96.9' }, status: 'COMPLETED' });
  // One example of the document names the crypto `currency` rather than `currencyId`: still read.
  expect(RevolutOrderSchema.parse({ ...order, crypto: { amount: 0.001, currency: 'BTC' } }).crypto.currency).toBe('BTC');
});
