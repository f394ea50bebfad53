/**
 * The API process loads every provider's catalogue at start (buildApi's warmCatalogues, which
 * src/api/main.ts sets), in the background: the first offers requests find them cached instead of
 * waiting for them within their quote deadline.
 */
import pino from 'pino';
import request from 'supertest';
import { buildApi } from '../../../src/api/server';
import { ProviderRegistry } from '../../../src/providers/registry';
import type { ProviderCatalogue } from '../../../src/providers/types';
import { createTemporalClient } from '../../../src/temporal/connection';
import { TEST_API_KEY, testConfig } from '../../helpers/config';
import { BTC, CARD, fakeProvider, goodQuote, USD } from '../../helpers/offers';

const CATALOGUE: ProviderCatalogue = { fiat: [USD.id], crypto: [BTC.id], countries: [{ code: 'GB' }], paymentMethods: [CARD] };

function api(answer: () => Promise<ProviderCatalogue>, warmCatalogues?: boolean) {
  const fetched = { calls: 0 };
  const warnings: string[] = [];
  const adapter = {
    ...fakeProvider('p', CATALOGUE, () => Promise.resolve(goodQuote)),
    getCatalogue: () => {
      fetched.calls++;
      return answer();
    },
  };
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
  const app = buildApi(testConfig(), createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' }), logger, {
    providers: new ProviderRegistry([adapter]),
    ...(warmCatalogues === undefined ? {} : { warmCatalogues }),
  });
  return { app, fetched, warnings };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('with warmCatalogues the catalogues load at once, without holding buildApi up, and requests use them', async () => {
  let release!: (catalogue: ProviderCatalogue) => void;
  const { app, fetched } = api(() => new Promise((resolve) => (release = resolve)), true);
  // buildApi has returned while the catalogue is still loading.
  expect(fetched.calls).toBe(1);
  release(CATALOGUE);
  await settle();
  const res = await request(app).get('/api/on_ramp/payment_methods_extra_info?provider_code=p').set('X-Api-Key', TEST_API_KEY);
  expect(res.status).toBe(200);
  expect(fetched.calls).toBe(1);
});

test('without it nothing is loaded before a request asks', () => {
  expect(api(() => Promise.resolve(CATALOGUE)).fetched.calls).toBe(0);
});

test('a catalogue that fails to load at start is logged, and loaded again by the first request that needs it', async () => {
  let failing = true;
  const { app, fetched, warnings } = api(() => (failing ? Promise.reject(new Error('down')) : Promise.resolve(CATALOGUE)), true);
  await settle();
  expect(warnings).toEqual(['provider catalogue refresh failed']);
  failing = false;
  const res = await request(app).get('/api/on_ramp/payment_methods_extra_info?provider_code=p').set('X-Api-Key', TEST_API_KEY);
  expect(res.status).toBe(200);
  expect(fetched.calls).toBe(2);
});
