/**
 * Provider API calls are counted once, in the provider kit's HTTP call, by the provider and the
 * operation each client names on the call, and by outcome.
 */
import { createServer, type Server } from 'node:http';
import { providerRequestDuration, providerRequests } from '../../../src/metrics/metrics';
import { providerRequest } from '../../../src/providers/kit/http';
import { SandboxClient } from '../../../src/providers/sandbox/client';
import { closeServer, listenOnLoopback } from '../../helpers/ports';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/slow') return; // never answered: the call times out
    const status = Number(req.url!.slice(1)) || 200;
    res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  url = await listenOnLoopback(server);
});
afterAll(() => closeServer(server));

async function count(labels: Record<string, string>): Promise<number> {
  const { values } = await providerRequests.get();
  return values
    .filter((v) => Object.entries(labels).every(([k, x]) => (v.labels as Record<string, unknown>)[k] === x))
    .reduce((sum, v) => sum + v.value, 0);
}

test('each client call is counted under its provider and what it is for', async () => {
  // The generic sandbox client, as a simulated provider of its own code, against a server that answers {"ok":true}:
  // the answers fail their schemas, but each call is made and counted first.
  const client = new SandboxClient({ baseUrl: `${url}/200`, apiKey: 'k', webhookSecret: 's' }, 200, 'metered');
  const before = {
    catalogue: await count({ provider: 'metered', operation: 'catalogue', outcome: 'ok' }),
    quote: await count({ provider: 'metered', operation: 'quote', outcome: 'ok' }),
    create: await count({ provider: 'metered', operation: 'create', outcome: 'ok' }),
    status: await count({ provider: 'metered', operation: 'status', outcome: 'ok' }),
  };
  await client.getCurrencies().catch(() => undefined);
  await client.getQuote('').catch(() => undefined);
  await client.createOrder({}).catch(() => undefined);
  await client.getOrder('o').catch(() => undefined);
  await client.getOrderByPartnerId('p').catch(() => undefined);
  expect(await count({ provider: 'metered', operation: 'catalogue', outcome: 'ok' })).toBe(before.catalogue + 1);
  expect(await count({ provider: 'metered', operation: 'quote', outcome: 'ok' })).toBe(before.quote + 1);
  expect(await count({ provider: 'metered', operation: 'create', outcome: 'ok' })).toBe(before.create + 1);
  expect(await count({ provider: 'metered', operation: 'status', outcome: 'ok' })).toBe(before.status + 2);
  const durations = (await providerRequestDuration.get()).values.filter(
    (v) => v.labels.provider === 'metered' && v.labels.operation === 'status' && v.metricName?.endsWith('_count'),
  );
  expect(durations[0]?.value).toBeGreaterThanOrEqual(2);
});

test.each([
  ['/404', 'refused'],
  ['/503', 'server_error'],
  ['/slow', 'timeout'],
])('a call answered %s counts as %s', async (path, outcome) => {
  const before = await count({ provider: 'metered', operation: 'status', outcome });
  await providerRequest(`${url}${path}`, { timeoutMs: 200, call: { provider: 'metered', operation: 'status' } }).catch(() => undefined);
  expect(await count({ provider: 'metered', operation: 'status', outcome })).toBe(before + 1);
});

test('a call that names no provider counts as provider unknown, operation other', async () => {
  const before = await count({ provider: 'unknown', operation: 'other', outcome: 'ok' });
  await providerRequest(`${url}/200`, { timeoutMs: 200 });
  expect(await count({ provider: 'unknown', operation: 'other', outcome: 'ok' })).toBe(before + 1);
});
