/**
 * Attack: unauthenticated POSTs to /api/webhooks/transak make the broker refresh Transak's partner
 * access token (each refresh revokes the token the workers use, and each attempt is a call to
 * Transak). Control: the token's shape is checked before any refresh, and webhooks make a process
 * that holds no token refresh at most once a minute. The real API over real HTTP, the Transak
 * simulator behind a server counting the refresh-token calls.
 */
import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import { SignJWT } from 'jose';
import request from 'supertest';
import { buildApi } from '../../src/api/server';
import { sandboxCredentials, withEndpoints } from '../../src/config';
import { createLogger } from '../../src/logging';
import { createSimulatorHost, type SimulatorHost } from '../../src/simulators';
import type { TransakSimulator } from '../../src/simulators/transak/server';
import { createTemporalClient } from '../../src/temporal/connection';
import { testConfig } from '../helpers/config';
import { closeServer, listenOnLoopback } from '../helpers/ports';
import claims from '../unit/providers/transak/fixtures/webhook-order-completed.claims.json';

const REFRESH_PATH = '/transak/partners/api/v2/refresh-token';
const unreachableTemporal = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });

let server: Server;
let host: SimulatorHost;
let simulator: TransakSimulator;
let simulatorUrl: string;
let refreshAttempts = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === REFRESH_PATH) refreshAttempts++;
    host.app(req, res);
  });
  simulatorUrl = await listenOnLoopback(server);
  host = createSimulatorHost({
    brokerUrl: 'http://127.0.0.1:1',
    publicUrl: simulatorUrl,
    sandbox: sandboxCredentials(testConfig().providerEnv),
  });
  simulator = host.get<TransakSimulator>('transak');
});

afterAll(async () => {
  host.stop();
  await closeServer(server);
});

afterEach(() => {
  simulator.faults.errorRate = 0;
});

/** A new API process: its Transak adapter holds no access token yet. */
function freshApi(): Express {
  const config = testConfig();
  return buildApi(
    withEndpoints(config, { publicBaseUrl: config.publicBaseUrl, simulatorUrl }),
    unreachableTemporal,
    createLogger('silent', 'test'),
  );
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const signed = (payload: Record<string, unknown>, alg = 'HS256', key = 'not-the-access-token') =>
  new SignJWT(payload).setProtectedHeader({ alg }).sign(new TextEncoder().encode(key));

const post = (app: Express, body: unknown) =>
  request(app)
    .post('/api/webhooks/transak')
    .set('content-type', 'application/json')
    .send(typeof body === 'string' ? body : JSON.stringify(body));

test('tokens not of the expected shape are refused without a refresh', async () => {
  const app = freshApi();
  const before = { attempts: refreshAttempts, issued: simulator.accessTokensIssued };
  const malformed: unknown[] = [
    'not json',
    { data: 'x' },
    { data: 'a.b.c' },
    { data: `${b64({ alg: 'none' })}.${b64(claims)}.` },
    { data: await signed(claims, 'HS512') },
    { data: await signed({ eventID: 'ORDER_COMPLETED', webhookData: { id: 1 } }) },
  ];
  for (const body of malformed) {
    const res = await post(app, body);
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.code).toBe('invalid_signature');
  }
  expect(refreshAttempts).toBe(before.attempts);
  expect(simulator.accessTokensIssued).toBe(before.issued);
});

test('many well-formed forged webhooks cause at most one refresh', async () => {
  const app = freshApi();
  const before = simulator.accessTokensIssued;
  const forged = await signed(claims);
  for (let i = 0; i < 10; i++) expect((await post(app, { data: forged })).status).toBe(401);
  expect(simulator.accessTokensIssued).toBe(before + 1);
});

test('while and after refreshes fail, forged webhooks make one refresh attempt a minute at most', async () => {
  const app = freshApi();
  const before = { attempts: refreshAttempts, issued: simulator.accessTokensIssued };
  const forged = await signed(claims);
  simulator.faults.errorRate = 1;
  for (let i = 0; i < 10; i++) {
    const res = await post(app, { data: forged });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('provider_unavailable');
    expect(res.headers['retry-after']).toBe('30');
  }
  simulator.faults.errorRate = 0;
  for (let i = 0; i < 10; i++) expect((await post(app, { data: forged })).status).toBe(503);
  expect(refreshAttempts).toBe(before.attempts + 1);
  expect(simulator.accessTokensIssued).toBe(before.issued);
});
