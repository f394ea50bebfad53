import { BANXA_SIMULATOR_CREDENTIALS } from '../providers/banxa/config';
import { MERCURYO_SIMULATOR_CREDENTIALS } from '../providers/mercuryo/config';
import { MOONPAY_SIMULATOR_CREDENTIALS } from '../providers/moonpay/config';
import { RAMP_SIMULATOR_CREDENTIALS, RAMP_SIMULATOR_WEBHOOK_URL_SECRET } from '../providers/ramp/config';
import { TRANSAK_SIMULATOR_CREDENTIALS } from '../providers/transak/config';
import { DEV_SANDBOX_API_KEY, DEV_SANDBOX_WEBHOOK_SECRET } from './sandbox-credentials';

export const SIMULATOR_SECRET_MIN_LENGTH = 32;

const stringsOf = (credentials: object) => Object.values(credentials).filter((value): value is string => typeof value === 'string');

/** The simulators' development credentials, published in this repository: anyone can sign with them. */
const PUBLISHED_VALUES: ReadonlySet<string> = new Set([
  DEV_SANDBOX_API_KEY,
  DEV_SANDBOX_WEBHOOK_SECRET,
  ...[
    BANXA_SIMULATOR_CREDENTIALS,
    MERCURYO_SIMULATOR_CREDENTIALS,
    MOONPAY_SIMULATOR_CREDENTIALS,
    RAMP_SIMULATOR_CREDENTIALS,
    TRANSAK_SIMULATOR_CREDENTIALS,
  ].flatMap(stringsOf),
  RAMP_SIMULATOR_WEBHOOK_URL_SECRET,
]);

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
