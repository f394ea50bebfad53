import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { ProcessSpec } from './supervisor';

/** The unprivileged account PostgreSQL runs as when the cluster is started by root (it refuses root). */
export const POSTGRES_OS_USER = 'onramp-cluster';

export interface PostgresRunAs {
  uid: number;
  gid: number;
}

/** Who runs PostgreSQL: the caller, or, for root, an account created once for it. */
export function postgresRunAs(say: (line: string) => void): PostgresRunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, POSTGRES_OS_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    say(`creating the system account ${POSTGRES_OS_USER} to run PostgreSQL (it refuses to run as root)`);
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', POSTGRES_OS_USER]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** Every folder above the data directory must let that account through. */
function checkTraversable(dir: string): void {
  for (let current = dirname(dir); current !== dirname(current); current = dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0)
      throw new Error(
        `PostgreSQL runs as ${POSTGRES_OS_USER}, which cannot enter ${current}: run the cluster from a clone whose folders others may enter, or chmod o+x ${current}`,
      );
  }
}

/** Creates the data directory with initdb on first start (TCP with a password; the superuser is Temporal's user). */
export function initPostgres(options: {
  binDir: string;
  dataDir: string;
  user: string;
  password: string;
  runAs: PostgresRunAs | undefined;
  say: (line: string) => void;
}): void {
  const { binDir, dataDir, user, password, runAs, say } = options;
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const passwordFile = `${dataDir}.password`;
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (runAs) {
    checkTraversable(dataDir);
    chownSync(dataDir, runAs.uid, runAs.gid);
    chownSync(passwordFile, runAs.uid, runAs.gid);
  }
  chmodSync(dataDir, 0o700);
  say(`initialising PostgreSQL in ${dataDir}`);
  execFileSync(
    join(binDir, 'initdb'),
    ['-D', dataDir, '-U', user, `--pwfile=${passwordFile}`, '--auth-host=scram-sha-256', '--auth-local=peer', '-E', 'UTF8', '--locale=C'],
    { stdio: ['ignore', 'ignore', 'pipe'], ...(runAs ?? {}) },
  );
  rmSync(passwordFile, { force: true });
}

export function postgresProcess(options: {
  binDir: string;
  dataDir: string;
  port: number;
  runAs: PostgresRunAs | undefined;
}): Omit<ProcessSpec, 'name'> {
  const { binDir, dataDir, port, runAs } = options;
  return {
    command: join(binDir, 'postgres'),
    args: [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      // TCP only: no socket file to place where the account may write.
      '-c',
      'unix_socket_directories=',
      // Temporal's history, matching, frontend and worker services each keep their own pools.
      '-c',
      'max_connections=300',
    ],
    ...(runAs ?? {}),
    // Fast shutdown: active transactions are rolled back, the server stops cleanly.
    stopSignal: 'SIGINT',
    countChildrenCpu: true,
    probe: () =>
      promisify(execFile)(join(binDir, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-t', '1']).then(
        () => true,
        () => false,
      ),
  };
}
