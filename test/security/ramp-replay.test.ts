/**
 * Attack: Ramp signs its webhook bodies, but its webhook URL (with the order id and its MAC) is a
 * parameter of the unsigned widget URL. A customer points one cheap purchase's webhookStatusUrl at
 * their own server, collects Ramp's genuinely signed RELEASED body, and posts it to the webhook URL
 * of every other order they hold. The body's purchase, wallet, asset and fiat value must bind it to
 * its own order: it never moves another.
 */
import { createServer, type Server } from 'node:http';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { callApi, eventually } from '../helpers/http';
import { BTC_ADDRESS, checkout, offerThenOrder, waitForStatus, type OrderDraft } from '../helpers/orders';
import { closeServer, listenOnLoopback } from '../helpers/ports';
import { refusedReports, type WebhookDelivery } from '../helpers/provider-events';
import { journeyOrder } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const OTHER_BTC_ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let attackerServer: Server;
let attackerUrl: string;
/** What Ramp posted to the attacker's server. */
const captured: WebhookDelivery[] = [];

beforeAll(async () => {
  env = await startTemporal();
  stack = await startTestStack(env);
  attackerServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([k]) => k.startsWith('x-'))
          .map(([k, v]) => [k, String(v)]),
      );
      captured.push({ query: '', headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  attackerUrl = `${await listenOnLoopback(attackerServer)}/collect`;
});

afterAll(async () => {
  await stack?.stop();
  if (attackerServer) await closeServer(attackerServer);
  await env?.teardown();
});

function rampDraft(overrides: Partial<OrderDraft> = {}): OrderDraft {
  return { ...journeyOrder({ code: 'ramp', market: 'US-TX', paymentMethod: 'card' }), ...overrides };
}

async function rampOrder(draft: OrderDraft) {
  const created = await offerThenOrder(stack.apiUrl, draft);
  expect(created.status).toBe(200);
  return created.body as { id: string; redirect_url: string };
}

/** The order's own webhook URL at the broker, as its widget URL carries it: path and query. */
function webhookUrlOf(order: { redirect_url: string }): URL {
  return new URL(new URL(order.redirect_url).searchParams.get('webhookStatusUrl')!);
}

/** The attacker's purchase, its webhooks diverted: Ramp's signed RELEASED body for it. */
async function collectReleasedBody(amount = '50.00'): Promise<WebhookDelivery> {
  const order = await rampOrder(rampDraft({ from_amount: amount }));
  const widget = new URL(order.redirect_url);
  widget.searchParams.set('webhookStatusUrl', attackerUrl);
  await fetch(widget);
  await checkout(widget.toString(), 'pay');
  const purchaseUrl = widget.toString();
  const released = await eventually(() => Promise.resolve(captured.find((w) => isReleasedFor(w, purchaseUrl))), 'a RELEASED body');
  taken.add(released);
  return released;
}

/** Whether a captured webhook is the RELEASED one of the purchase made through this widget URL. */
function isReleasedFor(webhook: WebhookDelivery, widgetUrl: string): boolean {
  const body = JSON.parse(webhook.body) as { type: string; purchase: { fiatValue: number | string } };
  const amount = new URL(widgetUrl).searchParams.get('fiatValue');
  return body.type === 'RELEASED' && Number(body.purchase.fiatValue) === Number(amount) && !taken.has(webhook);
}
const taken = new Set<WebhookDelivery>();

async function replayTo(victim: { redirect_url: string }, stolen: WebhookDelivery): Promise<number> {
  const url = webhookUrlOf(victim);
  const response = await fetch(`${stack.apiUrl}${url.pathname}${url.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...stolen.headers },
    body: stolen.body,
  });
  return response.status;
}

test('a signed RELEASED body of another purchase never moves an order whose purchase is known', async () => {
  const stolen = await collectReleasedBody();
  const victim = await rampOrder(rampDraft({ from_amount: '150.00' }));
  // The victim's customer opens the widget: Ramp's CREATED webhook reaches the order and pins its purchase.
  const ramp = stack.simulators.get('ramp');
  const acknowledged = ramp.webhooks.attempts.filter((a) => a.httpStatus === 200).length;
  await fetch(victim.redirect_url);
  await eventually(
    () => Promise.resolve(ramp.webhooks.attempts.filter((a) => a.httpStatus === 200).length > acknowledged || undefined),
    'CREATED delivered',
  );

  expect(await replayTo(victim, stolen)).toBe(200);
  await new Promise((r) => setTimeout(r, 2000));
  const status = await callApi(stack.apiUrl, `/api/on_ramp/orders/ramp?code=${victim.id}`);
  expect(['created', 'pending']).toContain(status.body.status);
  expect(status.body.from_amount).toBe('150.00');
  expect(status.body.extras).not.toHaveProperty('transaction_hash');
  const memo = await refusedReports(env.client, victim.id);
  expect(memo.providerOrderId).toMatch(/^\S+$/);
  expect(stolen.body).not.toContain(memo.providerOrderId!.split(':')[0]);

  // Its own purchase still completes it.
  await checkout(victim.redirect_url, 'pay');
  await waitForStatus(stack.apiUrl, 'ramp', victim.id, 'complete');
});

test('nor an order for another wallet whose customer has not opened the widget yet', async () => {
  const stolen = await collectReleasedBody('55.00');
  const victim = await rampOrder(rampDraft({ wallet_address: OTHER_BTC_ADDRESS }));
  expect(await replayTo(victim, stolen)).toBe(200);
  await new Promise((r) => setTimeout(r, 2000));
  expect((await callApi(stack.apiUrl, `/api/on_ramp/orders/ramp?code=${victim.id}`)).body.status).toBe('created');
  const memo = await refusedReports(env.client, victim.id);
  expect(memo.order.status).toBe('created');
  expect(memo.providerOrderId).toBeUndefined();
  expect(memo.order.wallet_address).toBe(OTHER_BTC_ADDRESS);
  expect(BTC_ADDRESS).not.toBe(OTHER_BTC_ADDRESS);
});

test('one purchase completes at most one order: the others it is replayed to refuse it', async () => {
  // Orders with the same wallet, asset and amount, their widgets never opened; then one purchase of that amount.
  const victims = [await rampOrder(rampDraft({ from_amount: '70.00' })), await rampOrder(rampDraft({ from_amount: '70.00' }))];
  const stolen = await collectReleasedBody('70.00');
  for (const victim of victims) expect(await replayTo(victim, stolen)).toBe(200);
  await new Promise((r) => setTimeout(r, 2000));
  const statuses = await Promise.all(
    victims.map(async (v) => (await callApi(stack.apiUrl, `/api/on_ramp/orders/ramp?code=${v.id}`)).body.status),
  );
  // The first holds the purchase (it matches it in every term); the second is refused before its workflow.
  expect(statuses).toEqual(['complete', 'created']);
});
