import { Writable } from 'node:stream';
import { createLogger } from '../../../src/logging';
import { sdkLogger } from '../../../src/worker/telemetry';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: sdkLogger(createLogger(level, 'worker', destination)) };
}

test("the SDK's log lines go through pino at their level, with their metadata", () => {
  const { lines, logger } = capture('info');
  logger.info('integrator webhook delivered', { webhookId: 'evt_1', attempt: 1 });
  logger.log('WARN', 'integrator webhook attempt failed', { webhookId: 'evt_2' });
  logger.error('plain');
  expect(lines).toEqual([
    expect.objectContaining({ level: 30, msg: 'integrator webhook delivered', webhookId: 'evt_1', attempt: 1, component: 'temporal-sdk' }),
    expect.objectContaining({ level: 40, msg: 'integrator webhook attempt failed', webhookId: 'evt_2' }),
    expect.objectContaining({ level: 50, msg: 'plain' }),
  ]);
});

test('LOG_LEVEL reaches them: below it nothing is written', () => {
  const { lines, logger } = capture('warn');
  logger.info('integrator webhook delivered');
  logger.debug('activity started');
  logger.trace('poll');
  logger.warn('kept');
  expect(lines.map((l) => l.msg)).toEqual(['kept']);
});
