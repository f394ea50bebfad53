/**
 * The five real providers end to end, each through its own simulator, with a real Temporal server:
 * offers in the markets it serves, an order through the API, the customer paying on the provider's
 * page, the order complete as the status endpoint and the integrator's signed webhooks show it, and
 * a forged provider webhook refused.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { LocalStack } from '../../src/dev/local-stack';
import { forgedWebhook } from '../helpers/forged-webhooks';
import { callApi } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { checkout, fetchOffers, offerThenOrder } from '../helpers/orders';
import { expectCompleteForIntegrator, JOURNEYS, journeyOrder, MARKETS } from '../helpers/provider-journeys';
import { PROVIDER_TEST_KITS } from '../helpers/providers';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

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

describe.each(JOURNEYS)('$code', (journey) => {
  // A provider without cards (Onramp.money: bank rails only) names the markets where it has them: none.
  const cardMarkets = PROVIDER_TEST_KITS[journey.code].cardMarkets ?? (Object.keys(MARKETS) as (keyof typeof MARKETS)[]);
  if (cardMarkets.length > 0)
    test.each(cardMarkets)('offers a card purchase in %s', async (market) => {
      const draft = journeyOrder({ ...journey, market, paymentMethod: 'card' });
      const offers = await fetchOffers(stack.apiUrl, draft);
      expect(offers.status).toBe(200);
      expect(offers.body[journey.code]).toMatchObject({
        amount_from: '100.00',
        amount_expected_to: expect.stringMatching(/^0\.\d{8}$/),
        payment_methods: [expect.objectContaining({ payment_method_code: 'card' })],
      });
    });

  test(`an order paid on the provider's page (${journey.market}, ${journey.paymentMethod}) completes for the integrator`, async () => {
    const draft = journeyOrder(journey);
    const created = await offerThenOrder(stack.apiUrl, draft);
    expect(created.status).toBe(200);
    const order = created.body;
    expect(order.status).toBe('created');
    expect(order.redirect_url.startsWith(`${stack.simulatorUrl}/${journey.code}`)).toBe(true);

    // The customer opens the provider's page, then pays there.
    const page = await fetch(order.redirect_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-action="pay"');
    const paid = await checkout(order.redirect_url, 'pay');
    expect(paid.status).toBe(200);

    const delivered = await expectCompleteForIntegrator(stack.apiUrl, receiver, journey.code, order.id);
    expect(delivered.at(-1)!.body.data).toMatchObject({
      external_order_id: draft.external_order_id,
      from_amount: '100.00',
      extras: expect.objectContaining({ transaction_hash: expect.any(String) }),
    });
    // The provider's own signed webhooks were accepted, none refused.
    const answers = stack.simulators.get(journey.code).webhooks.attempts.map((attempt) => attempt.httpStatus);
    expect(answers).toContain(200);
    expect(answers.filter((status) => status !== 200)).toEqual([]);
  });

  test('a forged provider webhook is refused with 401 and changes nothing', async () => {
    const { body: order } = await offerThenOrder(stack.apiUrl, journeyOrder(journey));
    const forged = await forgedWebhook(journey.code, order.id);
    const response = await fetch(`${stack.apiUrl}/api/webhooks/${journey.code}${forged.query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...forged.headers },
      body: forged.body,
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const status = await callApi(stack.apiUrl, `/api/on_ramp/orders/${journey.code}?code=${order.id}`);
    expect(status.body.status).toBe('created');
  });
});
