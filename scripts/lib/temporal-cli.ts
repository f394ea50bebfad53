import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/** Path of the temporal CLI, building it first when the machine has none (scripts/ensure-temporal-cli.sh). */
export function ensureTemporalCli(): string {
  const script = resolve(__dirname, '..', 'ensure-temporal-cli.sh');
  return execFileSync('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' }).trim();
}

/** Path of the launcher of Temporal's Java time-skipping test server (scripts/ensure-temporal-test-server.sh). */
export function ensureTemporalTestServer(): string {
  const script = resolve(__dirname, '..', 'ensure-temporal-test-server.sh');
  return execFileSync('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' }).trim();
}
