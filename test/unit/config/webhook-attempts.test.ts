import { buildConfig, ConfigError, parseEnv } from '../../../src/config';

const config = (env: NodeJS.ProcessEnv) => buildConfig(parseEnv({ NODE_ENV: 'test', ...env }));

test("webhook attempts default to half of the worker's activity slots, a tenth per integrator", () => {
  expect(config({}).worker).toEqual({ activitySlots: 100, webhookAttempts: { perWorker: 50, perIntegrator: 10 } });
  expect(config({ WORKER_ACTIVITY_SLOTS: '8' }).worker.webhookAttempts).toEqual({ perWorker: 4, perIntegrator: 1 });
  expect(config({ WEBHOOK_ATTEMPTS_PER_WORKER: '20', WEBHOOK_ATTEMPTS_PER_INTEGRATOR: '3' }).worker.webhookAttempts).toEqual({
    perWorker: 20,
    perIntegrator: 3,
  });
});

test('webhook attempts must leave activity slots for polls, and one integrator fit in the worker', () => {
  expect(() => config({ WORKER_ACTIVITY_SLOTS: '10', WEBHOOK_ATTEMPTS_PER_WORKER: '10' })).toThrow(ConfigError);
  expect(() => config({ WORKER_ACTIVITY_SLOTS: '10', WEBHOOK_ATTEMPTS_PER_WORKER: '10' })).toThrow(/WEBHOOK_ATTEMPTS_PER_WORKER/);
  expect(() => config({ WEBHOOK_ATTEMPTS_PER_WORKER: '5', WEBHOOK_ATTEMPTS_PER_INTEGRATOR: '6' })).toThrow(
    /WEBHOOK_ATTEMPTS_PER_INTEGRATOR/,
  );
});
