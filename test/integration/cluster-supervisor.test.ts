/**
 * The cluster's process supervisor (scripts/cluster/supervisor.ts) with a real child process: a
 * kill it did not ask for is followed by a restart, a stop is not, and CPU time adds up across
 * incarnations.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killLeftovers, SupervisedProcess } from '../../scripts/cluster/supervisor';
import { freePort } from '../helpers/ports';

let dir: string;
let port: number;
let supervised: SupervisedProcess | undefined;
const said: string[] = [];

const answers = () =>
  fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) }).then(
    (r) => r.ok,
    () => false,
  );

/** A child that serves HTTP and burns a little CPU at start. */
function childSpec() {
  const script = `let x = 0; for (let i = 0; i < 3e7; i++) x += i; require('node:http').createServer((_, res) => res.end('ok')).listen(${port}, '127.0.0.1');`;
  return { name: 'child', command: process.execPath, args: ['-e', script], probe: answers };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'supervisor-'));
  port = await freePort();
  said.length = 0;
});

afterEach(async () => {
  await supervised?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('restarts a process killed from outside, and keeps counting its CPU', async () => {
  supervised = new SupervisedProcess(childSpec(), { logDir: join(dir, 'logs'), runDir: join(dir, 'run') }, (l) => said.push(l));
  await supervised.start(20_000);
  const firstPid = supervised.pid!;
  expect(readFileSync(join(dir, 'run', 'child.pid'), 'utf8').split('\n')[0]).toBe(String(firstPid));
  const cpuBefore = supervised.cpuMs();
  expect(cpuBefore).toBeGreaterThan(0);

  supervised.kill('SIGKILL');
  await new Promise((r) => setTimeout(r, 100));
  await supervised.ready(20_000);
  expect(supervised.pid).not.toBe(firstPid);
  expect(supervised.restarts).toBe(1);
  expect(said.join('\n')).toMatch(/child exited \(SIGKILL\); restarting/);
  expect(supervised.cpuMs()).toBeGreaterThan(cpuBefore);
  expect(readFileSync(join(dir, 'logs', 'child.log'), 'utf8')).toMatch(/exited \(SIGKILL\)/);
});

test('a clean stop is not followed by a restart', async () => {
  supervised = new SupervisedProcess(childSpec(), { logDir: join(dir, 'logs'), runDir: join(dir, 'run') }, (l) => said.push(l));
  await supervised.start(20_000);
  await supervised.stop();
  await new Promise((r) => setTimeout(r, 1500));
  expect(supervised.pid).toBeUndefined();
  expect(supervised.restarts).toBe(0);
  expect(await answers()).toBe(false);
});

test('a later start kills what a supervisor that died left running', async () => {
  supervised = new SupervisedProcess(childSpec(), { logDir: join(dir, 'logs'), runDir: join(dir, 'run') }, (l) => said.push(l));
  await supervised.start(20_000);
  const orphan = supervised.pid!;
  // As if the supervisor had been killed: the child still runs, its pid file names it.
  supervised.release();
  killLeftovers(join(dir, 'run'), (l) => said.push(l));
  await new Promise((r) => setTimeout(r, 300));
  expect(() => process.kill(orphan, 0)).toThrow();
  expect(said.join('\n')).toMatch(/stopping child \(pid \d+\) left from an earlier run/);
});

test('a pid file whose pid another process has taken since is left alone', () => {
  const runDir = join(dir, 'run');
  mkdirSync(runDir, { recursive: true });
  // This very node process, under a start time it does not have: as if its pid had been reused by
  // another node process (matching on the command alone would kill it).
  writeFileSync(join(runDir, 'worker-1.pid'), `${process.pid}\n${process.execPath}\n`);
  killLeftovers(runDir, (l) => said.push(l));
  expect(said).toEqual([]);
  expect(() => process.kill(process.pid, 0)).not.toThrow();
});
