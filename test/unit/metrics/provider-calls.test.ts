/**
 * Provider API calls are counted once, in the provider kit's HTTP call, by the provider and the
 * operation of the adapter method that made them (labelledAdapter), and by outcome.
 */
import { createServer, type Server } from 'node:http';
import { providerRequestDuration, providerRequests } from '../../../src/metrics/metrics';
import { providerRequest } from '../../../src/providers/kit/http';
import { asProviderOperation, labelledAdapter } from '../../../src/providers/kit/operation';
import type { ProviderAdapter } from '../../../src/providers/types';
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

/** A fake adapter whose every method makes one call to `path`. */
function adapterCalling(path: string): ProviderAdapter {
  const call = () => providerRequest(`${url}${path}`, { timeoutMs: 200 }).then(() => undefined as never);
  return {
    info: { code: 'metered', name: 'Metered', description: '', icon_url: 'https://example.com/i.png' },
    requiresCustomerIp: true,
    getCatalogue: call,
    getQuote: () => asProviderOperation('token', call).then(call),
    createOrder: call,
    getOrder: call,
    parseWebhook: call,
    validateAddress: () => ({ valid: true }),
  };
}

test('each adapter method labels its calls with its operation; a nested token call is `token`', async () => {
  const adapter = labelledAdapter(adapterCalling('/200'));
  expect(adapter.requiresCustomerIp).toBe(true);
  expect(adapter.validateAddress?.('bitcoin', 'x')).toEqual({ valid: true });
  const before = {
    quote: await count({ provider: 'metered', operation: 'quote', outcome: 'ok' }),
    token: await count({ provider: 'metered', operation: 'token', outcome: 'ok' }),
    status: await count({ provider: 'metered', operation: 'status', outcome: 'ok' }),
    create: await count({ provider: 'metered', operation: 'create', outcome: 'ok' }),
    catalogue: await count({ provider: 'metered', operation: 'catalogue', outcome: 'ok' }),
    webhook: await count({ provider: 'metered', operation: 'webhook', outcome: 'ok' }),
  };
  await adapter.getQuote({} as never);
  await adapter.getOrder('o');
  await adapter.createOrder({} as never);
  await adapter.getCatalogue();
  await adapter.parseWebhook({} as never);
  expect(await count({ provider: 'metered', operation: 'quote', outcome: 'ok' })).toBe(before.quote + 1);
  expect(await count({ provider: 'metered', operation: 'token', outcome: 'ok' })).toBe(before.token + 1);
  expect(await count({ provider: 'metered', operation: 'status', outcome: 'ok' })).toBe(before.status + 1);
  expect(await count({ provider: 'metered', operation: 'create', outcome: 'ok' })).toBe(before.create + 1);
  expect(await count({ provider: 'metered', operation: 'catalogue', outcome: 'ok' })).toBe(before.catalogue + 1);
  expect(await count({ provider: 'metered', operation: 'webhook', outcome: 'ok' })).toBe(before.webhook + 1);
  const durations = (await providerRequestDuration.get()).values.filter(
    (v) => v.labels.provider === 'metered' && v.labels.operation === 'status' && v.metricName?.endsWith('_count'),
  );
  expect(durations[0]?.value).toBeGreaterThanOrEqual(1);
});

test.each([
  ['/404', 'refused'],
  ['/503', 'server_error'],
  ['/slow', 'timeout'],
])('a call answered %s counts as %s', async (path, outcome) => {
  const adapter = labelledAdapter(adapterCalling(path));
  const before = await count({ provider: 'metered', operation: 'status', outcome });
  await adapter.getOrder('o').catch(() => undefined);
  expect(await count({ provider: 'metered', operation: 'status', outcome })).toBe(before + 1);
});

test('a call outside any adapter method counts as provider unknown, operation other', async () => {
  const before = await count({ provider: 'unknown', operation: 'other', outcome: 'ok' });
  await providerRequest(`${url}/200`, { timeoutMs: 200 });
  expect(await count({ provider: 'unknown', operation: 'other', outcome: 'ok' })).toBe(before + 1);
});
