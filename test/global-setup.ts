import { ensureTemporalCli, ensureTemporalTestServer } from '../scripts/lib/temporal-cli';
import { chromiumPath } from './helpers/chromium';
import { redisServerPath } from './helpers/redis';

/**
 * Finds (or builds, once) the temporal CLI, Temporal's time-skipping test server, redis-server and
 * Chromium (installed when missing); test files read their paths from the environment.
 */
export default function globalSetup(): void {
  process.env.TEMPORAL_CLI_PATH = ensureTemporalCli();
  process.env.TEMPORAL_TEST_SERVER_PATH = ensureTemporalTestServer();
  process.env.REDIS_SERVER_PATH = redisServerPath();
  process.env.CHROMIUM_PATH = chromiumPath();
}
