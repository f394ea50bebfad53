/**
 * Issue 30, "no integrator can slow another": a burst of one integrator's requests is worked on a
 * few at a time, so that it never takes the API process's event loop, or the providers, from the
 * others at once. The real API over HTTP, the simulated providers over HTTP, two integrators.
 * Integrator A sends 60 offers requests at once (distinct amounts: nothing is shared) to a slow
 * sandbox provider; the simulator counts the quote calls it holds at once. With A's admission at
 * 4 requests, it never holds more than A's 4 requests' calls, while B's offers go straight in.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApi } from '../../src/api/server';
import { sandboxCredentials, withEndpoints } from '../../src/config';
import { sha256Hex } from '../../src/config/integrators';
import { createLogger } from '../../src/logging';
import { createSimulatorHost, type SimulatorHost } from '../../src/simulators';
import { createTemporalClient } from '../../src/temporal/connection';
import { testConfig } from '../helpers/config';
import { callApi } from '../helpers/http';
import { BTC, USD } from '../helpers/orders';

const A_KEY = 'obk_test_admission_burst_a_0000000000000000';
const B_KEY = 'obk_test_admission_quiet_b_0000000000000000';
const LATENCY_MS = 300;
const ADMITTED = 4;
const BURST = 60;

let apiServer: Server;
let simulatorServer: Server;
let host: SimulatorHost;
let apiUrl: string;
/** Quote calls the simulator is answering now, and the most it answered at once. */
let quoting = 0;
let mostQuoting = 0;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  simulatorServer = createServer();
  apiServer = createServer();
  const simulatorUrl = await listen(simulatorServer);
  apiUrl = await listen(apiServer);
  const config = withEndpoints(
    testConfig({
      integratorAdmission: { concurrency: ADMITTED, queued: 1000 },
      integrators: [
        { id: 'burst-a', name: 'A', api_key_sha256: [sha256Hex(A_KEY)] },
        { id: 'quiet-b', name: 'B', api_key_sha256: [sha256Hex(B_KEY)] },
      ],
    }),
    { publicBaseUrl: apiUrl, simulatorUrl },
  );
  host = createSimulatorHost({ sandbox: sandboxCredentials(config.providerEnv), brokerUrl: apiUrl, publicUrl: simulatorUrl });
  simulatorServer.on('request', (req, res) => {
    if (req.url?.includes('/quotes')) {
      quoting++;
      mostQuoting = Math.max(mostQuoting, quoting);
      res.once('close', () => quoting--);
    }
    host.app(req, res);
  });
  const client = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
  apiServer.on('request', buildApi(config, client, createLogger('silent', 'test')));
});

afterAll(async () => {
  host?.stop();
  for (const server of [apiServer, simulatorServer]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

async function offers(key: string, amount: string): Promise<{ ms: number; status: number; body: Record<string, unknown> }> {
  const query = new URLSearchParams({
    provider_codes: 'sandbox',
    external_user_id: 'user-1',
    currency_from: String(USD),
    currency_to: String(BTC),
    amount_from: amount,
    country: 'GB',
    payment_method: 'card',
  });
  const started = performance.now();
  const res = await callApi(apiUrl, `/api/on_ramp/offers?${query.toString()}`, { apiKey: key });
  return { ms: performance.now() - started, status: res.status, body: res.body as Record<string, unknown> };
}

test("A's burst is worked on a few requests at a time, and B's offers go straight in", async () => {
  expect((await offers(B_KEY, '100')).body.sandbox).toBeDefined();
  host.get('sandbox').faults.latencyMs = LATENCY_MS;
  await offers(B_KEY, '101');
  mostQuoting = 0;

  const burst = Array.from({ length: BURST }, (_, i) => offers(A_KEY, `${300 + i}.5`));
  await new Promise((r) => setTimeout(r, LATENCY_MS));
  const b = await offers(B_KEY, '102');
  const answers = await Promise.all(burst);

  // One quote call per request (one method): never more than A's admitted requests, plus B's one.
  expect(mostQuoting).toBeLessThanOrEqual(ADMITTED + 1);
  // Every one of A's requests is answered in its turn; none is refused (the line holds them all).
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  expect(answers.filter((a) => a.body.sandbox !== undefined).length).toBeGreaterThan(BURST / 2);
  // B did not wait behind A's line: about one provider latency.
  expect(b.body.sandbox).toBeDefined();
  expect(b.ms).toBeLessThan(3 * LATENCY_MS);
}, 60_000);
