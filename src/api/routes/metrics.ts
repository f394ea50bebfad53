import type { Express } from 'express';
import { metricsAuthorized } from '../../metrics/access';
import { collectProcessMetrics, metricsText } from '../../metrics/registry';
import { ProblemError } from '../problem';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="onramp-broker-metrics"' };

/**
 * `GET /metrics`: the process's metrics in Prometheus's text format, outside /api and its API key;
 * with a token (METRICS_TOKEN), only for `Authorization: Bearer <token>`.
 */
export function metricsRoutes(app: Express, options: { token?: string }): void {
  collectProcessMetrics();
  app.get('/metrics', async (req, res) => {
    if (!metricsAuthorized(req.headers.authorization, options.token)) {
      throw new ProblemError('unauthorized', 'Send the metrics token as Authorization: Bearer <token>.', undefined, CHALLENGE);
    }
    const { contentType, body } = await metricsText();
    res.setHeader('Cache-Control', 'no-store');
    res.type(contentType).send(body);
  });
}
