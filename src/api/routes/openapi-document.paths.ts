import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { headers } from '../openapi/headers';
import { ADDRESS_RATE_LIMITED, json } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI path of the route serving the document itself (./openapi-document.ts). */
export function registerOpenApiDocumentPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'getOpenApiDocument',
    tags: ['Documentation'],
    summary: 'This document',
    description: 'No API key needed. The same document is browsable at /docs.',
    security: [],
    responses: {
      200: { description: 'The OpenAPI 3.1 document.', headers: headers(), content: json(S.OpenApiDocumentSchema) },
      429: ADDRESS_RATE_LIMITED,
    },
  });
}
