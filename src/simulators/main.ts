import { sandboxCredentials } from '../config';
import { parseSimulatorEnv } from '../config/simulator-env';
import { runMain } from '../process';
import { createSimulatorHost } from '.';

/** Runs the provider simulator as its own process (docker-compose, or beside a production-like API). */
runMain('simulator', async (logger) => {
  const env = parseSimulatorEnv();
  const simulator = createSimulatorHost({
    sandbox: sandboxCredentials(env),
    secret: env.SIMULATOR_SECRET,
    brokerUrl: env.BROKER_URL.replace(/\/+$/, ''),
    publicUrl: (env.SIMULATOR_PUBLIC_URL ?? `http://localhost:${env.SIMULATOR_PORT}`).replace(/\/+$/, ''),
    log: (message) => logger.info(message),
  });
  const server = simulator.app.listen(env.SIMULATOR_PORT, env.SIMULATOR_HOST);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  logger.info(
    { port: env.SIMULATOR_PORT, brokerUrl: env.BROKER_URL, providers: [...simulator.simulators.keys()] },
    'provider simulators listening',
  );
  return async () => {
    simulator.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
});
