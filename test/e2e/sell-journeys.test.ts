/**
 * Every provider that sells, end to end: real broker, real Temporal server, each provider's
 * simulator speaking its sell protocol, and an integrator endpoint verifying every webhook. A sell
 * offer, the order placed against it, and the customer's walk on the provider's checkout to each
 * final status, heard by the integrator in sequence.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { LocalStack } from '../../src/dev/local-stack';
import { createProviderRegistry } from '../../src/providers/registry';
import { testConfig } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { checkout } from '../helpers/orders';
import { KIT_PROVIDER_CODES, PROVIDER_TEST_KITS } from '../helpers/providers';
import type { SellEnding } from '../helpers/providers/kit';
import { offerThenSellOrder } from '../helpers/sell-orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const ACTIONS: Record<SellEnding, string> = { complete: 'pay', failed: 'fail', expired: 'expire', refunded: 'refund' };

const SELLERS = KIT_PROVIDER_CODES.flatMap((code) => {
  const { sale, saleEndings = ['complete', 'failed', 'expired', 'refunded'] } = PROVIDER_TEST_KITS[code];
  return sale ? [{ code, sale, walks: saleEndings.map((status) => [ACTIONS[status], status] as const) }] : [];
});

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: IntegratorReceiver;

beforeAll(async () => {
  env = await startTemporal();
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  stack = await startTestStack(env, { env: { ONRAMP_WEBHOOK_URL: await receiver.start() } });
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
  await env?.teardown();
});

test('every provider the broker sells through has a sale in its test kit', () => {
  const sellers = createProviderRegistry(testConfig())
    .all()
    .filter((adapter) => adapter.sell)
    .map((adapter) => adapter.info.code);
  expect(sellers.sort()).toEqual(SELLERS.map((s) => s.code).sort());
});

describe.each(SELLERS)('$code', ({ code, sale, walks }) => {
  test.each(walks)('%s on its checkout: the order ends %s, every webhook signed, kind off_ramp, in sequence', async (action, status) => {
    const { offer, created } = await offerThenSellOrder(stack.apiUrl, {}, code, sale);
    expect(created.status).toBe(200);
    const order = created.body;
    expect(order).toMatchObject({ kind: 'off_ramp', from_amount: expect.any(String), to_amount: offer.amount_expected_to });
    // The customer opens the provider's page first (Ramp's widget makes its sale when opened).
    expect((await fetch(order.redirect_url)).status).toBe(200);
    expect((await checkout(order.redirect_url, action)).status).toBe(200);

    const delivered = await eventually(() => {
      const received = receiver.delivered(order.id);
      return Promise.resolve(received.some((w) => w.body.data.status === status) ? received : undefined);
    }, `a ${status} webhook for ${code} sell order ${order.id}`);
    expect(delivered.every((w) => w.verified && w.body.type === 'order.status_changed' && w.body.data.kind === 'off_ramp')).toBe(true);
    expect(delivered.map((w) => w.body.data.sequence)).toEqual(delivered.map((_, i) => i + 1));
    expect(delivered[0]!.body.data.status).toBe('created');
    expect(delivered.at(-1)!.body.data.status).toBe(status);
    // Each status heard once; the deposit, once shown, the same in every webhook.
    expect(delivered.filter((w) => w.body.data.status === status)).toHaveLength(1);
    const deposits = new Set(delivered.map((w) => w.body.data.deposit?.address).filter((a) => a !== undefined));
    expect(deposits.size).toBeLessThanOrEqual(1);

    const read = await eventually(async () => {
      const got = await callApi(stack.apiUrl, `/api/off_ramp/orders/${code}?code=${order.id}`);
      return got.body.status === status ? got : undefined;
    }, `${code} sell order ${order.id} ${status}`);
    expect(read.body).toMatchObject({ id: order.id, kind: 'off_ramp', status });
  });
});
