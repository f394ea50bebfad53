import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { integratorAdmission } from '../../../src/api/integrator-admission';
import { errorHandler } from '../../../src/api/problem';
import { rateLimitRefusals } from '../../../src/metrics/metrics';

const refusals = async () =>
  (await rateLimitRefusals.get()).values.find((v) => v.labels.limiter === 'integrator_concurrency' && v.labels.key_class === 'integrator')
    ?.value ?? 0;

/** An app whose one route holds each request until the test lets it go; the integrator is the `x-who` header. */
function holdingApp(concurrency: number, queued: number) {
  const held: { who: string; release: () => void }[] = [];
  const started: string[] = [];
  const app = express();
  app.use((req, _res, next) => {
    req.integrator = { id: String(req.headers['x-who']), name: 'x', api_key_sha256: ['0'.repeat(64)] };
    next();
  });
  app.use(integratorAdmission({ concurrency, queued }));
  app.get('/hold/:tag', (req, res) => {
    started.push(req.params.tag);
    held.push({ who: String(req.headers['x-who']), release: () => res.json({ tag: req.params.tag }) });
  });
  app.use(errorHandler);
  return { app, held, started };
}

let server: Server | undefined;
async function serve(app: express.Express): Promise<string> {
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

const ask = (url: string, who: string, tag: string) => fetch(`${url}/hold/${tag}`, { headers: { 'x-who': who } });
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

test("an integrator's requests beyond its places wait, in order, while another integrator's go straight in", async () => {
  const { app, held, started } = holdingApp(2, 10);
  const url = await serve(app);
  const a = ['a1', 'a2', 'a3', 'a4'].map((tag) => ask(url, 'A', tag));
  await until(() => started.length === 2);
  await new Promise((r) => setTimeout(r, 100));
  expect(started).toEqual(['a1', 'a2']);
  const b = ask(url, 'B', 'b1');
  await until(() => started.includes('b1'));
  held.find((h) => h.who === 'B')!.release();
  expect((await b).status).toBe(200);
  // A's first answer hands its place to the next of A's requests, first come first served.
  held[0]!.release();
  await until(() => started.includes('a3'));
  expect(started.filter((t) => t.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
  for (const h of held.filter((x) => x.who === 'A').slice(1)) h.release();
  await until(() => started.includes('a4'));
  held.at(-1)!.release();
  expect((await Promise.all(a)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
});

test('beyond the places and the line, a request is refused with 429 rate_limited and Retry-After', async () => {
  const { app, held, started } = holdingApp(1, 1);
  const url = await serve(app);
  const first = ask(url, 'A', 'a1');
  await until(() => started.length === 1);
  const second = ask(url, 'A', 'a2');
  await new Promise((r) => setTimeout(r, 50));
  const before = await refusals();
  const third = await ask(url, 'A', 'a3');
  expect(third.status).toBe(429);
  expect(await refusals()).toBe(before + 1);
  expect(third.headers.get('retry-after')).toBe('1');
  expect(third.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(((await third.json()) as { code: string }).code).toBe('rate_limited');
  held[0]!.release();
  await until(() => started.length === 2);
  held[1]!.release();
  expect([(await first).status, (await second).status]).toEqual([200, 200]);
});

test('a waiting request whose client went away is skipped, and a closed connection gives its place back', async () => {
  const { app, held, started } = holdingApp(1, 5);
  const url = await serve(app);
  const { port } = new URL(url);
  // a1 holds the place; a2 waits, then its client goes away.
  const a1 = request({ host: '127.0.0.1', port, path: '/hold/a1', headers: { 'x-who': 'A' } });
  a1.on('error', () => undefined).end();
  await until(() => started.length === 1);
  const a2 = request({ host: '127.0.0.1', port, path: '/hold/a2', headers: { 'x-who': 'A' } });
  a2.on('error', () => undefined).end();
  await new Promise((r) => setTimeout(r, 50));
  a2.destroy();
  const a3 = ask(url, 'A', 'a3');
  await new Promise((r) => setTimeout(r, 50));
  // a1's client goes away too: its place goes to a3, never to the abandoned a2.
  a1.destroy();
  await until(() => started.includes('a3'));
  expect(started).toEqual(['a1', 'a3']);
  held.at(-1)!.release();
  expect((await a3).status).toBe(200);
});
