/**
 * Mercuryo signs its callbacks over the body without whitespace, so whitespace is outside the
 * signature: a genuine callback re-sent with whitespace added verifies. It must then be the same
 * event (no new event id to slip past de-duplication and move an order back), or be refused. And a
 * genuinely signed callback in a status Mercuryo does not document must never move an order.
 * End to end: real HTTP, a real Temporal server, the Mercuryo simulator; what reached the order is
 * read from its workflow's history.
 */
import { createHmac } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import type { OutgoingWebhook } from '../../src/simulators/kit/webhook-sender';
import { orderWorkflowId, providerEventSignal, type ProviderEvent } from '../../src/temporal/order-contract';
import { callApi, eventually } from '../helpers/http';
import { checkout, draftOrder, waitForStatus } from '../helpers/orders';
import { MARKETS } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let stack: LocalStack;
/** Every callback the Mercuryo simulator sent, exactly as signed and sent. */
const sent: OutgoingWebhook[] = [];

beforeAll(async () => {
  env = await startTemporal();
  stack = await startTestStack(env);
  const sender = stack.simulators.get('mercuryo').webhooks;
  const send = sender.send.bind(sender);
  sender.send = (webhook) => {
    sent.push(webhook);
    send(webhook);
  };
});

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

/** An order placed as the spec's sequence places it, from this machine (the widget sees 127.0.0.1), its widget opened. */
async function openedOrder(): Promise<{ id: string; redirect_url: string }> {
  const draft = draftOrder({ provider_code: 'mercuryo', payment_method: 'card', ...MARKETS.GB, ip: '127.0.0.1' });
  const query = new URLSearchParams({
    external_user_id: draft.external_user_id,
    currency_from: String(draft.from_currency),
    currency_to: String(draft.to_currency),
    amount_from: draft.from_amount,
    country: draft.country_code,
    ip: '127.0.0.1',
  });
  expect((await callApi(stack.apiUrl, `/api/on_ramp/offers?${query.toString()}`)).body).toHaveProperty('mercuryo');
  const created = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft });
  expect(created.status).toBe(200);
  expect((await fetch(created.body.redirect_url)).status).toBe(200);
  return created.body;
}

function callbackOf(orderId: string, providerStatus: string): Promise<OutgoingWebhook> {
  return eventually(
    () => Promise.resolve(sent.find((w) => w.orderKey === orderId && w.status === providerStatus)),
    `the ${providerStatus} callback`,
  );
}

function postCallback(body: string, signature: string): Promise<Response> {
  return fetch(`${stack.apiUrl}/api/webhooks/mercuryo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': signature },
    body,
  });
}

/** The provider events signalled to the order's workflow, from its history. */
async function signalled(orderId: string): Promise<ProviderEvent[]> {
  const { events } = await env.client.workflow.getHandle(orderWorkflowId(orderId)).fetchHistory();
  return (events ?? []).flatMap((event) => {
    const signal = event.workflowExecutionSignaledEventAttributes;
    if (signal?.signalName !== providerEventSignal.name || !signal.input?.payloads?.[0]) return [];
    return [defaultPayloadConverter.fromPayload<ProviderEvent>(signal.input.payloads[0])];
  });
}

/** Resolves once the workflow has finished a task after its last signal: the memo then shows what the signals did. */
function settled(orderId: string): Promise<true> {
  return eventually(async () => {
    const events = (await env.client.workflow.getHandle(orderWorkflowId(orderId)).fetchHistory()).events ?? [];
    const last = events.findLastIndex((e) => e.workflowExecutionSignaledEventAttributes != null);
    return events.slice(last + 1).some((e) => e.workflowTaskCompletedEventAttributes != null) ? true : undefined;
  }, `order ${orderId} to process its signals`);
}

const orderNow = async (id: string) => (await callApi(stack.apiUrl, `/api/on_ramp/orders/mercuryo?code=${id}`)).body;

test('a genuine callback re-sent with whitespace added is the same event or refused: it never moves the order back', async () => {
  const order = await openedOrder();
  expect((await checkout(order.redirect_url, 'hold')).status).toBe(200);
  await waitForStatus(stack.apiUrl, 'mercuryo', order.id, 'hold');
  await stack.simulators.get('mercuryo').webhooks.drain();
  await settled(order.id);
  const before = await orderNow(order.id);
  const eventIdsBefore = new Set((await signalled(order.id)).map((e) => e.eventId));

  // The earlier `pending` callback, genuinely signed, with whitespace put inside its operation id and between its fields.
  const pending = await callbackOf(order.id, 'buy:pending');
  const operationId = (JSON.parse(pending.body) as { data: { id: string } }).data.id;
  const padded = pending.body
    .replace(`"id":"${operationId}"`, `"id":"${operationId.slice(0, 8)} ${operationId.slice(8)}"`)
    .replace(/,/g, ',\n  ');
  expect(padded).not.toBe(pending.body);
  const response = await postCallback(padded, pending.headers['x-signature']!);
  expect([200, 401]).toContain(response.status);

  await settled(order.id);
  const newEventIds = (await signalled(order.id)).map((e) => e.eventId).filter((id) => !eventIdsBefore.has(id));
  expect(newEventIds).toEqual([]);
  const after = await orderNow(order.id);
  expect(after.status).toBe('hold');
  expect(after.updated_at).toBe(before.updated_at);
});

test('a genuinely signed callback in a status Mercuryo does not document never moves the order', async () => {
  const order = await openedOrder();
  const opened = await callbackOf(order.id, 'buy:new');
  await stack.simulators.get('mercuryo').webhooks.drain();
  await settled(order.id);
  const before = await orderNow(order.id);
  expect(before.status).toBe('created');

  const json = JSON.parse(opened.body) as { data: { status: string; updated_at_ts: number } };
  json.data.status = 'brand_new_status';
  json.data.updated_at_ts += 1;
  const body = JSON.stringify(json);
  const mercuryo = stack.config.providers.mercuryo;
  if (mercuryo.mode !== 'simulator') throw new Error('expected the Mercuryo simulator');
  // Signed as Mercuryo documents it, with the widget's real Sign Key: only the status is unknown.
  const signature = createHmac('sha256', mercuryo.config.signKey).update(body.replace(/\s/g, '')).digest('hex');
  const response = await postCallback(body, signature);
  expect([200, 401]).toContain(response.status);

  await settled(order.id);
  expect((await signalled(order.id)).filter((e) => e.providerStatus.endsWith(':brand_new_status'))).toEqual([]);
  const after = await orderNow(order.id);
  expect(after.status).toBe('created');
  expect(after.updated_at).toBe(before.updated_at);
});
