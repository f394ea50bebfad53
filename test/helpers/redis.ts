import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createLogger } from '../../src/logging';
import { connectRedis, type RedisConnection } from '../../src/redis/connection';
import { freePort } from './ports';

export interface RedisServer {
  url: string;
  port: number;
  /** The redis-server process id (to pause it with SIGSTOP, say). */
  pid: number;
  /** Stops the server and waits for its process to exit. Safe to call twice. */
  stop(): Promise<void>;
}

let serverPath: string | undefined;

/** The redis-server binary: $REDIS_SERVER_PATH (set by jest's global setup), else found or installed by the script. */
export function redisServerPath(): string {
  serverPath ??=
    process.env.REDIS_SERVER_PATH ||
    execFileSync('bash', [join(__dirname, '../../scripts/ensure-redis-server.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
  return serverPath;
}

/**
 * Runs redis-server under a small bash watchdog. The watchdog stops the server when it is sent
 * SIGTERM (stop()), SIGINT or SIGHUP, and also by itself within 0.2 s of the test process being
 * gone: jest's forceExit, a crash or a SIGKILL leave no server behind (jest sandboxes `process`,
 * so an 'exit' hook in a test file would never run). It prints the server's pid first, for tests
 * that pause the server.
 */
const WATCHDOG = `
server="$1"; shift
"$server" "$@" &
child=$!
echo "redis-server-pid=$child"
trap 'kill -TERM "$child" 2>/dev/null; kill -CONT "$child" 2>/dev/null; wait "$child"; exit 0' TERM INT HUP
while kill -0 "$WATCH_PID" 2>/dev/null && kill -0 "$child" 2>/dev/null; do
  sleep 0.2 & wait $!
done
kill -TERM "$child" 2>/dev/null; kill -CONT "$child" 2>/dev/null
wait "$child"
`;

/** Whether the server answers PING with PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function waitForExit(child: ChildProcess): Promise<void> {
  if (exited(child)) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function startOn(port: number, timeoutMs: number): Promise<RedisServer | undefined> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'];
  const watchdog = spawn('bash', ['-c', WATCHDOG, 'redis-watchdog', redisServerPath(), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WATCH_PID: String(process.pid) },
  });
  // redis-server logs to stdout; the last few kilobytes explain a failed start.
  let output = '';
  let pid: number | undefined;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
    pid ??= Number(/redis-server-pid=(\d+)/.exec(output)?.[1]) || undefined;
  };
  watchdog.stdout.on('data', keep);
  watchdog.stderr.on('data', keep);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (exited(watchdog)) return;
      const killer = setTimeout(() => {
        if (pid) process.kill(pid, 'SIGKILL');
        watchdog.kill('SIGKILL');
      }, 5000);
      watchdog.kill('SIGTERM');
      await waitForExit(watchdog);
      clearTimeout(killer);
    })();
    return stopping;
  };

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited(watchdog)) {
      // Most likely the port was taken between choosing it and binding it.
      if (/Address already in use/i.test(output)) return undefined;
      throw new Error(`redis-server exited (${watchdog.exitCode ?? watchdog.signalCode}) on port ${port}: ${output.trim()}`);
    }
    if (pid && (await ping(port))) return { url: `redis://127.0.0.1:${port}`, port, pid, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`redis-server did not answer PING on port ${port} within ${timeoutMs} ms: ${output.trim()}`);
}

/**
 * Starts a throwaway redis-server on 127.0.0.1 (no persistence, in the foreground) and waits until
 * it answers PING. `port` restarts a server where a stopped one was (for reconnection tests).
 */
export async function startRedis(options: { port?: number; timeoutMs?: number } = {}): Promise<RedisServer> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  for (let attempt = 0; attempt < 5; attempt++) {
    const server = await startOn(options.port ?? (await freePort()), timeoutMs);
    if (server) return server;
    if (options.port !== undefined) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('could not start redis-server on a free port');
}

/**
 * A redis-server and two connections to it, as two API processes sharing it would hold, for the
 * tests of a file (or a describe block): started before them, closed after. Fields set by `beforeAll`.
 */
export function useSharedRedis(): { server: RedisServer; first: RedisConnection; second: RedisConnection } {
  const shared = {} as { server: RedisServer; first: RedisConnection; second: RedisConnection };
  const logger = createLogger('silent', 'test');
  beforeAll(async () => {
    shared.server = await startRedis();
    shared.first = await connectRedis(shared.server.url, logger);
    shared.second = await connectRedis(shared.server.url, logger);
  });
  afterAll(async () => {
    await shared.first?.close();
    await shared.second?.close();
    await shared.server?.stop();
  });
  return shared;
}
