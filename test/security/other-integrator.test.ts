/**
 * Another integrator, with its own valid API key, can neither read nor take over an order of the
 * first, even knowing its id and external_order_id.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { sha256Hex } from '../../src/config/integrators';
import type { LocalStack } from '../../src/dev/local-stack';
import { TEST_API_KEY } from '../helpers/config';
import { callApi } from '../helpers/http';
import { draftOrder, offerThenOrder } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const OTHER_KEY = 'obk_test_other_integrator_000000000000000';

let env: TestWorkflowEnvironment;
let stack: LocalStack;

beforeAll(async () => {
  env = await startTemporal();
  stack = await startTestStack(env, {
    config: {
      integrators: [
        { id: 'first', name: 'First', api_key_sha256: [sha256Hex(TEST_API_KEY)] },
        { id: 'other', name: 'Other', api_key_sha256: [sha256Hex(OTHER_KEY)] },
      ],
    },
  });
});

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

test('another integrator cannot read an order, and the same external_order_id makes its own order', async () => {
  const draft = draftOrder();
  const { body: order } = await offerThenOrder(stack.apiUrl, draft);

  const read = await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${order.id}`, { apiKey: OTHER_KEY });
  expect(read.status).toBe(404);
  expect(read.body.code).toBe('not_found');

  // Its own offers, then the same body: its own order, not the first one, which stays as it was.
  const offers = new URLSearchParams({
    external_user_id: draft.external_user_id,
    currency_from: '1',
    currency_to: '13',
    amount_from: '100.00',
    country: 'GB',
  });
  expect((await callApi(stack.apiUrl, `/api/on_ramp/offers?${offers.toString()}`, { apiKey: OTHER_KEY })).status).toBe(200);
  const theirs = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft, apiKey: OTHER_KEY });
  expect(theirs.status).toBe(200);
  expect(theirs.body.id).not.toBe(order.id);
  expect((await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${theirs.body.id}`)).status).toBe(404);
  expect((await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${order.id}`)).body.status).toBe('created');
});
