/**
 * With payload keys set, only the broker moves an order (issue 30, item 2): a `providerEvent` signal
 * sent in clear by anyone with write access to Temporal (a client without the keys, the Web UI's
 * "send signal") is refused by the worker, as is a ciphertext bound to another workflow; failure
 * messages are encrypted too; ENCRYPTION_ACCEPT_CLEAR_UNTIL lets clear payloads in only until its date.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { BANXA_SIMULATOR_CREDENTIALS } from '../../src/providers/banxa/config';
import { EncryptionCodec, EncryptionKeysSchema } from '../../src/temporal/codec';
import { orderWorkflowId, providerEventSignal, type ProviderEvent } from '../../src/temporal/order-contract';
import { FAST_TIMINGS } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { checkout, draftOrder, offerThenOrder, waitForStatus, type OrderDraft } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const KEYS = `k1:${randomBytes(32).toString('base64')}`;
const keys = EncryptionKeysSchema.parse(KEYS);
const TOKEN = 'codec-token-0123456789abcdef0123456789';

let env: TestWorkflowEnvironment;
const stacks: LocalStack[] = [];
const stack = async (vars: NodeJS.ProcessEnv) => {
  // The workflow polls the provider only after a minute: in these tests only signals move an order.
  const started = await startTestStack(env, {
    env: vars,
    config: { orderTimings: { ...FAST_TIMINGS, pollInitialMs: 60_000, pollMaxMs: 60_000 } },
  });
  stacks.push(started);
  return started;
};

beforeAll(async () => {
  env = await startTemporal();
});

afterAll(async () => {
  for (const s of stacks) await s.stop();
  await env?.teardown();
});

async function createOrder(apiUrl: string, draft: OrderDraft = draftOrder()) {
  const res = await offerThenOrder(apiUrl, draft);
  expect(res.status).toBe(200);
  return res.body as { id: string; redirect_url: string; status: string };
}

const context = (orderId: string) => ({ type: 'workflow' as const, namespace: 'default', workflowId: orderWorkflowId(orderId) });
const codec = new EncryptionCodec(keys);

/** The provider order the order's memo names, decoded with the keys (what the broker itself reads). */
async function providerOrderIdOf(orderId: string): Promise<string> {
  const { workflowExecutionInfo } = await env.client.workflowService.describeWorkflowExecution({
    namespace: 'default',
    execution: { workflowId: orderWorkflowId(orderId) },
  });
  const [payload] = await codec.decode([workflowExecutionInfo!.memo!.fields!.providerOrderId!], context(orderId));
  return defaultPayloadConverter.fromPayload<string>(payload!);
}

const history = async (orderId: string) => (await env.client.workflow.getHandle(orderWorkflowId(orderId)).fetchHistory()).events ?? [];

/**
 * A report that completes `target`: the genuine `complete` report of an order paid through the
 * provider's checkout, made to name the target's provider order (what an attacker would write).
 */
async function completionFor(apiUrl: string, target: string): Promise<ProviderEvent> {
  const paid = await createOrder(apiUrl);
  await fetch(paid.redirect_url);
  await checkout(paid.redirect_url, 'pay');
  await waitForStatus(apiUrl, 'sandbox', paid.id, 'complete');
  const signals = (await history(paid.id)).flatMap((e) => {
    const signal = e.workflowExecutionSignaledEventAttributes;
    return signal?.signalName === providerEventSignal.name ? [signal.input!.payloads![0]!] : [];
  });
  const events = await Promise.all(
    signals.map(async (p) => defaultPayloadConverter.fromPayload<ProviderEvent>((await codec.decode([p], context(paid.id)))[0]!)),
  );
  const complete = events.find((e) => e.status === 'complete')!;
  return { ...complete, eventId: `forged-${randomUUID()}`, providerOrderId: await providerOrderIdOf(target) };
}

/** Sends a signal with exactly these payloads, as a client without the broker's codec does. */
async function rawSignal(orderId: string, payloads: Payload[]): Promise<void> {
  await env.client.workflowService.signalWorkflowExecution({
    namespace: 'default',
    workflowExecution: { workflowId: orderWorkflowId(orderId) },
    signalName: providerEventSignal.name,
    input: { payloads },
    identity: 'attacker',
    requestId: randomUUID(),
  });
}

const statusOf = async (apiUrl: string, orderId: string) =>
  ((await callApi(apiUrl, `/api/on_ramp/orders/sandbox?code=${orderId}`)).body as { status: string }).status;

/**
 * Sends the signal and waits until the order has either moved or its worker has failed a workflow
 * task after the signal (the codec refused it): the order's status then, and whether it was refused.
 */
async function signalAndWatch(apiUrl: string, orderId: string, payloads: Payload[]): Promise<{ status: string; refused: boolean }> {
  const before = await statusOf(apiUrl, orderId);
  await rawSignal(orderId, payloads);
  return eventually(async () => {
    const status = await statusOf(apiUrl, orderId);
    const events = await history(orderId);
    const lastSignal = events.findLastIndex((e) => e.workflowExecutionSignaledEventAttributes != null);
    const refused = events.slice(lastSignal + 1).some((e) => e.workflowTaskFailedEventAttributes != null);
    return status !== before || refused ? { status, refused } : undefined;
  }, `order ${orderId} to move or refuse its signal`);
}

test('a providerEvent signalled in clear by a client without the keys does not move an order', async () => {
  const { apiUrl } = await stack({ ENCRYPTION_KEYS: KEYS });
  const target = await createOrder(apiUrl);
  const forged = await completionFor(apiUrl, target.id);

  expect(await signalAndWatch(apiUrl, target.id, [defaultPayloadConverter.toPayload(forged)])).toEqual({
    status: 'created',
    refused: true,
  });
});

test('a ciphertext bound to another workflow is refused, even one that would complete the order', async () => {
  const { apiUrl } = await stack({ ENCRYPTION_KEYS: KEYS });
  const target = await createOrder(apiUrl);
  const other = await createOrder(apiUrl);
  const forged = await completionFor(apiUrl, target.id);

  const [copied] = await codec.encode([defaultPayloadConverter.toPayload(forged)], context(other.id));
  expect(await signalAndWatch(apiUrl, target.id, [copied!])).toEqual({ status: 'created', refused: true });

  // The same kind of report bound to its own order is what the broker sends: it moves that order.
  const fresh = await createOrder(apiUrl);
  const [bound] = await codec.encode([defaultPayloadConverter.toPayload(await completionFor(apiUrl, fresh.id))], context(fresh.id));
  expect(await signalAndWatch(apiUrl, fresh.id, [bound!])).toEqual({ status: 'complete', refused: false });
});

test('ENCRYPTION_ACCEPT_CLEAR_UNTIL lets a clear payload in until its date, and not after', async () => {
  const until = new Date(Date.now() + 25_000);
  const { apiUrl } = await stack({ ENCRYPTION_KEYS: KEYS, ENCRYPTION_ACCEPT_CLEAR_UNTIL: until.toISOString() });
  const before = await createOrder(apiUrl);
  const after = await createOrder(apiUrl);
  const forBefore = await completionFor(apiUrl, before.id);
  const forAfter = await completionFor(apiUrl, after.id);
  expect(Date.now()).toBeLessThan(until.getTime() - 2_000);

  expect(await signalAndWatch(apiUrl, before.id, [defaultPayloadConverter.toPayload(forBefore)])).toEqual({
    status: 'complete',
    refused: false,
  });

  await new Promise((resolve) => setTimeout(resolve, until.getTime() - Date.now() + 100));
  expect(await signalAndWatch(apiUrl, after.id, [defaultPayloadConverter.toPayload(forAfter)])).toEqual({
    status: 'created',
    refused: true,
  });
}, 90_000);

describe('failure messages', () => {
  /** Fills the Banxa simulator with more of one customer's orders than the adapter pages through: its create then fails naming the customer. */
  async function crowdBanxa(simulatorUrl: string, externalCustomerId: string): Promise<void> {
    for (let i = 0; i < 501; i++) {
      const res = await fetch(`${simulatorUrl}/banxa/v2/buy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': BANXA_SIMULATOR_CREDENTIALS.apiKey },
        body: JSON.stringify({
          crypto: 'BTC',
          fiat: 'USD',
          fiatAmount: '100',
          walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
          redirectUrl: 'https://example.test/',
          externalCustomerId,
        }),
      });
      expect(res.status).toBeLessThan(300);
    }
  }

  test('a provider error naming the customer leaves no external user id in clear in history; the codec endpoint decodes it', async () => {
    const { apiUrl, simulatorUrl } = await stack({ ENCRYPTION_KEYS: KEYS, CODEC_AUTH_TOKEN: TOKEN });
    const draft = draftOrder({ provider_code: 'banxa' });
    await crowdBanxa(simulatorUrl, draft.external_user_id);
    const res = await offerThenOrder(apiUrl, draft);
    // The provider refused this customer's order: its refusal, not the provider being unavailable.
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('provider_rejected');

    const search = await env.client.workflowService.listWorkflowExecutions({
      namespace: 'default',
      query: `ExternalOrderId = '${draft.external_order_id}'`,
    });
    const workflowId = search.executions[0]!.execution!.workflowId!;
    const { events } = await env.client.workflow.getHandle(workflowId).fetchHistory();
    const raw = Buffer.from(temporal.api.history.v1.History.encode({ events }).finish());
    expect(raw.includes(draft.external_user_id)).toBe(false);

    // Wherever the provider's error went (an activity's failure, a local activity's marker, the update's rejection).
    const failures: Payload[] = [];
    const collect = (node: unknown): void => {
      if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return;
      const encoded = (node as { encodedAttributes?: Payload | null }).encodedAttributes;
      if (encoded) failures.push(encoded);
      for (const value of Object.values(node)) collect(value);
    };
    collect(events);
    expect(failures.length).toBeGreaterThan(0);
    const decoded = await fetch(`${apiUrl}/codec/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, 'x-namespace': 'default' },
      body: JSON.stringify({
        payloads: failures.map((p) => ({
          metadata: Object.fromEntries(Object.entries(p.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
          data: Buffer.from(p.data!).toString('base64'),
        })),
      }),
    });
    expect(decoded.status).toBe(200);
    const { payloads } = (await decoded.json()) as { payloads: { data: string }[] };
    expect(payloads.map((p) => Buffer.from(p.data, 'base64').toString()).join()).toContain(draft.external_user_id);
  }, 90_000);
});
