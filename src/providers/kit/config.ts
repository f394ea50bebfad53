/** A bad configuration value; the message names each offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** How one provider runs: against its real API (live), against the simulator host, or not at all. */
export type ProviderResolution<C> = { mode: 'live'; config: C } | { mode: 'simulator'; config: C } | { mode: 'disabled'; reason: string };
