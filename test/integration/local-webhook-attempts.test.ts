/**
 * A worker's local first webhook attempts (activities/index.ts, src/webhooks/local-attempt-gate.ts)
 * over real HTTP to a receiving integrator: a worker holds at most so many order workflow tasks on
 * integrators' answers, and none on an integrator whose endpoint just failed.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { IntegratorDirectory } from '../../src/config/integrators';
import { currencyDictionary } from '../../src/domain/currencies';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import { createProviderRegistry } from '../../src/providers/registry';
import { integratorWebhookId, type IntegratorNotification } from '../../src/temporal/order-contract';
import { WebhookDeliverer } from '../../src/webhooks/delivery';
import { LocalAttemptGate } from '../../src/webhooks/local-attempt-gate';
import { testConfig } from '../helpers/config';
import { IntegratorReceiver } from '../helpers/integrator-receiver';

let receiver: IntegratorReceiver;
let activities: ReturnType<typeof createActivities>;
let integratorId: string;

beforeAll(async () => {
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  const config = testConfig({}, { ONRAMP_WEBHOOK_URL: await receiver.start() });
  integratorId = config.integrators[0]!.id;
  activities = createActivities({
    providers: createProviderRegistry(config),
    currencies: currencyDictionary,
    integrators: new IntegratorDirectory(config.integrators),
    webhooks: new WebhookDeliverer({ allowPrivateNetworks: true, timeoutMs: 1_000 }),
    localAttempts: new LocalAttemptGate({ maxInFlight: 1, slowMs: 5_000, coolOffMs: 60_000 }),
  });
});

afterAll(async () => {
  await receiver?.stop();
});

const notification = (sequence: number): IntegratorNotification => ({
  webhookId: integratorWebhookId('6f1c0d7e-0000-5000-8000-0000000000aa', sequence),
  integratorId,
  occurredAt: '2026-11-26T10:00:00.000Z',
  sequence,
  order: { id: '6f1c0d7e-0000-5000-8000-0000000000aa', status: 'processing' } as IntegratorNotification['order'],
  firstAttemptLocal: true,
});

const quiet = new DefaultLogger('ERROR');
const local = (sequence: number) =>
  new MockActivityEnvironment(undefined, { logger: quiet }).run(activities.attemptIntegratorWebhookInWorker, {
    notification: notification(sequence),
    attempt: 1,
  });
const ordinary = (sequence: number) =>
  new MockActivityEnvironment(undefined, { logger: quiet }).run(activities.attemptIntegratorWebhook, {
    notification: notification(sequence),
    attempt: 1,
  });

test("beyond the bound a local attempt is deferred, without a request; a failure defers the integrator's next ones until a delivery", async () => {
  receiver.answerNext('hang');
  const hanging = local(2);
  // The one place is taken while the integrator does not answer.
  await expect(local(3)).resolves.toEqual({ outcome: 'deferred' });
  await expect(hanging).resolves.toMatchObject({ outcome: 'failed' });
  expect(receiver.received.map((w) => w.webhookId)).toEqual([notification(2).webhookId]);

  // The place is back, but the integrator's endpoint just failed: no local attempt for it.
  await expect(local(3)).resolves.toEqual({ outcome: 'deferred' });
  expect(receiver.received).toHaveLength(1);

  // An ordinary attempt gets through; local attempts go out again.
  await expect(ordinary(3)).resolves.toMatchObject({ outcome: 'delivered' });
  await expect(local(4)).resolves.toMatchObject({ outcome: 'delivered' });
  expect(receiver.received.map((w) => w.webhookId)).toEqual([2, 3, 4].map((s) => notification(s).webhookId));
});
