/** Forks bench/servers.ts children and stops them again; none outlives the benchmark. */
import { fork, type ChildProcess } from 'node:child_process';
import { apiNodeFlags } from './api-node-flags';
import { compiledScript } from './compiled';
import type { AllocationReading, AllocationSite } from './memory';
import type { ChildCommand, ChildMessage, ServerSpec } from './protocol';

export interface RunningServer {
  url: string;
  pid: number;
  /** role "api": the names of the app's layers, in order (the /api router's inside `api( … )`). */
  layers?: string[];
  /** role "api": the names `strip` takes. */
  strippable?: string[];
  /** role "api": leaves the named layers out from now on (none: all back in); resolves to those left out. */
  strip(names: string[]): Promise<string[]>;
  /** role "api": the bytes its JS heap has allocated since it started (bench/lib/memory.ts). */
  memory(): Promise<AllocationReading>;
  /** role "api": starts V8's sampling heap profiler in the child, or stops it and resolves to its sites. */
  heapSampling(action: 'start' | 'stop', byFile?: boolean): Promise<AllocationSite[]>;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Compiled JavaScript, without tsx (bench/lib/compiled.ts). */
function childExecArgv(spec: ServerSpec): string[] {
  // The broker API runs with its production flags, and so do the servers it is compared with (the
  // bare Express app, the bare fan-out); the simulators stand for other companies' servers.
  const runtime = spec.role === 'sim' ? [] : apiNodeFlags();
  // e.g. BENCH_CHILD_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the servers.
  const extra = (process.env.BENCH_CHILD_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');
  return [...runtime, ...extra];
}

/** `env`: variables of this child only (the offers runs' second API child has METRICS_ENABLED=false). */
export function startServer(
  spec: ServerSpec,
  label: string,
  env: Record<string, string> = {},
  readyTimeoutMs = 60_000,
): Promise<RunningServer> {
  const child = fork(compiledScript('bench/servers.ts'), [label], {
    execArgv: childExecArgv(spec),
    env: { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'production', ...env },
    // Children's output goes to our stderr: our stdout is the report.
    stdio: ['ignore', 2, 2, 'ipc'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      if (child.connected) child.send({ type: 'stop' } satisfies ChildCommand);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };

  return new Promise<RunningServer>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${label}: not ready within ${readyTimeoutMs} ms`));
    }, readyTimeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${label}: exited before it was ready (code ${code}, signal ${signal})`));
    });
    // One command, one answer: the child answers each in turn.
    const ask = <T>(command: ChildCommand, answer: (message: ChildMessage) => T | undefined) =>
      new Promise<T>((resolveAsk, rejectAsk) => {
        child.once('message', (message: ChildMessage) => {
          const value = answer(message);
          if (value !== undefined) resolveAsk(value);
          else rejectAsk(new Error(`${label}: ${message.type === 'error' ? message.message : 'unexpected answer'}`));
        });
        child.send(command);
      });
    const strip = (names: string[]) => ask({ type: 'strip', names }, (m) => (m.type === 'stripped' ? m.removed : undefined));
    const memory = () => ask({ type: 'memory' }, (m) => (m.type === 'memory' ? m.reading : undefined));
    const heapSampling = (action: 'start' | 'stop', byFile?: boolean) =>
      ask({ type: 'heap-sampling', action, byFile }, (m) => (m.type === 'heap-sites' ? m.sites : undefined));
    child.once('message', (message: ChildMessage) => {
      clearTimeout(timer);
      if (message.type !== 'ready') {
        void stop();
        reject(new Error(`${label}: ${message.type === 'error' ? message.message : 'unexpected message'}`));
        return;
      }
      resolve({
        url: `http://127.0.0.1:${message.port}`,
        pid: child.pid ?? -1,
        layers: message.layers,
        strippable: message.strippable,
        strip,
        memory,
        heapSampling,
        stop,
      });
    });
    child.send({ type: 'start', spec } satisfies ChildCommand);
  });
}

/** Stops every child still running (on the way out, also after a failure). */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          if (child.connected) child.send({ type: 'stop' } satisfies ChildCommand);
          else child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5000).unref();
        }),
    ),
  );
}
