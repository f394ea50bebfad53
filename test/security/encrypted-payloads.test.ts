/**
 * Customer data in Temporal is encrypted (issue 21): with keys set, an order's history and memo,
 * read by a client without the keys (what anyone with database or Web UI access sees), hold no
 * wallet address, IP, user agent or external user id in clear; the API reads its orders, those
 * recorded in clear before and those encrypted under a rotated-out key; operators decode through the
 * authenticated codec endpoint.
 */
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { EncryptionKeysSchema, searchableHash } from '../../src/temporal/codec';
import { orderWorkflowId } from '../../src/temporal/order-contract';
import { callApi } from '../helpers/http';
import { draftOrder, offerThenOrder } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const OLD_KEY = `k2025:${randomBytes(32).toString('base64')}`;
const NEW_KEY = `k2026:${randomBytes(32).toString('base64')}`;
const TOKEN = 'codec-token-0123456789abcdef0123456789';
const UI_ORIGIN = 'http://ui.example.test:8080';

let env: TestWorkflowEnvironment;
const stacks: LocalStack[] = [];
const stack = async (envVars: NodeJS.ProcessEnv) => {
  const started = await startTestStack(env, { env: envVars });
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

const customer = () =>
  draftOrder({
    ip: `203.0.113.${1 + Math.floor(Math.random() * 250)}`,
    user_agent: `Mozilla/5.0 (Secret-${randomBytes(4).toString('hex')})`,
  });

async function createOrder(apiUrl: string, draft = customer()) {
  const res = await offerThenOrder(apiUrl, draft);
  expect(res.status).toBe(200);
  return { draft, id: (res.body as { id: string }).id };
}

/** Every byte of the order's history as the server holds it, read without the keys. */
async function rawHistory(orderId: string): Promise<Buffer> {
  const history = await env.client.workflow.getHandle(orderWorkflowId(orderId)).fetchHistory();
  return Buffer.from(temporal.api.history.v1.History.encode(history).finish());
}

async function rawDescription(orderId: string) {
  const { workflowExecutionInfo } = await env.client.workflowService.describeWorkflowExecution({
    namespace: 'default',
    execution: { workflowId: orderWorkflowId(orderId) },
  });
  return workflowExecutionInfo!;
}

const rawMemo = async (orderId: string) => (await rawDescription(orderId)).memo!.fields!;

const readOrder = (apiUrl: string, id: string) => callApi(apiUrl, `/api/on_ramp/orders/sandbox?code=${id}`);

test('with keys set, history and memo hold no customer data in clear; the status endpoint reads the order', async () => {
  const encrypted = await stack({ ENCRYPTION_KEYS: OLD_KEY });
  const { draft, id } = await createOrder(encrypted.apiUrl);

  const history = await rawHistory(id);
  for (const secret of [draft.wallet_address, draft.ip as string, draft.user_agent as string, draft.external_user_id]) {
    expect(history.includes(secret)).toBe(false);
  }
  // The integrator's own order reference stays searchable (ExternalOrderId), and only there.
  const withoutSearchAttributes = history.toString('latin1').split(draft.external_order_id).length - 1;
  expect(withoutSearchAttributes).toBe(1);

  const memo = await rawMemo(id);
  expect(Object.keys(memo).length).toBeGreaterThan(0);
  for (const payload of Object.values(memo)) {
    expect(Buffer.from(payload.metadata!.encoding!).toString()).toBe('binary/encrypted');
    const bytes = Buffer.from(payload.data!);
    for (const secret of [draft.wallet_address, draft.ip as string, draft.external_user_id, draft.external_order_id]) {
      expect(bytes.includes(secret)).toBe(false);
    }
  }

  const attributes = (await rawDescription(id)).searchAttributes!.indexedFields!;
  expect(defaultPayloadConverter.fromPayload(attributes.ExternalUserId!)).toBe(
    searchableHash(EncryptionKeysSchema.parse(OLD_KEY)[0]!, draft.external_user_id),
  );

  const read = await readOrder(encrypted.apiUrl, id);
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ id, wallet_address: draft.wallet_address, external_user_id: draft.external_user_id });
});

test('an order recorded in clear before (during ENCRYPTION_ACCEPT_CLEAR_UNTIL), and one encrypted under a rotated-out key, are read by the API with the new keys', async () => {
  const clear = await stack({});
  const before = await createOrder(clear.apiUrl);
  expect((await rawHistory(before.id)).includes(before.draft.wallet_address)).toBe(true);

  const oldKey = await stack({ ENCRYPTION_KEYS: OLD_KEY });
  const underOldKey = await createOrder(oldKey.apiUrl);

  const migrating = new Date(Date.now() + 86_400_000).toISOString();
  const rotated = await stack({ ENCRYPTION_KEYS: `${NEW_KEY},${OLD_KEY}`, ENCRYPTION_ACCEPT_CLEAR_UNTIL: migrating });
  for (const { id, draft } of [before, underOldKey]) {
    const read = await readOrder(rotated.apiUrl, id);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, wallet_address: draft.wallet_address });
  }
  const afterRotation = await createOrder(rotated.apiUrl);
  const [memoPayload] = Object.values(await rawMemo(afterRotation.id));
  expect(Buffer.from(memoPayload!.metadata!['encryption-key-id']!).toString()).toBe('k2026');
});

describe('the codec endpoint', () => {
  let apiUrl: string;
  beforeAll(async () => {
    apiUrl = (await stack({ ENCRYPTION_KEYS: OLD_KEY, CODEC_AUTH_TOKEN: TOKEN, CODEC_CORS_ORIGINS: UI_ORIGIN })).apiUrl;
  });

  const post = (direction: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
    fetch(`${apiUrl}/codec/${direction}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-namespace': 'default', ...headers },
      body: JSON.stringify(body),
    });

  test('decodes an order memo for the Web UI, and encodes', async () => {
    const { draft, id } = await createOrder(apiUrl);
    const memo = Object.values(await rawMemo(id)).map((p) => ({
      metadata: Object.fromEntries(Object.entries(p.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
      data: Buffer.from(p.data!).toString('base64'),
    }));
    const decoded = await post('decode', { payloads: memo });
    expect(decoded.status).toBe(200);
    const { payloads } = (await decoded.json()) as { payloads: { metadata: Record<string, string>; data: string }[] };
    expect(Buffer.from(payloads[0]!.metadata.encoding!, 'base64').toString()).toBe('json/plain');
    expect(payloads.map((p) => Buffer.from(p.data, 'base64').toString()).join()).toContain(draft.wallet_address);

    const clear = { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('"x"').toString('base64') };
    const encoded = (await (await post('encode', { payloads: [clear] })).json()) as { payloads: unknown[] };
    expect(Buffer.from((encoded.payloads[0] as { metadata: Record<string, string> }).metadata.encoding!, 'base64').toString()).toBe(
      'binary/encrypted',
    );
    const roundTrip = (await (await post('decode', encoded)).json()) as { payloads: unknown[] };
    expect(roundTrip.payloads).toEqual([clear]);
  });

  test('refuses a missing or wrong token with 401 problem+json, and bad input with 400', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }] as Record<string, string>[]) {
      const res = await post('decode', { payloads: [] }, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({ code: 'unauthorized' });
    }
    const bad = await post('decode', { payloads: [{ data: '***' }] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'validation_error' });
    const foreign = {
      metadata: {
        encoding: Buffer.from('binary/encrypted').toString('base64'),
        'encryption-key-id': Buffer.from('nope').toString('base64'),
      },
    };
    const undecodable = await post('decode', { payloads: [foreign] });
    expect(undecodable.status).toBe(400);
    expect(await undecodable.json()).toMatchObject({ code: 'validation_error' });
  });

  test("answers CORS preflight for the Web UI's origin only", async () => {
    const preflight = (origin: string) =>
      fetch(`${apiUrl}/codec/decode`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,x-namespace',
        },
      });
    const allowed = await preflight(UI_ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(UI_ORIGIN);
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    const other = await preflight('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const refused = await post('decode', { payloads: [] }, { authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});
