/**
 * The counters an alert rule reads with increase() or rate() are exported at 0 from the start, for
 * every label value they can take: prom-client shows a labelled series only from its first inc(),
 * and Prometheus does not count a series' first sample as an increase, so a first flag or a first
 * Temporal error would otherwise go unseen by the alert.
 */
import pino from 'pino';
import { buildApi } from '../../../src/api/server';
import { orderIntegrityAlerts, temporalClientErrors } from '../../../src/metrics/metrics';
import { metricsText } from '../../../src/metrics/registry';
import { PROVIDER_CODES } from '../../../src/providers/manifest';
import { createTemporalClient } from '../../../src/temporal/connection';
import { orderSinks } from '../../../src/worker/sinks';
import { testConfig } from '../../helpers/config';

test("the worker's order sinks export every provider's integrity flags at 0", async () => {
  orderSinks();
  const { body } = await metricsText();
  expect(PROVIDER_CODES.length).toBeGreaterThan(0);
  for (const provider of PROVIDER_CODES)
    for (const alert of ['payment_differs', 'report_refused', 'open_too_long'])
      expect(body).toContain(`onramp_order_integrity_alerts_total{provider="${provider}",alert="${alert}"} 0\n`);
});

test('the API exports its Temporal client errors at 0 for every operation', async () => {
  buildApi(testConfig(), createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' }), pino({ level: 'silent' }));
  const { body } = await metricsText();
  for (const operation of ['create', 'describe', 'signal', 'claim'])
    expect(body).toContain(`onramp_temporal_client_errors_total{operation="${operation}"} 0\n`);
});

test('starting again keeps the counts so far', async () => {
  orderIntegrityAlerts.inc({ provider: PROVIDER_CODES[0]!, alert: 'payment_differs' }, 2);
  temporalClientErrors.inc({ operation: 'signal' }, 3);
  orderSinks();
  buildApi(testConfig(), createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' }), pino({ level: 'silent' }));
  const { body } = await metricsText();
  expect(body).toContain(`onramp_order_integrity_alerts_total{provider="${PROVIDER_CODES[0]}",alert="payment_differs"} 2\n`);
  expect(body).toContain('onramp_temporal_client_errors_total{operation="signal"} 3\n');
});
