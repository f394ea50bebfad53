import { z } from 'zod';
import { DEFAULT_SANDBOX_PORT } from '.';
import { parseEnvironment, SimulatorSecretSchema } from './env';
import { productionSecretProblems } from './simulated-providers';

const optionalString = z.string().trim().optional();

/** The simulator host's own variables (README, "Configuration"): it runs apart from the broker. */
const SimulatorEnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    SIMULATOR_HOST: z.string().default('127.0.0.1'),
    SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_SANDBOX_PORT),
    SIMULATOR_PUBLIC_URL: z.url().optional(),
    /** The broker's base URL; each simulated provider posts its webhooks to <BROKER_URL>/api/webhooks/<code>. */
    BROKER_URL: z.url().default('http://127.0.0.1:3000'),
    SIMULATOR_SECRET: SimulatorSecretSchema,
    SANDBOX_API_KEY: optionalString,
    SANDBOX_WEBHOOK_SECRET: optionalString,
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    for (const { variable, message } of productionSecretProblems(env)) ctx.addIssue({ code: 'custom', path: [variable], message });
  });

export type SimulatorEnv = z.infer<typeof SimulatorEnvSchema>;

/** Parses the simulator host's environment; in production it refuses the repository's credentials, naming the variable. */
export function parseSimulatorEnv(source: NodeJS.ProcessEnv = process.env): SimulatorEnv {
  return parseEnvironment(SimulatorEnvSchema, source);
}
