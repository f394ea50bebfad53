/**
 * The in-memory store of signalled provider events, and how the webhook route uses a store: a
 * replay is acknowledged without a second signal, an event is remembered only once its signal was
 * delivered, and a failing store never loses an event.
 */
import { randomUUID } from 'node:crypto';
import express, { Router } from 'express';
import pino from 'pino';
import request from 'supertest';
import { DEV_SANDBOX_WEBHOOK_SECRET } from '../../../src/config';
import { errorHandler, ProblemError } from '../../../src/api/problem';
import { requestLogging } from '../../../src/api/request-log';
import { webhookRoutes } from '../../../src/api/routes/webhooks';
import { MemorySignalledEvents, type SignalledEvent, type SignalledEvents } from '../../../src/api/signalled-events';
import type { OrderService } from '../../../src/orders/service';
import { createProviderRegistry } from '../../../src/providers/registry';
import { testConfig } from '../../helpers/config';
import { signedSandboxWebhook } from '../../helpers/webhooks';

const event = (overrides: Partial<SignalledEvent> = {}): SignalledEvent => ({
  provider: 'sandbox',
  orderId: 'order-1',
  eventId: 'evt-1',
  ...overrides,
});

describe('MemorySignalledEvents', () => {
  test('an event is seen once remembered, and only that event', async () => {
    const store = new MemorySignalledEvents();
    await expect(store.seen(event())).resolves.toBe(false);
    await store.remember(event());
    await expect(store.seen(event())).resolves.toBe(true);
    await expect(store.seen(event({ provider: 'moonpay' }))).resolves.toBe(false);
    await expect(store.seen(event({ orderId: 'order-2' }))).resolves.toBe(false);
    await expect(store.seen(event({ eventId: 'evt-2' }))).resolves.toBe(false);
  });

  test('ids are not joined into one ambiguous string', async () => {
    const store = new MemorySignalledEvents();
    await store.remember(event({ orderId: 'a', eventId: 'b|c' }));
    await expect(store.seen(event({ orderId: 'a|b', eventId: 'c' }))).resolves.toBe(false);
  });

  test('an event is forgotten after the TTL', async () => {
    const store = new MemorySignalledEvents({ ttlMs: 30 });
    await store.remember(event());
    await new Promise((resolve) => setTimeout(resolve, 60));
    await expect(store.seen(event())).resolves.toBe(false);
  });

  test('it keeps at most `max` events, forgetting the oldest', async () => {
    const store = new MemorySignalledEvents({ max: 2 });
    for (const eventId of ['a', 'b', 'c']) await store.remember(event({ eventId }));
    await expect(store.seen(event({ eventId: 'a' }))).resolves.toBe(false);
    await expect(store.seen(event({ eventId: 'b' }))).resolves.toBe(true);
    await expect(store.seen(event({ eventId: 'c' }))).resolves.toBe(true);
  });
});

describe('the webhook route', () => {
  const providers = createProviderRegistry(testConfig());

  function webhookApp(store: SignalledEvents, signal: () => Promise<'delivered' | 'unknown_order'>) {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const signalProviderEvent = jest.fn(signal);
    const app = express();
    requestLogging(app, logger);
    const router = Router();
    webhookRoutes(router, providers, { signalProviderEvent } as unknown as OrderService, store);
    app.use('/api', router);
    app.use(errorHandler);
    const orderId = randomUUID();
    const { body, signature } = signedSandboxWebhook(
      DEV_SANDBOX_WEBHOOK_SECRET,
      { partner_order_id: orderId, status: 'AWAITING_PAYMENT' },
      'evt-1',
    );
    const post = () =>
      request(app).post('/api/webhooks/sandbox').set('Content-Type', 'application/json').set('Sandbox-Signature', signature).send(body);
    return { post, signalProviderEvent, lines, orderId };
  }

  test('a replay is acknowledged without a second signal, and logged with provider, order and event', async () => {
    const { post, signalProviderEvent, lines, orderId } = webhookApp(new MemorySignalledEvents(), () => Promise.resolve('delivered'));
    expect((await post()).status).toBe(200);
    const replay = await post();
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true });
    expect(signalProviderEvent).toHaveBeenCalledTimes(1);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 20,
        provider: 'sandbox',
        orderId,
        eventId: 'evt-1',
        msg: 'provider webhook already signalled; acknowledged without a signal',
      }),
    );
  });

  test('an event whose signal failed is signalled when the provider retries it', async () => {
    let delivered = false;
    const { post, signalProviderEvent } = webhookApp(new MemorySignalledEvents(), () => {
      if (delivered) return Promise.resolve('delivered');
      delivered = true;
      return Promise.reject(new ProblemError('service_unavailable', 'The order engine cannot be reached; try again shortly.'));
    });
    expect((await post()).status).toBe(503);
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    expect(signalProviderEvent).toHaveBeenCalledTimes(2);
  });

  test('a store that fails is bypassed: the event is signalled every time, with a warning', async () => {
    const broken: SignalledEvents = {
      seen: () => Promise.reject(new Error('Redis did not answer within 500 ms')),
      remember: () => Promise.reject(new Error('Redis did not answer within 500 ms')),
    };
    const { post, signalProviderEvent, lines, orderId } = webhookApp(broken, () => Promise.resolve('delivered'));
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    expect(signalProviderEvent).toHaveBeenCalledTimes(2);
    const warnings = lines.filter((line) => line.level === 40);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatchObject({
      provider: 'sandbox',
      orderId,
      eventId: 'evt-1',
      err: { message: 'Redis did not answer within 500 ms' },
    });
  });
});
