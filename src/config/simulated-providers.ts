import { PROVIDERS } from '../providers/manifest';

export const SIMULATOR_SECRET_MIN_LENGTH = 32;

/** The simulators' development credentials, published in this repository: anyone can sign with them. */
const PUBLISHED_VALUES: ReadonlySet<string> = new Set(PROVIDERS.flatMap((provider) => provider.publishedValues));

export interface SimulatorSecrets {
  SIMULATOR_SECRET?: string;
  SANDBOX_API_KEY?: string;
  SANDBOX_WEBHOOK_SECRET?: string;
}

export interface ConfigProblem {
  variable: string;
  message: string;
}

/**
 * What stops simulated providers from running on published credentials in production, one problem
 * per variable: the broker and the simulator host both check it.
 */
export function productionSecretProblems(env: SimulatorSecrets): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (env.SIMULATOR_SECRET === undefined) {
    problems.push({
      variable: 'SIMULATOR_SECRET',
      message: `required in production for simulated providers: a private random string of ${SIMULATOR_SECRET_MIN_LENGTH} or more characters, the same for the API, the worker and the simulator host`,
    });
  } else if (PUBLISHED_VALUES.has(env.SIMULATOR_SECRET)) {
    problems.push({ variable: 'SIMULATOR_SECRET', message: 'a value published in this repository; choose a private random one' });
  }
  for (const variable of ['SANDBOX_API_KEY', 'SANDBOX_WEBHOOK_SECRET'] as const) {
    const value = env[variable];
    if (value !== undefined && PUBLISHED_VALUES.has(value)) {
      problems.push({
        variable,
        message: "the repository's development value; unset it (it is then derived from SIMULATOR_SECRET) or choose a private one",
      });
    }
  }
  return problems;
}

/** In production, a simulator host (SANDBOX_URL) needs the explicit opt-in and private secrets. */
export function simulatedProvidersProblems(
  env: SimulatorSecrets & { NODE_ENV: string; SANDBOX_URL?: string; SANDBOX_IN_PRODUCTION: boolean },
): ConfigProblem[] {
  if (env.NODE_ENV !== 'production' || env.SANDBOX_URL === undefined) return [];
  if (!env.SANDBOX_IN_PRODUCTION) {
    return [
      {
        variable: 'SANDBOX_IN_PRODUCTION',
        message:
          'SANDBOX_URL is set in production, which runs simulated providers; set SANDBOX_IN_PRODUCTION=true to allow that (demos only), or unset SANDBOX_URL',
      },
    ];
  }
  return productionSecretProblems(env);
}
