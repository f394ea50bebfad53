import { ensureTemporalCli } from '../scripts/lib/temporal-cli';

/** Finds (or builds, once) the temporal CLI; test files read its path from the environment. */
export default function globalSetup(): void {
  process.env.TEMPORAL_CLI_PATH = ensureTemporalCli();
}
