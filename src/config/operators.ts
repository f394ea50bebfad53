import { z } from 'zod';
import { ConfigError } from '../providers/kit/config';
import { DEFAULT_DEV_API_KEY } from './env';
import { DEMO_INTEGRATOR_API_KEY_SHA256 } from './published-values';
import { sha256Hex, Sha256Hex, type Integrator } from './integrators';
import { KeyDirectory, readHoldersFile } from './key-directory';

/**
 * An operator: a person of the team running the broker, who works the review queue through the
 * operator API (docs/operations.md, "Review queue"). The id names them in every action they take.
 */
export const OperatorSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._@-]{0,62}$/),
  name: z.string().min(1).max(200),
  api_key_sha256: z.array(Sha256Hex).min(1),
});
export type Operator = z.infer<typeof OperatorSchema>;

export const OperatorsFileSchema = z
  .object({ operators: z.array(OperatorSchema).min(1) })
  .refine((f) => new Set(f.operators.map((o) => o.id)).size === f.operators.length, { message: 'operator ids must be unique' });

/** The operator of a development stack when ONRAMP_OPERATOR_KEY is unset: published here, so production refuses it. */
export const DEFAULT_DEV_OPERATOR_KEY = 'obo_test_dev_0000000000000000000000000000';
export const DEV_OPERATOR_ID = 'dev-operator';

/**
 * The operators: from ONRAMP_OPERATORS_FILE, else one from ONRAMP_OPERATOR_KEY, else (outside
 * production) the development operator; in production with neither, none (the operator API is not
 * served). A key that is also an integrator's is refused: the two APIs must never share a credential.
 */
export function operatorsFrom(
  env: { NODE_ENV: string; ONRAMP_OPERATORS_FILE?: string; ONRAMP_OPERATOR_KEY?: string },
  integrators: readonly Integrator[],
): Operator[] {
  const production = env.NODE_ENV === 'production';
  let operators: Operator[];
  if (env.ONRAMP_OPERATORS_FILE) {
    operators = readHoldersFile('ONRAMP_OPERATORS_FILE', env.ONRAMP_OPERATORS_FILE, OperatorsFileSchema).operators;
  } else if (env.ONRAMP_OPERATOR_KEY !== undefined || !production) {
    const key = env.ONRAMP_OPERATOR_KEY ?? DEFAULT_DEV_OPERATOR_KEY;
    operators = [{ id: DEV_OPERATOR_ID, name: 'Development operator', api_key_sha256: [sha256Hex(key)] }];
  } else {
    operators = [];
  }
  const problems: string[] = [];
  const integratorDigests = new Set(integrators.flatMap((i) => i.api_key_sha256));
  // Every key this repository publishes: the development operator's, the development and demo integrators'.
  const published = new Set([sha256Hex(DEFAULT_DEV_OPERATOR_KEY), sha256Hex(DEFAULT_DEV_API_KEY), DEMO_INTEGRATOR_API_KEY_SHA256]);
  for (const operator of operators) {
    const where = env.ONRAMP_OPERATORS_FILE ? `ONRAMP_OPERATORS_FILE: operator ${operator.id}` : 'ONRAMP_OPERATOR_KEY';
    if (operator.api_key_sha256.some((digest) => integratorDigests.has(digest)))
      problems.push(`${where}: a key that is also an integrator's API key; operators need keys of their own`);
    if (production && operator.api_key_sha256.some((digest) => published.has(digest)))
      problems.push(
        `${where}: a key published in this repository (the development operator's, or a development or demo integrator's); choose a private one`,
      );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return operators;
}

/** Looks operators up by key (digests only, compared in constant time). */
export class OperatorDirectory extends KeyDirectory<Operator> {
  get size(): number {
    return this.holders.length;
  }
}
