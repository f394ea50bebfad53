/**
 * providerRequest against a real local HTTP server: answers, 5xx, non-JSON, a server that never
 * answers (the timeout), a body that stops half way, and the caller's abort.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { providerRequest } from '../../../../src/providers/kit/http';
import { ProviderUnavailableError } from '../../../../src/providers/types';
import { rejectionOf } from '../../../helpers/rejection';

let server: Server;
let base: string;
const hanging = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/ok') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, accept: req.headers.accept, auth: req.headers.authorization ?? null }));
    } else if (path === '/echo') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => res.end(JSON.stringify({ type: req.headers['content-type'], body: JSON.parse(body) as unknown })));
    } else if (path === '/empty') {
      res.statusCode = 204;
      res.end();
    } else if (path === '/rejected') {
      res.statusCode = 422;
      res.end(JSON.stringify({ error: 'amount_out_of_range' }));
    } else if (path === '/broken') {
      res.statusCode = 502;
      res.end('bad gateway');
    } else if (path === '/html') {
      res.end('<html></html>');
    } else if (path === '/never') {
      hanging.add(res);
    } else if (path === '/stalls') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
      hanging.add(res);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  for (const res of hanging) res.destroy();
  hanging.clear();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderUnavailableError);

test('a 2xx answer comes back parsed, with the accept and the given headers sent', async () => {
  const answer = await providerRequest(`${base}/ok`, { timeoutMs: 1000, headers: { authorization: 'Bearer k' } });
  expect(answer).toEqual({ status: 200, body: { method: 'GET', accept: 'application/json', auth: 'Bearer k' } });
});

test('a JSON body is sent as application/json', async () => {
  const answer = await providerRequest(`${base}/echo`, { method: 'POST', json: { a: 1 }, timeoutMs: 1000 });
  expect(answer.body).toEqual({ type: 'application/json', body: { a: 1 } });
});

test('an empty answer has no body; a 4xx is returned for the adapter to read', async () => {
  expect(await providerRequest(`${base}/empty`, { timeoutMs: 1000 })).toEqual({ status: 204, body: undefined });
  expect(await providerRequest(`${base}/rejected`, { timeoutMs: 1000 })).toEqual({ status: 422, body: { error: 'amount_out_of_range' } });
});

test('a 5xx and an answer that is not JSON are ProviderUnavailableError', async () => {
  expect((await failure(providerRequest(`${base}/broken`, { timeoutMs: 1000 }))).message).toBe('GET /broken: HTTP 502');
  expect((await failure(providerRequest(`${base}/html`, { timeoutMs: 1000 }))).message).toBe('/html: answer is not JSON (HTTP 200)');
});

test('a server that never answers times out after timeoutMs', async () => {
  const started = Date.now();
  const err = await failure(providerRequest(`${base}/never`, { timeoutMs: 300 }));
  expect(err.message).toBe('GET /never: timed out after 300 ms');
  // undici's coarse timers fire within a second or so of the deadline, never before it.
  expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  expect(Date.now() - started).toBeLessThan(3000);
});

test('a body that stops half way times out too', async () => {
  const err = await failure(providerRequest(`${base}/stalls`, { timeoutMs: 300 }));
  expect(err.message).toBe('GET /stalls: timed out after 300 ms');
});

test("the caller's signal aborts the call at once", async () => {
  const controller = new AbortController();
  const started = Date.now();
  const pending = providerRequest(`${base}/never`, { timeoutMs: 10_000, signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  const err = await failure(pending);
  expect(err.message).toBe('GET /never: aborted');
  expect(Date.now() - started).toBeLessThan(1000);
});

test('a signal aborted before the call starts fails it without a request', async () => {
  const controller = new AbortController();
  controller.abort();
  const err = await failure(providerRequest(`${base}/ok`, { timeoutMs: 1000, signal: controller.signal }));
  expect(err.message).toBe('GET /ok: aborted');
});
