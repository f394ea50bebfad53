/**
 * The real API and the simulated providers, each on its own loopback HTTP server, with two
 * integrators of their own keys (`burst-a` and `quiet-b`), for tests of one integrator's traffic
 * against another's. Offers need no Temporal: the API's client points where nothing listens.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApi } from '../../src/api/server';
import { sandboxCredentials, withEndpoints, type AppConfig } from '../../src/config';
import { sha256Hex } from '../../src/config/integrators';
import { createLogger } from '../../src/logging';
import { createSimulatorHost, type SimulatorHost } from '../../src/simulators';
import { createTemporalClient } from '../../src/temporal/connection';
import { testConfig } from './config';

export interface TwoIntegratorStack {
  apiUrl: string;
  host: SimulatorHost;
  stop(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** `keys.a` is integrator `burst-a`'s, `keys.b` is `quiet-b`'s; `tap` sees each simulator request before the simulators do. */
export async function startTwoIntegratorStack(
  keys: { a: string; b: string },
  overrides: Partial<AppConfig>,
  tap?: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<TwoIntegratorStack> {
  const simulatorServer = createServer();
  const apiServer = createServer();
  const simulatorUrl = await listen(simulatorServer);
  const apiUrl = await listen(apiServer);
  const config = withEndpoints(
    testConfig({
      ...overrides,
      integrators: [
        { id: 'burst-a', name: 'A', api_key_sha256: [sha256Hex(keys.a)] },
        { id: 'quiet-b', name: 'B', api_key_sha256: [sha256Hex(keys.b)] },
      ],
    }),
    { publicBaseUrl: apiUrl, simulatorUrl },
  );
  const host = createSimulatorHost({ sandbox: sandboxCredentials(config.providerEnv), brokerUrl: apiUrl, publicUrl: simulatorUrl });
  simulatorServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
    tap?.(req, res);
    host.app(req, res);
  });
  const client = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
  apiServer.on('request', buildApi(config, client, createLogger('silent', 'test')));
  return {
    apiUrl,
    host,
    stop: async () => {
      host.stop();
      for (const server of [apiServer, simulatorServer]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}
