import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

export const DEFAULT_DEV_API_KEY = 'obk_test_dev_0000000000000000000000000000';
export const DEFAULT_DEV_WEBHOOK_SECRET = 'whsec_ZGV2LW9ubHktd2ViaG9vay1zZWNyZXQtMzJieXRlcyE=';

/** Every environment variable the broker reads (README, "Configuration"). */
export const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('127.0.0.1'),
    PORT: port.default(3000),
    PUBLIC_BASE_URL: optionalString.pipe(z.url().optional()),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

    TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('onramp-orders'),

    ONRAMP_API_KEY: optionalString.pipe(z.string().min(16).optional()),
    ONRAMP_WEBHOOK_URL: optionalString.pipe(z.url().optional()),
    ONRAMP_WEBHOOK_SECRET: optionalString.pipe(z.string().regex(/^whsec_[A-Za-z0-9+/=]{32,}$/).optional()),
    ONRAMP_INTEGRATORS_FILE: optionalString,
    OFFER_TTL_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
    REDIS_URL: optionalString.pipe(z.url().optional()),
    OFFERS_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3000),

    ORDER_CREATE_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(30),
    ORDER_POLL_INITIAL_SECONDS: z.coerce.number().positive().default(30),
    ORDER_POLL_MAX_SECONDS: z.coerce.number().positive().default(1800),
    ORDER_PAYMENT_WINDOW_SECONDS: z.coerce.number().positive().default(86_400),
    ORDER_SETTLED_GRACE_SECONDS: z.coerce.number().positive().default(604_800),

    SANDBOX_URL: optionalString.pipe(z.url().optional()),
    SANDBOX_API_KEY: optionalString,
    SANDBOX_WEBHOOK_SECRET: optionalString,
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.ONRAMP_INTEGRATORS_FILE && !env.ONRAMP_API_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['ONRAMP_INTEGRATORS_FILE'],
        message: 'required in production (or ONRAMP_API_KEY for a single integrator)',
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; a bad value throws a ConfigError naming each offending variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
  );
}
