/**
 * The load balancer in front of the API processes (deploy/haproxy/haproxy.cfg, which npm run cluster
 * and docker-compose.yml both run), with a real HAProxy and two stand-in API processes: the client
 * address it forwards cannot be forged, a request that finds a process dead or dying goes to the
 * other one, and when none can answer the integrator gets the API's problem with Retry-After.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { freePort } from '../helpers/ports';

const DEPLOY = join(__dirname, '..', '..', 'deploy', 'haproxy');

interface Backend {
  name: string;
  port: number;
  server: Server;
  /** How it answers API requests: normally, or by closing the connection without an answer (a process dying mid-request). */
  mode: 'answer' | 'drop';
  seen: { path: string; method: string; xff: string | undefined }[];
}

let haproxy: ChildProcess;
let lbUrl: string;
const backends: Backend[] = [];

async function startBackend(name: string): Promise<Backend> {
  const backend: Backend = { name, port: await freePort(), server: undefined as unknown as Server, mode: 'answer', seen: [] };
  backend.server = createServer((req, res) => {
    if (req.url === '/healthz') return void res.end('{"status":"ok"}');
    req.resume();
    req.on('end', () => {
      backend.seen.push({ path: req.url ?? '', method: req.method ?? '', xff: req.headers['x-forwarded-for'] as string | undefined });
      if (backend.mode === 'drop') return void req.socket.destroy();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ backend: name }));
    });
  });
  await new Promise<void>((resolve) => backend.server.listen(backend.port, '127.0.0.1', resolve));
  return backend;
}

const stopBackend = (backend: Backend) =>
  new Promise<void>((resolve) => {
    backend.server.closeAllConnections();
    backend.server.close(() => resolve());
  });

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const post = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${lbUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"a":1}' });

beforeAll(async () => {
  const binary =
    process.env.HAPROXY ||
    execFileSync('bash', [join(__dirname, '..', '..', 'scripts', 'ensure-haproxy.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
  backends.push(await startBackend('api-1'), await startBackend('api-2'));
  const lbPort = await freePort();
  lbUrl = `http://127.0.0.1:${lbPort}`;
  haproxy = spawn(binary, ['-f', join(DEPLOY, 'haproxy.cfg'), '-db'], {
    env: {
      ...process.env,
      LB_BIND: `127.0.0.1:${lbPort}`,
      ERRORS_DIR: DEPLOY,
      API_1: `127.0.0.1:${backends[0]!.port}`,
      API_2: `127.0.0.1:${backends[1]!.port}`,
    },
    stdio: 'ignore',
  });
  await until(async () => (await fetch(`${lbUrl}/healthz`)).ok, 'HAProxy');
});

afterAll(async () => {
  haproxy?.kill('SIGKILL');
  await Promise.all(backends.filter((b) => b.server.listening).map(stopBackend));
});

beforeEach(() => {
  for (const b of backends) {
    b.mode = 'answer';
    b.seen.length = 0;
  }
});

test('the API sees the address the client connected from, whatever X-Forwarded-For the client sent', async () => {
  const res = await post('/api/on_ramp/orders', { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' });
  expect(res.status).toBe(200);
  const seen = backends.flatMap((b) => b.seen);
  expect(seen).toHaveLength(1);
  // Set, not appended to: with TRUST_PROXY the API takes this as the client's address.
  expect(seen[0]!.xff).toBe('127.0.0.1');
});

test('spreads requests over both API processes', async () => {
  for (let i = 0; i < 10; i++) expect((await post('/api/x')).status).toBe(200);
  expect(backends.every((b) => b.seen.length > 0)).toBe(true);
});

test('a request whose process closes the connection without answering is answered by the other', async () => {
  backends[0]!.mode = 'drop';
  const answers = await Promise.all(Array.from({ length: 10 }, () => post('/api/on_ramp/orders').then((r) => r.status)));
  expect(answers).toEqual(Array.from({ length: 10 }, () => 200));
  // Some of them did reach the dying process first.
  expect(backends[0]!.seen.length).toBeGreaterThan(0);
});

test('when no API process can answer: a service_unavailable problem with Retry-After, then service again', async () => {
  const [first, second] = backends as [Backend, Backend];
  await stopBackend(first);
  // The first process is gone (connections refused): every request still gets an answer from the other.
  const statuses = await Promise.all(Array.from({ length: 10 }, () => post('/api/on_ramp/orders').then((r) => r.status)));
  expect(statuses).toEqual(Array.from({ length: 10 }, () => 200));

  await stopBackend(second);
  const res = await post('/api/on_ramp/orders');
  expect(res.status).toBe(503);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.headers.get('retry-after')).toBe('2');
  expect(await res.json()).toMatchObject({ status: 503, code: 'service_unavailable' });

  await new Promise<void>((resolve) => first.server.listen(first.port, '127.0.0.1', resolve));
  await until(async () => (await post('/api/x')).status === 200, 'the first process back in rotation');
});
