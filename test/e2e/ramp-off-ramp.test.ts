/**
 * Ramp's off-ramp end to end: real broker (API and worker), real Temporal server, the Ramp simulator's
 * OFFRAMP widget driven from its page. Sell offers, then a sell order placed against Ramp's, its walk
 * to each final status Ramp documents, and no deposit address on the order (Ramp names it only to
 * the customer's browser). Then the attack: Ramp signs the body but not the URL, and a customer who
 * diverts one sale's webhooks to their own server can post its genuinely signed bodies to the
 * webhook URL of another sell order they hold (its MAC is in that order's widget URL). The sale is
 * claimed by the first order it reaches: it never moves a second.
 */
import { createServer, type Server } from 'node:http';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { callApi, eventually } from '../helpers/http';
import { checkout } from '../helpers/orders';
import { closeServer, listenOnLoopback } from '../helpers/ports';
import { SELL_ETH as ETH, SELL_EUR as EUR, SELL_REFUND_ADDRESS } from '../helpers/sell-orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let attackerServer: Server;
let attackerUrl: string;
/** What Ramp posted to the attacker's server: the signature header and the body. */
const captured: { signature: string; body: string }[] = [];

beforeAll(async () => {
  env = await startTemporal();
  stack = await startTestStack(env);
  attackerServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      captured.push({ signature: String(req.headers['x-body-signature']), body: Buffer.concat(chunks).toString('utf8') });
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

let serial = 0;

/** Ramp's sell offer for 0.5 ETH in EUR in DE, then the sell order placed against it. */
async function rampSellOrder() {
  const user = `ramp-seller-${++serial}-${process.pid}`;
  const offers = await callApi(
    stack.apiUrl,
    `/api/off_ramp/offers?${new URLSearchParams({
      external_user_id: user,
      currency_from: String(ETH),
      currency_to: String(EUR),
      amount_from: '0.5',
      country: 'DE',
      provider_codes: 'ramp',
    }).toString()}`,
  );
  expect(offers.status).toBe(200);
  expect(offers.body.ramp).toBeDefined();
  const created = await callApi(stack.apiUrl, '/api/off_ramp/orders', {
    body: {
      provider_code: 'ramp',
      from_currency: ETH,
      to_currency: EUR,
      from_amount: '0.5',
      refund_wallet_address: SELL_REFUND_ADDRESS,
      payout_method: 'sepa',
      country_code: 'DE',
      external_user_id: user,
      external_order_id: `ramp-sell-${serial}-${Date.now()}`,
    },
  });
  expect(created.status).toBe(200);
  return {
    offer: offers.body.ramp as Record<string, any>,
    order: created.body as { id: string; redirect_url: string; [field: string]: any },
  };
}

const getSell = (id: string) => callApi(stack.apiUrl, `/api/off_ramp/orders/ramp?code=${id}`);

async function statusOf(id: string, status: string) {
  return eventually(async () => {
    const read = await getSell(id);
    return read.body.status === status ? read.body : undefined;
  }, `${id} ${status}`);
}

test('offer, order, pay: waiting for the deposit, the deposit seen, complete; no deposit address on the order', async () => {
  const { offer, order } = await rampSellOrder();
  expect(order).toMatchObject({ kind: 'off_ramp', from_currency: ETH, to_currency: EUR, status: 'created' });
  expect(order.deposit).toBeUndefined();
  const widget = new URL(order.redirect_url);
  expect(widget.searchParams.get('defaultFlow')).toBe('OFFRAMP');
  expect(new URL(widget.searchParams.get('offrampWebhookV3Url')!).searchParams.get('order_id')).toBe(order.id);

  expect((await fetch(order.redirect_url)).status).toBe(200);
  const waiting = await statusOf(order.id, 'waiting_for_deposit');
  expect(waiting.deposit).toBeUndefined();
  expect(waiting.extras.provider_order_id).toMatch(/^[^:]+:[0-9a-f]+$/);

  expect((await checkout(order.redirect_url, 'pay')).status).toBe(200);
  const done = await statusOf(order.id, 'complete');
  expect(done.deposit).toBeUndefined();
  expect(done.extras.provider_order_id).toBe(waiting.extras.provider_order_id);
  expect(Number(done.to_amount)).toBeCloseTo(Number(offer.amount_expected_to), 0);
});

test('expire: the sell order ends expired', async () => {
  const { order } = await rampSellOrder();
  await fetch(order.redirect_url);
  await statusOf(order.id, 'waiting_for_deposit');
  expect((await checkout(order.redirect_url, 'expire')).status).toBe(200);
  await statusOf(order.id, 'expired');
});

test.each(['fail', 'refund'])('%s: Ramp documents no such sale status; the order keeps waiting', async (action) => {
  const { order } = await rampSellOrder();
  await fetch(order.redirect_url);
  await statusOf(order.id, 'waiting_for_deposit');
  expect((await checkout(order.redirect_url, action)).status).toBe(409);
  expect((await getSell(order.id)).body.status).toBe('waiting_for_deposit');
});

/** Posts a captured sale webhook to an order's own offrampWebhookV3Url at the broker. */
async function postTo(order: { redirect_url: string }, webhook: { signature: string; body: string }): Promise<number> {
  const url = new URL(new URL(order.redirect_url).searchParams.get('offrampWebhookV3Url')!);
  const response = await fetch(`${stack.apiUrl}${url.pathname}${url.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-body-signature': webhook.signature },
    body: webhook.body,
  });
  return response.status;
}

test('a sale credits one order only: its webhooks replayed at another sell order’s URL are refused', async () => {
  // Two sell orders of the same terms, both made before the sale.
  const { order: a } = await rampSellOrder();
  const { order: b } = await rampSellOrder();
  // The customer opens A's widget with its webhook URL pointed at their own server, and pays.
  const diverted = new URL(a.redirect_url);
  diverted.searchParams.set('offrampWebhookV3Url', attackerUrl);
  await fetch(diverted);
  await checkout(diverted.toString(), 'pay');
  const released = await eventually(
    () => Promise.resolve(captured.find((w) => (JSON.parse(w.body) as { type: string }).type === 'RELEASED')),
    'the RELEASED body',
  );
  const createdBody = captured.find((w) => (JSON.parse(w.body) as { type: string }).type === 'CREATED')!;
  // Forwarded to A, the order it was made for: A holds the sale and completes.
  expect(await postTo(a, createdBody)).toBe(200);
  expect(await postTo(a, released)).toBe(200);
  await statusOf(a.id, 'complete');
  // Replayed at B's URL (whose MAC the customer saw in B's widget URL): acknowledged, never acted on.
  expect(await postTo(b, createdBody)).toBe(200);
  expect(await postTo(b, released)).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const readB = (await getSell(b.id)).body;
  expect(readB.status).toBe('created');
  expect(readB.extras?.provider_order_id).toBeUndefined();
});
