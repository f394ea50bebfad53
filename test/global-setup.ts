import { ensureTemporalCli } from '../scripts/lib/temporal-cli';
import { redisServerPath } from './helpers/redis';

/** Finds (or builds, once) the temporal CLI and redis-server; test files read their paths from the environment. */
export default function globalSetup(): void {
  process.env.TEMPORAL_CLI_PATH = ensureTemporalCli();
  process.env.REDIS_SERVER_PATH = redisServerPath();
}
