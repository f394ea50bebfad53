/**
 * The rate limiter's refusal metric is labelled with the class of the counted key (the part before
 * its first ':'), never with the key itself: a key without a class is counted as `other`.
 */
import express from 'express';
import request from 'supertest';
import { createRateLimiter } from '../../../src/api/rate-limit';
import { rateLimitRefusals } from '../../../src/metrics/metrics';

async function refusalLabels(limiter: string): Promise<string[]> {
  return (await rateLimitRefusals.get()).values.filter((v) => v.labels.limiter === limiter).map((v) => String(v.labels.key_class));
}

async function refuseTwice(limiter: string, key: string): Promise<void> {
  const app = express();
  app.use(createRateLimiter({ limit: 1, windowMs: 60_000, keyOf: () => key, limiter }));
  app.get('/', (_req, res) => void res.send('ok'));
  await request(app).get('/').expect(200);
  await request(app).get('/').expect(429);
}

test('a key with a class is counted under its class', async () => {
  await refuseTwice('test_classed', 'integrator:acme');
  expect(await refusalLabels('test_classed')).toEqual(['integrator']);
});

test('a key without a ":" is counted as other, never under (most of) the key itself', async () => {
  await refuseTwice('test_unclassed', 'sk_live_0123456789abcdef');
  expect(await refusalLabels('test_unclassed')).toEqual(['other']);
});

test('a key starting with ":" is counted as other', async () => {
  await refuseTwice('test_empty_class', ':203.0.113.7');
  expect(await refusalLabels('test_empty_class')).toEqual(['other']);
});
