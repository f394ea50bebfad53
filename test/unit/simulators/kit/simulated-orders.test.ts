/**
 * The simulators' test-only order routes: the provider's orders listed with the broker's order id
 * each, and webhook switches (drop, duplicate, reorder) for one order, by that id.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { pickOrderSwitches } from '../../../../src/simulators/kit/simulated-orders';
import type { SimOrder } from '../../../../src/simulators/sandbox/orders';
import { SandboxSimulator } from '../../../../src/simulators/sandbox/server';

let receiver: Server;
let webhookUrl: string;
/** The webhooks that arrived: each one's order id and status, in arrival order. */
const arrived: { id: string; status: string }[] = [];
let simulator: SandboxSimulator;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const { order } = JSON.parse(raw) as { order: SimOrder };
      arrived.push({ id: order.id, status: order.status });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/sandbox`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

beforeEach(() => {
  arrived.length = 0;
  simulator = new SandboxSimulator({ apiKey: 'k', webhookSecret: 's', webhookUrl, publicUrl: 'http://sim.invalid', settleDelayMs: 10 });
});

afterEach(() => simulator.stop());

function addOrder(id: string, reference: string): void {
  const now = new Date().toISOString();
  simulator.orders.set(id, {
    id,
    partner_order_id: reference,
    status: 'CREATED',
    fiat_currency: 'USD',
    fiat_amount: '100.00',
    crypto_currency: 'BTC',
    network: 'bitcoin',
    crypto_amount: '0.001',
    wallet_address: 'bc1q',
    payment_method: 'card',
    country: 'GB',
    checkout_url: `http://sim.invalid/checkout/${id}`,
    created_at: now,
    updated_at: now,
  });
}

/** The customer pays, then the test waits for the walk (pending, payment received, complete) and its webhooks. */
async function pay(id: string): Promise<void> {
  expect((await request(simulator.app).post(`/checkout/${id}`).send({ action: 'pay' })).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 60));
  await simulator.webhooks.drain();
}

const statusesOf = (id: string) => arrived.filter((w) => w.id === id).map((w) => w.status);

test('GET /_simulator/orders lists every order with its reference, or those of one reference', async () => {
  addOrder('p-1', 'ref-1');
  addOrder('p-2', 'ref-2');
  const all = await request(simulator.app).get('/_simulator/orders');
  expect(all.status).toBe(200);
  expect(all.body.orders).toEqual([
    { id: 'p-1', reference: 'ref-1', status: 'CREATED', created_at: expect.any(String) },
    { id: 'p-2', reference: 'ref-2', status: 'CREATED', created_at: expect.any(String) },
  ]);
  const one = await request(simulator.app).get('/_simulator/orders?reference=ref-2');
  expect(one.body.orders.map((o: { id: string }) => o.id)).toEqual(['p-2']);
});

test("an order's dropWebhooks switch drops its webhooks only", async () => {
  addOrder('p-1', 'ref-1');
  addOrder('p-2', 'ref-2');
  const set = await request(simulator.app).post('/_simulator/orders/ref-1/faults').send({ dropWebhooks: true, latencyMs: 5 });
  expect(set.body).toEqual({ dropWebhooks: true });
  await pay('p-1');
  await pay('p-2');
  expect(statusesOf('p-1')).toEqual([]);
  expect(statusesOf('p-2')).toEqual(['AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'COMPLETED']);
  expect((await request(simulator.app).get('/_simulator/orders/ref-1/faults')).body).toEqual({ dropWebhooks: true });
  expect((await request(simulator.app).get('/_simulator/faults')).body.dropWebhooks).toBe(false);
});

test("an order's duplicateWebhooks switch sends each of its webhooks twice", async () => {
  addOrder('p-1', 'ref-1');
  await request(simulator.app).post('/_simulator/orders/ref-1/faults').send({ duplicateWebhooks: true });
  await pay('p-1');
  expect(statusesOf('p-1')).toEqual([
    'AWAITING_PAYMENT',
    'AWAITING_PAYMENT',
    'PAYMENT_RECEIVED',
    'PAYMENT_RECEIVED',
    'COMPLETED',
    'COMPLETED',
  ]);
});

test("an order's reorderWebhooks switch holds its webhooks until turned off, then sends them newest first", async () => {
  addOrder('p-1', 'ref-1');
  addOrder('p-2', 'ref-2');
  await request(simulator.app).post('/_simulator/orders/ref-1/faults').send({ reorderWebhooks: true });
  await pay('p-1');
  await pay('p-2');
  expect(statusesOf('p-1')).toEqual([]);
  // The simulator-wide switch going off leaves the order's own hold in place.
  await request(simulator.app).post('/_simulator/faults').send({ reorderWebhooks: false });
  await simulator.webhooks.drain();
  expect(statusesOf('p-1')).toEqual([]);

  await request(simulator.app).post('/_simulator/orders/ref-1/faults').send({ reorderWebhooks: false });
  await simulator.webhooks.drain();
  expect(statusesOf('p-1')).toEqual(['COMPLETED', 'PAYMENT_RECEIVED', 'AWAITING_PAYMENT']);
  expect(statusesOf('p-2')).toEqual(['AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'COMPLETED']);
});

test("an order's switch overrides the simulator-wide one", async () => {
  addOrder('p-1', 'ref-1');
  addOrder('p-2', 'ref-2');
  await request(simulator.app).post('/_simulator/faults').send({ dropWebhooks: true });
  await request(simulator.app).post('/_simulator/orders/ref-1/faults').send({ dropWebhooks: false });
  await pay('p-1');
  await pay('p-2');
  expect(statusesOf('p-1')).toEqual(['AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'COMPLETED']);
  expect(statusesOf('p-2')).toEqual([]);
});

test('pickOrderSwitches keeps the three webhook switches, each only as a boolean', () => {
  expect(pickOrderSwitches({ dropWebhooks: true, duplicateWebhooks: 'yes', reorderWebhooks: false, errorRate: 1 })).toEqual({
    dropWebhooks: true,
    reorderWebhooks: false,
  });
  expect(pickOrderSwitches(null)).toEqual({});
});
