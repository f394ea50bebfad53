/**
 * The API's HTTP server (src/api/http-server.ts) makes each request and response with the Express
 * app's own prototypes, and the API answers through it as through a plain Node server: the
 * dictionary, a 304, a JSON body read and refused, an unknown route, a keep-alive connection
 * reused, and an app whose handler sees the prototypes it was made with.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ApiServer } from '../../src/api/http-server';
import { buildApi } from '../../src/api/server';
import { createLogger } from '../../src/logging';
import { createTemporalClient } from '../../src/temporal/connection';
import { TEST_API_KEY, testConfig } from '../helpers/config';

const client = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
const servers: Server[] = [];

async function listening(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("a request and its response are made with the app's prototypes, and Express leaves them as they are", async () => {
  const app = express();
  const seen: boolean[] = [];
  app.get('/p', (req, res) => {
    seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response, req.res === res);
    res.json({ ip: req.ip, path: req.path });
  });
  const { server } = new ApiServer().serve(app);
  // Before Express sees them: made with the app's prototypes, not given them afterwards.
  server.prependListener('request', (req, res) => {
    seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
  });
  const url = await listening(server);
  const res = await fetch(`${url}/p?x=1`);
  expect(await res.json()).toEqual({ ip: '127.0.0.1', path: '/p' });
  expect(seen).toEqual([true, true, true, true, true]);
});

test('the API answers through it as through a plain server', async () => {
  const config = testConfig();
  const api = () => buildApi(config, client, createLogger('silent', 'test'));
  const [ours, plain] = [await listening(new ApiServer().serve(api()).server), await listening(createServer(api()))];
  const ask = async (base: string, path: string, init: RequestInit = {}) => {
    const res = await fetch(base + path, { ...init, headers: { 'X-Api-Key': TEST_API_KEY, 'X-Request-Id': 'same', ...init.headers } });
    // The date, and the seconds left in the rate limit's window, move with the clock between the two asks.
    const headers = Object.fromEntries(
      [...res.headers]
        .filter(([name]) => name !== 'date')
        .map(([name, value]) => [name, name === 'ratelimit' ? value.replace(/; t=\d+$/, '; t=…') : value]),
    );
    return { status: res.status, headers, body: await res.text() };
  };
  const dictionary = await ask(ours, '/api/dict/currencies');
  expect(dictionary).toEqual(await ask(plain, '/api/dict/currencies'));
  expect(dictionary.status).toBe(200);
  const cases: [string, RequestInit][] = [
    ['/api/dict/currencies', {}],
    ['/api/dict/currencies', { headers: { 'If-None-Match': dictionary.headers.etag! } }],
    ['/api/on_ramp/orders', { method: 'POST', body: '{"broken', headers: { 'Content-Type': 'application/json' } }],
    [
      '/api/on_ramp/orders',
      { method: 'POST', body: JSON.stringify({ provider_code: 'sandbox' }), headers: { 'Content-Type': 'application/json' } },
    ],
    ['/nowhere', {}],
    ['/api/dict/currencies', { method: 'DELETE' }],
    ['/api/dict/currencies', { method: 'HEAD' }],
  ];
  for (const [path, init] of cases) {
    expect(await ask(ours, path, init)).toEqual(await ask(plain, path, init));
  }
});

test('a server serves one app', () => {
  const server = new ApiServer().serve(express());
  expect(() => server.serve(express())).toThrow('an ApiServer serves one app');
});

test('Expect: 100-continue is answered, then the request', async () => {
  const url = new URL(await listening(new ApiServer().serve(buildApi(testConfig(), client, createLogger('silent', 'test'))).server));
  const { request } = await import('node:http');
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/api/on_ramp/orders',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Expect: '100-continue', 'X-Api-Key': TEST_API_KEY },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('continue', () => req.end('{}'));
    req.on('error', reject);
  });
  expect(status).toBe(400);
});
