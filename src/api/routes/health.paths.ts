import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { headers } from '../openapi/headers';
import { json } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI paths of the health routes (./health.ts), outside /api and without an API key. */
export function registerHealthPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    tags: ['Health'],
    summary: 'Liveness: the process is up',
    security: [],
    responses: { 200: { description: 'Alive.', headers: headers(), content: json(S.HealthSchema) } },
  });

  registry.registerPath({
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    tags: ['Health'],
    summary: 'Readiness: Temporal is reachable',
    security: [],
    responses: {
      200: { description: 'Ready.', headers: headers(), content: json(S.ReadinessSchema) },
      503: { description: 'Not ready; `checks` says what is missing.', headers: headers(), content: json(S.ReadinessSchema) },
    },
  });
}
