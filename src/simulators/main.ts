import { z } from 'zod';
import { DEFAULT_SANDBOX_PORT, DEV_SANDBOX_API_KEY, DEV_SANDBOX_WEBHOOK_SECRET } from '../config';
import { ConfigError } from '../config/env';
import { runMain } from '../process';
import { createSimulatorHost } from '.';

const SimulatorEnvSchema = z.object({
  SIMULATOR_HOST: z.string().default('127.0.0.1'),
  SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_SANDBOX_PORT),
  SIMULATOR_PUBLIC_URL: z.url().optional(),
  SANDBOX_API_KEY: z.string().min(1).default(DEV_SANDBOX_API_KEY),
  SANDBOX_WEBHOOK_SECRET: z.string().min(1).default(DEV_SANDBOX_WEBHOOK_SECRET),
  /** The broker's base URL; each simulated provider posts its webhooks to <BROKER_URL>/api/webhooks/<code>. */
  BROKER_URL: z.url().default('http://127.0.0.1:3000'),
});

/** Runs the provider simulator as its own process (docker-compose, or beside a production-like API). */
runMain('simulator', async (logger) => {
  const parsed = SimulatorEnvSchema.safeParse(process.env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  const env = parsed.data;
  const simulator = createSimulatorHost({
    sandbox: { apiKey: env.SANDBOX_API_KEY, webhookSecret: env.SANDBOX_WEBHOOK_SECRET },
    brokerUrl: env.BROKER_URL.replace(/\/+$/, ''),
    publicUrl: (env.SIMULATOR_PUBLIC_URL ?? `http://localhost:${env.SIMULATOR_PORT}`).replace(/\/+$/, ''),
    log: (message) => logger.info(message),
  });
  const server = simulator.app.listen(env.SIMULATOR_PORT, env.SIMULATOR_HOST);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  logger.info({ port: env.SIMULATOR_PORT, brokerUrl: env.BROKER_URL, providers: [...simulator.simulators.keys()] }, 'provider simulators listening');
  return async () => {
    simulator.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
});
