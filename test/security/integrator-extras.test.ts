/**
 * Attack: an integrator (or whoever holds its key) writes the provider's state through `extras`:
 * `extras.provider_order_id` naming another, completed provider order used to steer status polling
 * there and copy its status, amount and transaction hash into this order.
 */
import { createActivities } from '../../activities';
import { IntegratorDirectory } from '../../src/config/integrators';
import { currencyDictionary } from '../../src/domain/currencies';
import { createProviderRegistry } from '../../src/providers/registry';
import { WebhookDeliverer } from '../../src/webhooks/delivery';
import { callApi } from '../helpers/http';
import { checkout, draftOrder, fetchOffers, offerThenOrder, waitForStatus } from '../helpers/orders';
import { useTestStack } from '../helpers/stack';

const started = useTestStack();

async function completedOrder() {
  const { body: order } = await offerThenOrder(started.stack.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'pay');
  return waitForStatus(started.stack.apiUrl, 'sandbox', order.id, 'complete');
}

test.each(['provider_order_id', 'provider_status', 'transaction_hash'])(
  'extras.%s is refused with validation_error naming it',
  async (key) => {
    const paid = await completedOrder();
    const draft = { ...draftOrder(), extras: { note: 'kept', [key]: paid.extras[key] } };
    expect((await fetchOffers(started.stack.apiUrl, draft)).status).toBe(200);
    const res = await callApi(started.stack.apiUrl, '/api/on_ramp/orders', { body: draft });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ code: 'validation_error', errors: [expect.objectContaining({ path: `extras.${key}` })] });
  },
);

test('an order whose extras name another completed provider order does not take that order over', async () => {
  const paid = await completedOrder();
  const draft = { ...draftOrder(), extras: { provider_order_id: paid.extras.provider_order_id } };
  await fetchOffers(started.stack.apiUrl, draft);
  const res = await callApi(started.stack.apiUrl, '/api/on_ramp/orders', { body: draft });
  if (res.status === 200) {
    // Had it been accepted, polling (every 0.5 s here) would have copied the other order's state within seconds.
    await new Promise((r) => setTimeout(r, 3000));
    const status = await callApi(started.stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${res.body.id}`);
    expect(status.body.status).toBe('created');
  }
  expect(res.status).toBe(400);
});

test('a status answer about another order is refused, not handed to the workflow', async () => {
  const paid = await completedOrder();
  const { body: victim } = await offerThenOrder(started.stack.apiUrl, draftOrder());
  const activities = createActivities({
    providers: createProviderRegistry(started.stack.config),
    currencies: currencyDictionary,
    integrators: new IntegratorDirectory(started.stack.config.integrators),
    webhooks: new WebhookDeliverer(started.stack.config.webhooks),
  });
  // Asked about the victim with the other order's provider id, the provider answers about the other order.
  await expect(
    activities.getProviderOrderStatus({
      orderId: victim.id,
      providerCode: 'sandbox',
      providerOrderId: paid.extras.provider_order_id as string,
    }),
  ).rejects.toMatchObject({ type: 'snapshot_mismatch', nonRetryable: true });
  // Asked about its own order, the answer passes.
  await expect(
    activities.getProviderOrderStatus({
      orderId: paid.id,
      providerCode: 'sandbox',
      providerOrderId: paid.extras.provider_order_id as string,
    }),
  ).resolves.toMatchObject({ orderId: paid.id, status: 'complete' });
});
