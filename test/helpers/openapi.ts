/**
 * Checks answers of the API against the OpenAPI document (src/api/openapi/document.ts): the body of a
 * response must conform to the schema the document gives for its operation, status and media type.
 * Schemas are validated as JSON Schema 2020-12 (OpenAPI 3.1's dialect), formats included.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/api/openapi/document';

/** The `$id` the document has in openApiAjv(): `${OPENAPI_OPENAPI_DOCUMENT_ID}#/components/schemas/Order` names a schema. */
export const OPENAPI_DOCUMENT_ID = 'urn:onramp-broker:openapi';

/** OpenAPI's own keywords: known to the validator, so strict mode does not refuse them. */
const OPENAPI_KEYWORDS = [
  // document level
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
  'externalDocs',
  // schema extensions of OpenAPI 3.1
  'example',
  'discriminator',
  'xml',
];

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

/** An ajv 2020-12 validator holding the whole document, so every `$ref` resolves inside it. */
export function openApiAjv(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    ajv.addVocabulary(OPENAPI_KEYWORDS);
    ajv.addSchema({ ...openApiDocument(), $id: OPENAPI_DOCUMENT_ID });
  }
  return ajv;
}

/** A JSON pointer (`/a/b~1c`) from its segments. */
export const pointer = (...segments: string[]) => segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

interface ResponseObject {
  $ref?: string;
  description?: string;
  content?: Record<string, { schema?: unknown }>;
}

/** The parts of the document read here. */
type Document = { paths: Record<string, Record<string, { responses?: Record<string, ResponseObject> }>> };
const doc = () => openApiDocument() as unknown as Document;

/** The documented response of an operation for a status, with `$ref`s to components resolved. */
export function documentedResponse(method: string, pathTemplate: string, status: number): ResponseObject | undefined {
  const operation = doc().paths[pathTemplate]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the document has no operation ${method.toUpperCase()} ${pathTemplate}`);
  let response = operation.responses?.[String(status)];
  while (response?.$ref) response = resolvePointer(response.$ref) as ResponseObject;
  return response;
}

/** What a local `$ref` (`#/components/...`) of the document points at. */
export function resolvePointer(ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`not a local reference: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], openApiDocument());
}

const seen = new Set<string>();

/** `METHOD /path/template status` of every answer checked so far in this test file. */
export function checkedAnswers(): ReadonlySet<string> {
  return seen;
}

/**
 * Asserts that `body`, answered with `status` by `method pathTemplate`, is documented and conforms
 * to the documented schema. `contentType` (the response's Content-Type) picks the media type; without
 * it the operation's JSON media type for that status is used.
 */
export function expectConforms(method: string, pathTemplate: string, status: number, body: unknown, contentType?: string): void {
  const label = `${method.toUpperCase()} ${pathTemplate} ${status}`;
  const response = documentedResponse(method, pathTemplate, status);
  if (!response) throw new Error(`${label}: status ${status} is not documented`);
  seen.add(label);
  const mediaTypes = Object.keys(response.content ?? {});
  if (mediaTypes.length === 0) {
    if (body !== undefined && body !== '' && !(typeof body === 'object' && body !== null && Object.keys(body).length === 0)) {
      throw new Error(`${label}: documented without a body, answered ${JSON.stringify(body).slice(0, 200)}`);
    }
    return;
  }
  const wanted = contentType?.split(';')[0]!.trim().toLowerCase();
  const mediaType = wanted ?? mediaTypes.find((t) => t === 'application/json' || t.endsWith('+json'));
  if (!mediaType || !mediaTypes.includes(mediaType)) {
    throw new Error(`${label}: answered ${wanted ?? '(no JSON media type)'}, documented ${mediaTypes.join(', ')}`);
  }
  const schemaRef = `${OPENAPI_DOCUMENT_ID}${responsePointer(method, pathTemplate, status)}${pointer('content', mediaType, 'schema')}`;
  let validate = validators.get(schemaRef);
  if (!validate) {
    validate = openApiAjv().compile({ $ref: schemaRef });
    validators.set(schemaRef, validate);
  }
  if (!validate(body)) {
    const errors = openApiAjv().errorsText(validate.errors, { dataVar: 'body' });
    throw new Error(`${label} (${mediaType}) does not conform to the document: ${errors}\nbody: ${JSON.stringify(body).slice(0, 1000)}`);
  }
}

/** `#/…` pointer of the operation's response object for a status (or of the component it refers to). */
function responsePointer(method: string, pathTemplate: string, status: number): string {
  const local = doc().paths[pathTemplate]![method.toLowerCase()]!.responses![String(status)]!;
  return local.$ref ?? `#${pointer('paths', pathTemplate, method.toLowerCase(), 'responses', String(status))}`;
}

/** expectConforms for a supertest (or fetch-like) response: status, body and Content-Type from the response. */
export function expectResponseConforms(
  method: string,
  pathTemplate: string,
  res: { status: number; body: unknown; headers: Record<string, string | string[] | undefined> },
): void {
  const contentType = res.headers['content-type'];
  expectConforms(method, pathTemplate, res.status, res.body, typeof contentType === 'string' ? contentType : undefined);
}
