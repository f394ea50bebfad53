/**
 * The API's access log, captured from its pino output over real requests: the path and a query
 * whose values are shown only for known harmless parameters, so no capability token (Ramp's
 * `order_mac`), customer IP or external user id is written at info level, or at any level.
 */
import type { Client } from '@temporalio/client';
import type { Express } from 'express';
import pino from 'pino';
import request from 'supertest';
import { buildApi } from '../../src/api/server';
import { PROVIDER_TEXT_LIMITS } from '../../src/providers/kit/report-bounds';
import { paybisSimulatorKeys } from '../../src/providers/paybis/config';
import { paybisSignature } from '../../src/simulators/paybis/signing';
import { createTemporalClient } from '../../src/temporal/connection';
import { TEST_API_KEY, testConfig } from '../helpers/config';
import { BTC, USD } from '../helpers/orders';

const lines: Record<string, unknown>[] = [];
let app: Express;

beforeAll(() => {
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const config = testConfig({ offersProviderTimeoutMs: 200 });
  app = buildApi(config, createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' }), logger);
});

beforeEach(() => {
  lines.length = 0;
});

const SECRETS = { external_user_id: 'customer-4242', ip: '203.0.113.77', order_mac: 'a'.repeat(64) };

const accessLines = () => lines.filter((l) => l.msg === 'request completed');

test('an offers request is logged with its path and currencies; the user id and IP are redacted', async () => {
  const query = new URLSearchParams({
    external_user_id: SECRETS.external_user_id,
    currency_from: String(USD),
    currency_to: String(BTC),
    amount_from: '100',
    country: 'GB',
    ip: SECRETS.ip,
  });
  await request(app).get(`/api/on_ramp/offers?${query.toString()}`).set('X-Api-Key', TEST_API_KEY);
  expect(accessLines()).toEqual([
    expect.objectContaining({
      req: {
        method: 'GET',
        path: '/api/on_ramp/offers',
        query: `external_user_id=[redacted]&currency_from=${USD}&currency_to=${BTC}&amount_from=100&country=GB&ip=[redacted]`,
      },
    }),
  ]);
  expect(JSON.stringify(lines)).not.toContain(SECRETS.external_user_id);
  expect(JSON.stringify(lines)).not.toContain(SECRETS.ip);
});

test("a Ramp webhook's order_mac never reaches the log", async () => {
  const orderId = '8d3f6f8e-1b2c-4d5e-9f00-112233445566';
  await request(app)
    .post(`/api/webhooks/ramp?order_id=${orderId}&order_mac=${SECRETS.order_mac}`)
    .set('Content-Type', 'application/json')
    .send('{}');
  expect(accessLines()).toEqual([
    expect.objectContaining({ req: { method: 'POST', path: '/api/webhooks/ramp', query: 'order_id=[redacted]&order_mac=[redacted]' } }),
  ]);
  expect(JSON.stringify(lines)).not.toContain(SECRETS.order_mac);
});

describe('an order status request', () => {
  const ORDER_ID = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
  let statusApp: Express;
  let owner = 'another-integrator';

  beforeAll(() => {
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const order = { id: ORDER_ID, status: 'created' };
    // A Temporal client whose every order is a sandbox order of `owner`.
    const client = {
      withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn(),
      workflow: {
        getHandle: () => ({ describe: () => Promise.resolve({ memo: { order, integratorId: owner, providerCode: 'sandbox' } }) }),
      },
    } as unknown as Client;
    statusApp = buildApi(testConfig({ offersProviderTimeoutMs: 200 }), client, logger);
  });

  test("a 404 for another integrator's order does not carry that order's id in its access log line", async () => {
    await request(statusApp).get(`/api/on_ramp/orders/sandbox?code=${ORDER_ID}`).set('X-Api-Key', TEST_API_KEY).expect(404);
    expect(accessLines()).toEqual([expect.objectContaining({ res: expect.objectContaining({ statusCode: 404 }) })]);
    expect(accessLines()[0]).not.toHaveProperty('orderId');
    // The query carries it (redacted or not), the line does not name it as the request's order.
    expect(JSON.stringify({ ...accessLines()[0], req: undefined })).not.toContain(ORDER_ID);
  });

  test("the integrator's own order carries its id", async () => {
    owner = 'dev';
    await request(statusApp).get(`/api/on_ramp/orders/sandbox?code=${ORDER_ID}`).set('X-Api-Key', TEST_API_KEY).expect(200);
    expect(accessLines()).toEqual([expect.objectContaining({ orderId: ORDER_ID })]);
  });
});

test("an ignored provider webhook's order id is logged no longer than an order id's bound", async () => {
  // A signed Paybis attempt that ended unpaid is acknowledged without a signal (left to the lookup),
  // before any bound is checked: the order id it names comes straight from the body.
  const longId = `${'7'.repeat(100_000)}`;
  const body = JSON.stringify({
    event: 'TRANSACTION_STATUS_CHANGED',
    data: { requestId: 'req-1', partnerTransactionId: longId, transaction: { invoice: 'PB-1', status: 'cancelled', flow: 'buyCrypto' } },
  });
  const res = await request(app)
    .post('/api/webhooks/paybis')
    .set('Content-Type', 'application/json')
    .set('X-Request-Signature', paybisSignature(body, paybisSimulatorKeys(undefined).webhookSigningKey))
    .send(body);
  expect(res.status).toBe(200);
  const ignored = lines.find((l) => l.msg === 'provider webhook acknowledged: nothing to act on');
  expect(ignored).toEqual(expect.objectContaining({ provider: 'paybis', orderId: longId.slice(0, PROVIDER_TEXT_LIMITS.orderId) }));
  expect(JSON.stringify(lines).length).toBeLessThan(20_000);
});
