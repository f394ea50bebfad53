import { ensureTemporalCli, ensureTemporalTestServer } from '../scripts/lib/temporal-cli';
import { chromiumPath } from './helpers/chromium';
import { prometheusPath } from './helpers/prometheus';
import { redisServerPath } from './helpers/redis';

/**
 * Finds (or builds, once) the temporal CLI, Temporal's time-skipping test server, redis-server,
 * Prometheus (with its promtool) and Chromium (installed when missing); test files read their paths
 * from the environment.
 */
export default function globalSetup(): void {
  process.env.TEMPORAL_CLI_PATH = ensureTemporalCli();
  process.env.TEMPORAL_TEST_SERVER_PATH = ensureTemporalTestServer();
  process.env.REDIS_SERVER_PATH = redisServerPath();
  process.env.PROMETHEUS_PATH = prometheusPath();
  process.env.CHROMIUM_PATH = chromiumPath();
}
