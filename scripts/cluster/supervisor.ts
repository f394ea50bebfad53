import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';

/** How to run one process of the cluster. */
export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Run as this user (PostgreSQL refuses root). */
  uid?: number;
  gid?: number;
  /** The signal of a clean stop (PostgreSQL's fast shutdown is SIGINT). */
  stopSignal?: NodeJS.Signals;
  /** Resolves true once the process serves. */
  probe: () => Promise<boolean>;
  /** Its CPU includes its live child processes (PostgreSQL serves each connection from a child). */
  countChildrenCpu?: boolean;
}

const CLOCK_TICKS_PER_SECOND = 100;
const RESTART_BACKOFF_MS = [500, 1000, 2000, 5000];
/** A process that ran this long before dying starts again from the shortest back-off. */
const HEALTHY_UPTIME_MS = 30_000;
const STOP_GRACE_MS = 15_000;

/**
 * A process's parent, CPU ticks (its own and its reaped children's) and start time (clock ticks after
 * boot, which with the pid names one process for good), from /proc/<pid>/stat (Linux).
 */
function statOf(pid: number): { ppid: number; ticks: number; startTime: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      ticks: [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0), // utime stime cutime cstime
      startTime: fields[19] ?? '',
    };
  } catch {
    return undefined;
  }
}

/** Resident memory of a live process in MB (VmRSS of /proc/<pid>/status). */
function rssMbOf(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time in ms of a live process, with its live descendants when asked. */
function cpuMsOf(pid: number, withChildren: boolean): number | undefined {
  const own = statOf(pid);
  if (!own) return undefined;
  let ticks = own.ticks;
  if (withChildren) {
    const children = new Map<number, number[]>();
    const ticksOf = new Map<number, number>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = statOf(Number(entry));
      if (!stat) continue;
      ticksOf.set(Number(entry), stat.ticks);
      children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
    }
    const queue = [...(children.get(pid) ?? [])];
    for (let child = queue.shift(); child !== undefined; child = queue.shift()) {
      ticks += ticksOf.get(child) ?? 0;
      queue.push(...(children.get(child) ?? []));
    }
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * One supervised process, kept running as a process manager would (systemd's Restart=always, compose's
 * `restart: unless-stopped`): an exit nobody asked for is followed by a restart after a short back-off.
 * Its output goes to <logDir>/<name>.log; its pid to <runDir>/<name>.pid so a later start can clean up
 * after a supervisor that was killed.
 */
export class SupervisedProcess {
  restarts = 0;
  /** The most resident memory seen (sampled every second, main process only), in MB. */
  peakRssMb = 0;
  private failuresInARow = 0;
  private startedAt = 0;
  private child?: ChildProcess;
  private wanted = false;
  private cpuBeforeMs = 0;
  private lastCpuMs = 0;
  private readonly log: WriteStream;
  private restartTimer?: NodeJS.Timeout;
  private cpuTimer?: NodeJS.Timeout;

  constructor(
    readonly spec: ProcessSpec,
    private readonly dirs: { logDir: string; runDir: string },
    private readonly say: (line: string) => void,
  ) {
    mkdirSync(dirs.logDir, { recursive: true, mode: 0o700 });
    mkdirSync(dirs.runDir, { recursive: true, mode: 0o700 });
    // Logs name orders and integrators: for the account that runs the cluster only.
    this.log = createWriteStream(join(dirs.logDir, `${spec.name}.log`), { flags: 'a', mode: 0o600 });
  }

  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  /** CPU used by this process so far, across restarts. */
  cpuMs(): number {
    const pid = this.pid;
    if (pid !== undefined) this.lastCpuMs = cpuMsOf(pid, this.spec.countChildrenCpu ?? false) ?? this.lastCpuMs;
    return this.cpuBeforeMs + this.lastCpuMs;
  }

  /** Starts it and waits until its probe answers. */
  async start(timeoutMs = 120_000): Promise<void> {
    this.wanted = true;
    if (!this.pid) this.spawn();
    await this.ready(timeoutMs);
  }

  async ready(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.pid !== undefined && (await this.spec.probe().catch(() => false))) return;
      if (Date.now() > deadline) throw new Error(`${this.spec.name} was not ready within ${timeoutMs / 1000}s (see its log)`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** A signal as an outside fault would send it; the supervisor restarts the process after it dies. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    const pid = this.pid;
    if (pid === undefined) throw new Error(`${this.spec.name} is not running`);
    process.kill(pid, signal);
  }

  /** From now on an exit is not followed by a restart. */
  release(): void {
    this.wanted = false;
    clearTimeout(this.restartTimer);
  }

  /** A clean stop: the stop signal, then SIGKILL after a grace period. It stays stopped. */
  async stop(): Promise<void> {
    this.release();
    const child = this.child;
    if (!child || this.pid === undefined) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill(this.spec.stopSignal ?? 'SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  /** Stops the process and closes its log. */
  async close(): Promise<void> {
    await this.stop();
    clearInterval(this.cpuTimer);
    await new Promise<void>((r) => this.log.end(() => r()));
  }

  private pidFile(): string {
    return join(this.dirs.runDir, `${this.spec.name}.pid`);
  }

  private spawn(): void {
    const { spec } = this;
    this.cpuBeforeMs += this.lastCpuMs;
    this.lastCpuMs = 0;
    this.log.write(`\n=== ${new Date().toISOString()} starting ${spec.command} ${spec.args.join(' ')}\n`);
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a Ctrl-C in the terminal reaches the supervisor only, which stops
      // the processes in order (workers before the APIs before Temporal before PostgreSQL).
      detached: true,
      ...(spec.uid !== undefined ? { uid: spec.uid, gid: spec.gid } : {}),
    });
    this.child = child;
    this.startedAt = Date.now();
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    if (child.pid !== undefined) writeFileSync(this.pidFile(), `${child.pid}\n${statOf(child.pid)?.startTime ?? ''}\n`, { mode: 0o600 });
    clearInterval(this.cpuTimer);
    // Sampled while it lives: after a SIGKILL /proc no longer has it.
    this.cpuTimer = setInterval(() => {
      this.cpuMs();
      const rss = child.pid === undefined ? undefined : rssMbOf(child.pid);
      if (rss !== undefined) this.peakRssMb = Math.max(this.peakRssMb, rss);
    }, 1000).unref();
    child.once('error', (err) => this.log.write(`=== ${spec.name} could not start: ${err.message}\n`));
    child.once('exit', (code, signal) => {
      this.log.write(`=== ${new Date().toISOString()} exited (${signal ?? `code ${code}`})\n`);
      rmSync(this.pidFile(), { force: true });
      if (!this.wanted) return;
      this.failuresInARow = Date.now() - this.startedAt > HEALTHY_UPTIME_MS ? 0 : this.failuresInARow + 1;
      const delay = RESTART_BACKOFF_MS[Math.min(this.failuresInARow, RESTART_BACKOFF_MS.length - 1)]!;
      this.restarts += 1;
      this.say(`${spec.name} exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
      this.restartTimer = setTimeout(() => {
        if (this.wanted) this.spawn();
      }, delay);
    });
  }
}

/**
 * Kills what a supervisor that died without stopping its children left running: each pid file of the
 * run directory whose process is still the one it names (same pid and start time: a pid reused by
 * another process since is left alone).
 */
export function killLeftovers(runDir: string, say: (line: string) => void): void {
  if (!existsSync(runDir)) return;
  for (const file of readdirSync(runDir)) {
    if (!file.endsWith('.pid')) continue;
    const [pidLine = '', startTime = ''] = readFileSync(join(runDir, file), 'utf8').split('\n');
    const pid = Number(pidLine);
    if (Number.isInteger(pid) && pid > 0 && startTime !== '' && statOf(pid)?.startTime === startTime) {
      say(`stopping ${file.replace(/\.pid$/, '')} (pid ${pid}) left from an earlier run`);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Exited meanwhile.
      }
    }
    rmSync(join(runDir, file), { force: true });
  }
}
