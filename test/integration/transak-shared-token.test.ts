/**
 * Transak revokes a partner's access token when it issues a new one, and signs webhooks with the
 * current one. With Redis shared between them, the broker's API process (which verifies webhooks)
 * and a worker process (which creates orders) use one token: neither revokes the other's, and the
 * API verifies webhooks signed with the token the worker obtained. Two adapters in one test file
 * stand for the two processes; they share nothing but Redis.
 */
import { currencyDictionary } from '../../src/domain/currencies';
import { createLogger } from '../../src/logging';
import { connectRedis, type RedisConnection } from '../../src/redis/connection';
import { RedisSharedValues } from '../../src/providers/shared-values';
import { createTransakAdapter, TRANSAK_SIMULATOR_CREDENTIALS, transakConfig } from '../../src/providers/transak';
import type { ProviderAdapter } from '../../src/providers/types';
import { createTransakSimulator } from '../../src/simulators/transak/server';
import { checkout } from '../helpers/orders';
import { useProviderHarness } from '../helpers/provider-harness';
import { startRedis, type RedisServer } from '../helpers/redis';
import { transakOrderRequest } from '../helpers/transak-orders';

let redisServer: RedisServer;
let redis: RedisConnection;
let worker: ProviderAdapter;

beforeAll(async () => {
  redisServer = await startRedis();
  redis = await connectRedis(redisServer.url, createLogger('silent', 'test'));
});

afterAll(async () => {
  await redis?.close();
  await redisServer?.stop();
});

const shared = () => new RedisSharedValues(redis.client, 'test:transak-shared-token:');

/** The harness's adapter plays the API process: it verifies the simulator's webhooks. */
const harness = useProviderHarness({
  code: 'transak',
  config: (urls) => transakConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: 'http://127.0.0.1:3000' }),
  simulator: (urls) =>
    createTransakSimulator({
      publicUrl: urls.publicUrl,
      brokerWebhookUrl: urls.webhookUrl,
      credentials: TRANSAK_SIMULATOR_CREDENTIALS,
      stepDelayMs: 40,
    }),
  adapter: (config) => {
    // The worker process: its own adapter, its own HTTP client and token cache.
    worker = createTransakAdapter(config, currencyDictionary, shared());
    return createTransakAdapter(config, currencyDictionary, shared());
  },
});

test("the API verifies webhooks signed with the worker's token, and no process revokes another's", async () => {
  const orderId = '00000000-0000-4000-8000-00000000a001';
  const order = await worker.createOrder(transakOrderRequest({ orderId }));
  const simulator = harness.simulator;
  expect(simulator.accessTokensIssued).toBe(1);

  expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
  const events = await harness.waitForEvents(orderId, (e) => e.some((event) => event.status === 'complete'));
  expect(events.at(-1)!.status).toBe('complete');
  expect(harness.refusals).toHaveLength(0);
  // The API took the worker's token from Redis instead of issuing one (which would revoke the worker's).
  expect(simulator.accessTokensIssued).toBe(1);
  expect(await worker.getOrder(orderId)).toMatchObject({ status: 'complete' });
  expect(simulator.accessTokenRejections).toBe(0);
});
