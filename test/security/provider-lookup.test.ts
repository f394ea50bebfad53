/**
 * A verified webhook that names only an id to look up (Banxa's): when the lookup cannot be made or
 * the provider does not know the order, the answer is a problem the provider can act on, never a 500.
 */
import { BANXA_SIMULATOR_CREDENTIALS } from '../../src/providers/banxa';
import { banxaAuthorization } from '../../src/simulators/banxa/signing';
import { postWebhook } from '../helpers/provider-events';
import { useTestStack } from '../helpers/stack';

const started = useTestStack();

function signedBanxaWebhook(body: Record<string, unknown>) {
  const raw = JSON.stringify(body);
  const authorization = banxaAuthorization(
    BANXA_SIMULATOR_CREDENTIALS,
    { method: 'POST', path: '/api/webhooks/banxa', body: raw },
    Date.now(),
  );
  return { query: '', headers: { authorization }, body: raw };
}

test('a genuine webhook about an order Banxa does not know is 422 provider_rejected', async () => {
  const res = await postWebhook(
    started.stack.apiUrl,
    'banxa',
    signedBanxaWebhook({ order_id: 'no-such-banxa-order', status: 'complete', status_date: new Date().toISOString() }),
  );
  expect(res.status).toBe(422);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(((await res.json()) as { code: string }).code).toBe('provider_rejected');
});

test('while Banxa cannot be reached, it is 503 provider_unavailable with Retry-After', async () => {
  const banxa = started.stack.simulators.get('banxa');
  banxa.faults.errorRate = 1;
  try {
    const res = await postWebhook(
      started.stack.apiUrl,
      'banxa',
      signedBanxaWebhook({ order_id: 'any-banxa-order', status: 'complete', status_date: new Date().toISOString() }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(((await res.json()) as { code: string }).code).toBe('provider_unavailable');
  } finally {
    banxa.faults.errorRate = 0;
  }
});
