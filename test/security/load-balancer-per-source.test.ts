/**
 * The load balancer (deploy/haproxy/haproxy.cfg, run by npm run cluster and docker-compose.yml)
 * limits the connections of each client address: one address holding idle connections gets no
 * more than its share, and another address is still answered. With a real HAProxy, small limits
 * (LB_MAXCONN 40 in all, LB_SOURCE_MAX_CONN 10 per address) and a stand-in API process; the second
 * client address is 127.0.0.2, which Linux routes on loopback like 127.0.0.1. An IPv6 client is
 * counted by its /64 (anyone holding a /64 could otherwise spread over 2^64 addresses), which the
 * stick table's key for ::1 shows, read on an admin socket a second configuration file adds.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/ports';

const DEPLOY = join(__dirname, '..', '..', 'deploy', 'haproxy');
const CONFIG = join(DEPLOY, 'haproxy.cfg');
const TOTAL = 40;
const PER_SOURCE = 10;

let binary: string;
let haproxy: ChildProcess;
let backend: Server;
let lbPort: number;
let lbEnv: NodeJS.ProcessEnv;
let adminSocket: string;
const sockets: Socket[] = [];

/** GET / through the load balancer from `localAddress`: the status, or the error that stopped it. */
function get(localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: lbPort, path: '/api/x', localAddress, agent: false, timeout: 3000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

/**
 * An idle connection from `host` (127.0.0.1 or ::1) to the load balancer there: connected, sending
 * nothing; `open` until the far end closes or resets it (which may come before the connect callback).
 */
function idleConnection(host = '127.0.0.1'): Promise<{ socket: Socket; open: () => boolean }> {
  return new Promise((resolve) => {
    let closed = false;
    const socket = connect({ host, port: lbPort, localAddress: host }, () => resolve(connection));
    const connection = { socket, open: () => !closed };
    const close = () => {
      closed = true;
      resolve(connection);
    };
    socket.on('close', close);
    socket.on('end', close);
    socket.on('error', close);
    sockets.push(socket);
  });
}

/** The answer of HAProxy's admin socket to `command`. */
function admin(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(adminSocket, () => socket.end(`${command}\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  binary =
    process.env.HAPROXY ||
    execFileSync('bash', [join(__dirname, '..', '..', 'scripts', 'ensure-haproxy.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
  const apiPort = await freePort();
  backend = createServer((req, res) => {
    req.resume();
    res.setHeader('content-type', 'application/json');
    res.end('{"status":"ok"}');
  });
  await new Promise<void>((resolve) => backend.listen(apiPort, '127.0.0.1', resolve));
  lbPort = await freePort();
  lbEnv = {
    ...process.env,
    LB_BIND: `127.0.0.1:${lbPort},ipv6@::1:${lbPort}`,
    ERRORS_DIR: DEPLOY,
    API_1: `127.0.0.1:${apiPort}`,
    API_2: `127.0.0.1:${apiPort}`,
    LB_MAXCONN: String(TOTAL),
    LB_SOURCE_MAX_CONN: String(PER_SOURCE),
  };
  const dir = mkdtempSync(join(tmpdir(), 'haproxy-'));
  adminSocket = join(dir, 'admin.sock');
  writeFileSync(join(dir, 'admin.cfg'), `global\n  stats socket ${adminSocket} mode 600 level admin\n`);
  haproxy = spawn(binary, ['-f', CONFIG, '-f', join(dir, 'admin.cfg'), '-db'], { env: lbEnv, stdio: 'ignore' });
  const deadline = Date.now() + 15_000;
  while ((await get('127.0.0.3')) !== 200) {
    if (Date.now() > deadline) throw new Error('HAProxy did not answer');
    await new Promise((r) => setTimeout(r, 100));
  }
  // The connection above has closed and left its address's count.
  await new Promise((r) => setTimeout(r, 200));
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  haproxy?.kill('SIGKILL');
  await new Promise((resolve) => backend?.close(resolve));
});

test('one address holding idle connections gets no more than its cap, and another address is still answered', async () => {
  // As many idle connections as the load balancer takes in all, from one address.
  const idle = [];
  for (let i = 0; i < TOTAL; i++) idle.push(await idleConnection());
  await new Promise((r) => setTimeout(r, 500));

  // The load balancer kept the first PER_SOURCE and closed the rest at once (well before the 10 s
  // `timeout http-request` that would close an idle connection anyway).
  expect(idle.filter((c) => c.open()).length).toBe(PER_SOURCE);
  // This address gets nothing more while it holds them...
  expect(await get('127.0.0.1')).not.toBe(200);
  // ...and another address is answered, every time.
  const others = await Promise.all(Array.from({ length: 5 }, () => get('127.0.0.2')));
  expect(others).toEqual([200, 200, 200, 200, 200]);

  // Once the first address lets its connections go, it is answered again.
  for (const c of idle) c.socket.destroy();
  await new Promise((r) => setTimeout(r, 200));
  expect(await get('127.0.0.1')).toBe(200);
});

test('an IPv6 client is counted by its /64: the stick table holds ::1 as ::', async () => {
  const { socket, open } = await idleConnection('::1');
  await new Promise((r) => setTimeout(r, 200));
  expect(open()).toBe(true);
  const table = await admin('show table broker');
  // One entry per /64: ::1 and every other address of ::/64 share the key ::.
  expect(table).toMatch(/ key=:: .*conn_cur=1/);
  expect(table).not.toMatch(/ key=::1 /);
  socket.destroy();
});

test('the configuration is valid and HAProxy has no warning about it', () => {
  const check = spawnSync(binary, ['-c', '-f', CONFIG], { env: lbEnv, encoding: 'utf8' });
  expect(check.status).toBe(0);
  expect(`${check.stdout}${check.stderr}`).not.toMatch(/WARNING|ALERT/);
});
