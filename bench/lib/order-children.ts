/**
 * The processes of `npm run bench:orders`: the broker's API and worker from their production entries
 * (src/api/main.ts, src/worker/main.ts), and bench/orders-child.ts's simulators and bench workers,
 * each its own child process so that each one's CPU time can be read apart (/proc). None outlives
 * the benchmark.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { compiledScript } from './compiled';

export interface ChildHandle {
  name: string;
  pid: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
/** Children being stopped on purpose: their exit is not reported. */
const stopping = new Set<ChildProcess>();
const ROOT = join(__dirname, '..', '..');

/**
 * Starts `node [flags] <script> [args]` from the repository root, `script` compiled
 * (bench/lib/compiled.ts: JavaScript, as in production, not the sources through tsx). Its output goes to
 * `logPath` (the worker's Temporal SDK logs every activity at INFO whatever LOG_LEVEL says: to a
 * file it costs what it costs in production, without flooding the terminal); its last lines are
 * printed to stderr if it exits before it is stopped.
 */
export function startChild(
  name: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  logPath: string,
  nodeFlags: string[] = [],
): ChildHandle {
  const log = openSync(logPath, 'a');
  const child = spawn(process.execPath, [...nodeFlags, compiledScript(script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  child.once('exit', (code, signal) => {
    if (stopping.has(child)) return;
    const tail = readFileSync(logPath, 'utf8').split('\n').slice(-30).join('\n');
    process.stderr.write(`[bench:orders] ${name} exited (code ${code}, signal ${signal}); the end of ${logPath}:\n${tail}\n`);
  });
  return {
    name,
    pid: child.pid ?? -1,
    stop: async () => {
      stopping.add(child);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Kills whatever child is still running (on a failure's way out). */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** A port free on 127.0.0.1 right now (for a child that must know another's port before either starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `check` does (polled every 200 ms), or rejects after `timeoutMs`. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The pids of this process's children whose command line contains `fragment` (Linux /proc): the
 * Temporal dev server that TestWorkflowEnvironment starts is one, and it does not say its pid.
 */
export function childPidsMatching(fragment: string, parent = process.pid): number[] {
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmdline.includes(fragment)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
