import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/** The production worker entry point (src/worker/main.ts) as a child process, so a test can kill -9 it. */
export class WorkerProcess {
  private child?: ChildProcess;
  private output = '';

  constructor(private readonly env: Record<string, string>) {}

  /** Starts the worker and resolves once it polls its task queue. */
  async start(timeoutMs = 60_000): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.output = '';
    await new Promise<void>((resolveReady, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker not ready within ${timeoutMs} ms:\n${this.output}`)), timeoutMs);
      const onData = (chunk: Buffer) => {
        this.output += chunk.toString();
        if (this.output.includes('"worker polling"')) {
          clearTimeout(timer);
          resolveReady();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`worker exited (${code ?? signal}) before it was ready:\n${this.output}`));
      });
    });
  }

  get alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL: no shutdown, no flush; whatever the worker was doing is cut off. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGKILL');
    await exited;
  }

  /** A graceful stop (SIGTERM), for the end of a test. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
