/**
 * Attack (availability): a payload the API cannot decode, in an order's or a claim's memo. With
 * ENCRYPTION_KEYS set the codec refuses a payload in clear, one of the first encrypted format after
 * ENCRYPTION_ACCEPT_CLEAR_UNTIL, one under a key it does not hold and one encrypted for another
 * workflow (src/temporal/codec.ts); anyone with write access to Temporal can plant one, and an
 * upgrade or a key set that differs between processes produces them too. Every route that reads
 * such a workflow must answer problem+json with a stable code, never a 500: the order's status,
 * its webhook routes, an order create that meets it, and a provider webhook that meets it as the
 * order or as the claim of its provider order.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import type { Payload, PayloadCodec } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { sha256Hex } from '../../src/config/integrators';
import type { LocalStack } from '../../src/dev/local-stack';
import { providerOrderClaimId } from '../../src/orders/claims';
import { orderIdFor } from '../../src/orders/request';
import { RAMP_SIMULATOR_WEBHOOK_URL_SECRET } from '../../src/providers/ramp/config';
import { rampWebhookQuery } from '../../src/providers/ramp/webhook-url';
import { rampSimulatorSigningKey, signRampBody } from '../../src/simulators/ramp/signing';
import { EncryptionCodec, EncryptionKeysSchema } from '../../src/temporal/codec';
import { orderWorkflowId, PROVIDER_CODE_KEY } from '../../src/temporal/order-contract';
import { TEST_API_KEY } from '../helpers/config';
import { offerThenOrder } from '../helpers/orders';
import { journeyOrder } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const KEYS = `k1:${randomBytes(32).toString('base64')}`;

let env: TestWorkflowEnvironment;
let stack: LocalStack;
/** Writes with the broker's own key, but every payload encrypted for a workflow other than its own. */
let planter: Client;

beforeAll(async () => {
  env = await startTemporal();
  stack = await startTestStack(env, { env: { ENCRYPTION_KEYS: KEYS } });
  const codec = new EncryptionCodec(EncryptionKeysSchema.parse(KEYS));
  const elsewhere = { type: 'workflow' as const, namespace: 'default', workflowId: orderWorkflowId(randomUUID()) };
  const boundElsewhere: PayloadCodec = {
    encode: (payloads: Payload[]) => codec.encode(payloads, elsewhere),
    decode: (payloads: Payload[]) => codec.decode(payloads),
  };
  planter = new Client({ connection: env.client.connection, namespace: 'default', dataConverter: { payloadCodecs: [boundElsewhere] } });
});

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

const MARKET = { code: 'ramp', market: 'US-TX', paymentMethod: 'card' } as const;

/** A workflow under `workflowId` whose memo the API cannot decode; no worker runs it. */
async function plant(workflowType: string, workflowId: string, memo: Record<string, unknown>): Promise<void> {
  await planter.workflow.start(workflowType, {
    workflowId,
    taskQueue: `no-worker-${randomUUID()}`,
    args: [{}],
    memo,
    typedSearchAttributes: [{ key: PROVIDER_CODE_KEY, value: 'ramp' }],
  });
}

/** A Ramp purchase event for this purchase, signed with the key this broker trusts (the simulator's). */
function rampEvent(purchaseId: string): { body: string; signature: string } {
  const body = {
    type: 'CREATED',
    purchase: {
      id: purchaseId,
      purchaseViewToken: randomBytes(16).toString('hex'),
      status: 'PAYMENT_STARTED',
      asset: { address: null, symbol: 'BTC', chain: 'BTC', type: 'NATIVE', name: 'Bitcoin', decimals: 8 },
      cryptoAmount: '100000',
      fiatCurrency: 'USD',
      fiatValue: 80,
      createdAt: new Date().toISOString(),
    },
  };
  return { body: JSON.stringify(body), signature: signRampBody(body, rampSimulatorSigningKey(undefined)) };
}

interface Answer {
  route: string;
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  code: unknown;
}

async function call(
  route: string,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': TEST_API_KEY, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body,
  });
  const text = await response.text();
  let code: unknown;
  try {
    code = (JSON.parse(text) as { code?: unknown }).code;
  } catch {
    code = text;
  }
  return {
    route,
    status: response.status,
    contentType: response.headers.get('content-type'),
    retryAfter: response.headers.get('retry-after'),
    code,
  };
}

const UNREADABLE = {
  status: 503,
  contentType: expect.stringMatching(/^application\/problem\+json/),
  retryAfter: '60',
  code: 'service_unavailable',
};

test('an order whose memo the API cannot decode: every route that reads it answers 503 problem+json, never 500', async () => {
  const integrator = stack.config.integrators.find((i) => i.api_key_sha256.includes(sha256Hex(TEST_API_KEY)))!;
  const draft = journeyOrder(MARKET);
  const orderId = orderIdFor(integrator.id, draft.external_order_id);
  await plant('orderWorkflow', orderWorkflowId(orderId), { order: { id: orderId }, integratorId: integrator.id, providerCode: 'ramp' });

  const event = rampEvent(randomUUID());
  const webhookQuery = new URLSearchParams(rampWebhookQuery(RAMP_SIMULATOR_WEBHOOK_URL_SECRET, orderId)).toString();
  const answers = [
    await call('status', `/api/on_ramp/orders/ramp?code=${orderId}`),
    await call('webhooks', `/api/on_ramp/orders/ramp/webhooks?code=${orderId}`),
    await call('webhooks/resend', `/api/on_ramp/orders/ramp/webhooks/resend?code=${orderId}`, { method: 'POST' }),
    // The same external_order_id again: the API reads the order it names before anything else.
    await call('create', '/api/on_ramp/orders', { method: 'POST', body: JSON.stringify(draft) }),
    await call('provider webhook', `/api/webhooks/ramp?${webhookQuery}`, {
      method: 'POST',
      headers: { 'x-body-signature': event.signature },
      body: event.body,
    }),
  ];
  expect(answers).toEqual(
    ['status', 'webhooks', 'webhooks/resend', 'create', 'provider webhook'].map((route) => ({ route, ...UNREADABLE })),
  );
});

test("a provider order whose claim the API cannot decode: the provider's webhook answers 503 problem+json, never 500", async () => {
  const created = await offerThenOrder(stack.apiUrl, { ...journeyOrder(MARKET), from_amount: '80.00' });
  expect(created.status).toBe(200);
  const order = created.body as { id: string; redirect_url: string };
  const purchaseId = randomUUID();
  await plant('providerOrderClaim', providerOrderClaimId('ramp', purchaseId), { orderId: randomUUID() });

  // The order's own webhook URL, as its widget URL carries it: the order reads; its claim does not.
  const target = new URL(new URL(order.redirect_url).searchParams.get('webhookStatusUrl')!);
  const event = rampEvent(purchaseId);
  const answer = await call('provider webhook', `${target.pathname}${target.search}`, {
    method: 'POST',
    headers: { 'x-body-signature': event.signature },
    body: event.body,
  });
  expect(answer).toEqual({ route: 'provider webhook', ...UNREADABLE });
  // The order itself still reads.
  expect((await call('status', `/api/on_ramp/orders/ramp?code=${order.id}`)).status).toBe(200);
});
