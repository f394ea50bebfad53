/**
 * The OpenAPI document: valid, served, describing every route of the app, and describing what the
 * routes really answer. The API runs as in the other API tests: the simulated providers over real
 * HTTP and a Temporal address where nothing listens (so orders answer 503).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import request from 'supertest';
import packageJson from '../../package.json';
import { openApiDocument } from '../../src/api/openapi/document';
import { PROBLEM_CODES } from '../../src/api/problem';
import { buildApi } from '../../src/api/server';
import { DEV_SANDBOX_WEBHOOK_SECRET, sandboxCredentials, withEndpoints } from '../../src/config';
import { createLogger } from '../../src/logging';
import { createSimulatorHost, type SimulatorHost } from '../../src/simulators';
import { createTemporalClient } from '../../src/temporal/connection';
import { DEFAULT_DEV_OPERATOR_KEY } from '../../src/config/operators';
import { TEST_API_KEY, testConfig } from '../helpers/config';
import {
  checkedAnswers,
  expectConforms,
  expectResponseConforms,
  openApiAjv,
  OPENAPI_DOCUMENT_ID,
  pointer,
  resolvePointer,
} from '../helpers/openapi';
import { BTC, draftOrder, GBP, USD } from '../helpers/orders';
import { signedSandboxWebhook } from '../helpers/webhooks';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Operations without an API key: provider webhooks (signed), this document, and health. */
const PUBLIC_OPERATIONS = ['POST /api/webhooks/{provider_code}', 'GET /api/openapi.json', 'GET /healthz', 'GET /readyz'];

let server: Server;
let host: SimulatorHost;
let app: Express;
const config = testConfig({ offersProviderTimeoutMs: 1000, orderCreateTimeoutMs: 1000 });
const unreachableTemporal = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
const logger = createLogger('silent', 'test');

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  host = createSimulatorHost({
    sandbox: sandboxCredentials(config.providerEnv),
    brokerUrl: 'http://127.0.0.1:1',
    publicUrl: url,
  });
  server.on('request', host.app);
  app = buildApi(withEndpoints(config, { publicBaseUrl: config.publicBaseUrl, simulatorUrl: url }), unreachableTemporal, logger);
});

afterAll(async () => {
  host.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const document = openApiDocument() as any;

/** `METHOD /path/{param}` of every operation of the document. */
function documentedOperations(): Set<string> {
  const operations = new Set<string>();
  for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
    for (const method of Object.keys(item).filter((m) => HTTP_METHODS.includes(m))) operations.add(`${method.toUpperCase()} ${path}`);
  }
  return operations;
}

/** `METHOD /path/{param}` of every route the Express app serves, found by walking its routers. */
function appRoutes(express: Express): Set<string> {
  const routes = new Set<string>();
  const walk = (stack: any[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const methods = Object.keys(layer.route.methods).filter((m) => m !== '_all' && layer.route.methods[m]);
        for (const path of [layer.route.path].flat() as string[]) {
          const template = `${prefix}${path}`.replace(/:(\w+)/g, '{$1}');
          for (const method of methods) routes.add(`${method.toUpperCase()} ${template}`);
        }
      } else if (Array.isArray(layer.handle?.stack)) {
        walk(layer.handle.stack, prefix + (typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : ''));
      }
    }
  };
  walk((express as any).router.stack, '');
  // The docs page is HTML for people, and /metrics Prometheus's text for operators: not operations of the API.
  return new Set([...routes].filter((route) => !/^GET \/(docs\/?|metrics)$/.test(route)));
}

describe('the OpenAPI document', () => {
  test('is served at /api/openapi.json without an API key, as generated', async () => {
    const res = await request(app).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(document)));
    expectResponseConforms('GET', '/api/openapi.json', res);
  });

  test('is OpenAPI 3.1.0 with the package version and both API key schemes', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: expect.any(String), version: packageJson.version, description: expect.any(String) });
    expect(document.components.securitySchemes).toEqual({
      ApiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }),
      Bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      OperatorKey: expect.objectContaining({
        type: 'http',
        scheme: 'bearer',
        description: expect.stringContaining('ONRAMP_OPERATORS_FILE'),
      }),
    });
    expect(document.security).toEqual([{ ApiKey: [] }, { Bearer: [] }]);
  });

  test('every $ref resolves inside the document', () => {
    const refs: string[] = [];
    const collect = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.push(value);
          else collect(value);
        }
      }
    };
    collect(document);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\//);
      const target = ref
        .slice(2)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<any>((node, key) => node?.[key], document);
      if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
    }
  });

  test('every schema compiles as JSON Schema 2020-12 (strict: no unknown keywords or formats)', () => {
    const ajv = openApiAjv();
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => ajv.compile({ $ref: `${OPENAPI_DOCUMENT_ID}#${pointer('components', 'schemas', name)}` })).not.toThrow();
    }
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        (operation.parameters ?? []).forEach((parameter: any, i: number) => {
          const ref = `${OPENAPI_DOCUMENT_ID}#${pointer('paths', path, method, 'parameters', String(i), 'schema')}`;
          expect(() => ajv.compile({ $ref: ref })).not.toThrow();
          expect([path, method, parameter.in]).toEqual([path, method, expect.stringMatching(/^(query|path|header)$/)]);
        });
      }
    }
  });

  test('describes every route the app serves, and nothing it does not', () => {
    const served = appRoutes(app);
    const documented = documentedOperations();
    expect(served.size).toBeGreaterThanOrEqual(14);
    expect([...served].filter((route) => !documented.has(route))).toEqual([]);
    expect([...documented].filter((operation) => !served.has(operation))).toEqual([]);
  });

  test("needs an API key everywhere but on webhooks, this document and health; the operator API an operator's key", () => {
    for (const operation of documentedOperations()) {
      const [method, path] = operation.split(' ') as [string, string];
      const security = document.paths[path][method.toLowerCase()].security;
      if (PUBLIC_OPERATIONS.includes(operation)) expect(security).toEqual([]);
      else if (path.startsWith('/api/operator/')) {
        expect([operation, security]).toEqual([operation, [{ OperatorKey: [] }]]);
        expect(document.paths[path][method.toLowerCase()].tags).toEqual(['Operator']);
        expect(document.paths[path][method.toLowerCase()].responses['401']).toBeDefined();
      } else {
        expect(security).toBeUndefined();
        expect(document.paths[path][method.toLowerCase()].responses['401']).toBeDefined();
      }
    }
  });

  test('every error answer is problem+json with the codes of its status', () => {
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          if (Number(status) < 400 || path === '/readyz') continue;
          expect([method, path, status, Object.keys(response.content)]).toEqual([method, path, status, ['application/problem+json']]);
          expect(response.content['application/problem+json'].schema).toEqual({ $ref: `#/components/schemas/Problem${status}` });
        }
      }
    }
    const codes = document.components.schemas.Problem.properties.code.enum;
    expect(codes).toEqual(Object.keys(PROBLEM_CODES));
  });

  test('only the dictionaries advertise an ETag and 304: every other answer is no-store, without a validator', () => {
    const conditional: string[] = [];
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const withEtag = Object.values<any>(operation.responses).some((r) => r.headers?.ETag !== undefined);
        if (withEtag || operation.responses['304']) conditional.push(`${method.toUpperCase()} ${path}`);
        if (withEtag) expect(operation.responses['304']).toBeDefined();
      }
    }
    expect(conditional.sort()).toEqual(['GET /api/dict/countries', 'GET /api/dict/currencies']);
  });

  test('links chain offers to an order and the order to its status, naming only real operations, parameters and fields', () => {
    const operations = new Map<string, { path: string; operation: any }>();
    for (const [path, item] of Object.entries<any>(document.paths))
      for (const operation of Object.values<any>(item))
        if (operation.operationId) operations.set(operation.operationId, { path, operation });
    const links: string[] = [];
    for (const [sourceId, { operation: source }] of operations) {
      const sourceQuery = new Set((source.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name));
      for (const [status, response] of Object.entries<any>(source.responses)) {
        for (const [name, link] of Object.entries<any>(response.links ?? {})) {
          links.push(`${sourceId} ${status} ${name} -> ${link.operationId}`);
          const target = operations.get(link.operationId);
          expect(target).toBeDefined();
          const expressions: string[] = [];
          for (const [parameter, expression] of Object.entries<string>(link.parameters ?? {})) {
            const [location, paramName] = parameter.split('.');
            expect(target!.operation.parameters).toEqual(
              expect.arrayContaining([expect.objectContaining({ in: location, name: paramName })]),
            );
            expressions.push(expression);
          }
          const bodySchema = target!.operation.requestBody?.content['application/json'].schema;
          for (const [field, expression] of Object.entries<string>(link.requestBody ?? {})) {
            expect([field, (resolvePointer(bodySchema.$ref) as any).properties[field]]).toEqual([field, expect.anything()]);
            expressions.push(expression);
          }
          for (const expression of expressions.filter((e) => e.startsWith('$'))) {
            expect(expression).toMatch(/^\$(request\.query\.\w+|request\.body#\/\w+|response\.body#(\/\w+)+)$/);
            const query = /^\$request\.query\.(\w+)$/.exec(expression)?.[1];
            if (query) expect([expression, sourceQuery.has(query)]).toEqual([expression, true]);
          }
        }
      }
    }
    expect(links).toEqual([
      'getOffers 200 CreateOrderFromSandboxOffer -> createOrder',
      'createOrder 200 GetOrder -> getOrder',
      'createSellOrder 200 GetSellOrder -> getSellOrder',
    ]);
    // The order repeats everything a live offer is matched on.
    expect(
      Object.keys(document.paths['/api/on_ramp/offers'].get.responses['200'].links.CreateOrderFromSandboxOffer.requestBody).sort(),
    ).toEqual([
      'country_code',
      'external_user_id',
      'from_amount',
      'from_currency',
      'payment_method',
      'provider_code',
      'state_code',
      'to_currency',
    ]);
    expect(document.paths['/api/on_ramp/orders'].post.responses['200'].links.GetOrder.parameters).toEqual({
      'path.provider_code': '$request.body#/provider_code',
      'query.code': '$response.body#/id',
    });
  });

  test('currency parameters are integers', () => {
    const currencyParams = Object.values<any>(document.paths)
      .flatMap((item) => Object.values<any>(item))
      .flatMap((operation) => operation.parameters ?? [])
      .filter((p: any) => /currency/.test(p.name));
    expect(currencyParams.map((p: any) => p.name).sort()).toEqual([
      'currency',
      'currency_from',
      'currency_from',
      'currency_to',
      'currency_to',
      'fiat_currency',
      'from_currency',
      'from_currency',
      'to_currency',
      'to_currency',
    ]);
    const typeOf = (schema: any): unknown => (schema.$ref ? typeOf(resolvePointer(schema.$ref)) : schema.type);
    for (const p of currencyParams) expect([p.name, typeOf(p.schema)]).toEqual([p.name, 'integer']);
    for (const body of ['CreateOrderRequest', 'ValidateAddressRequest']) {
      const props = document.components.schemas[body].properties;
      for (const [name, schema] of Object.entries<any>(props))
        if (/currency/.test(name)) expect([name, typeOf(schema)]).toEqual([name, 'integer']);
    }
  });
});

describe('the docs page', () => {
  test('/docs redirects to /docs/, which loads Swagger UI from local files only', async () => {
    const bare = await request(app).get('/docs');
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe('docs/');
    const page = await request(app).get('/docs/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const sources = [...page.text.matchAll(/(?:src|href)=["']([^"']+)["']/g)].map((m) => m[1]!);
    expect(sources).toEqual(expect.arrayContaining(['./swagger-ui.css', './swagger-ui-bundle.js', './swagger-ui-init.js']));
    for (const source of sources) expect(source).toMatch(/^\.\//);
    expect(page.text).not.toMatch(/<script>(?!\s*<\/script>)/);
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']) {
      expect((await request(app).get(`/docs/${asset}`)).status).toBe(200);
    }
    const init = await request(app).get('/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain('"openapi": "3.1.0"');
  });

  test("has helmet's page headers and a CSP that lets the page run: own scripts, inline styles, no upgrade to https", async () => {
    const page = await request(app).get('/docs/');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/style-src 'self' 'unsafe-inline'/);
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    // The JSON answers keep the API's policy, which loads nothing.
    expect((await request(app).get('/api/openapi.json')).headers['content-security-policy']).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
  });

  test('an unknown file under /docs is a problem+json 404', async () => {
    const res = await request(app).get('/docs/nope.js');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('expectConforms', () => {
  test('refuses an answer that breaks the schema, an undocumented status or media type', () => {
    expect(() => expectConforms('GET', '/api/dict/currencies', 200, { currencies: [{ id: 'one' }] })).toThrow(/does not conform/);
    expect(() => expectConforms('GET', '/api/dict/currencies', 200, { currencies: [] }, 'text/html')).toThrow(/answered text\/html/);
    expect(() => expectConforms('GET', '/api/dict/currencies', 418, {})).toThrow(/not documented/);
    expect(() => expectConforms('GET', '/api/nope', 200, {})).toThrow(/no operation/);
    const problem = { type: 'urn:onramp-broker:problem:not_found', title: 'Not found', status: 404, detail: 'x', code: 'not_found' };
    expect(() => expectConforms('GET', '/api/on_ramp/orders/{provider_code}', 404, problem, 'application/problem+json')).not.toThrow();
    expect(() => expectConforms('GET', '/api/on_ramp/orders/{provider_code}', 400, { ...problem, status: 400 })).toThrow(
      /does not conform/,
    );
  });
});

describe('answers conform to the document', () => {
  const authed = (method: 'get' | 'post', path: string) => request(app)[method](path).set('X-Api-Key', TEST_API_KEY);

  async function check(method: 'GET' | 'POST', template: string, path: string, expected: number, send?: (r: request.Test) => request.Test) {
    let req = authed(method === 'GET' ? 'get' : 'post', path);
    if (send) req = send(req);
    const res = await req;
    expect([path, res.status]).toEqual([path, expected]);
    expectResponseConforms(method, template, res);
    return res;
  }

  test.each([
    ['/api/dict/currencies', '/api/dict/currencies'],
    ['/api/dict/countries', '/api/dict/countries'],
  ])('%s: 200, 304 and 401', async (template, path) => {
    const res = await check('GET', template, path, 200);
    await check('GET', template, path, 304, (r) => r.set('If-None-Match', res.headers.etag!));
    expectResponseConforms('GET', template, await request(app).get(path));
  });

  test.each<[string, string, number]>([
    ['/api/on_ramp/payment_methods', `fiat_currency=${USD}&country_code=US&state=CA`, 200],
    ['/api/on_ramp/payment_methods', `fiat_currency=${USD}`, 200],
    ['/api/on_ramp/payment_methods', '', 400],
    ['/api/on_ramp/payment_methods', 'fiat_currency=USD', 400],
    ['/api/on_ramp/payment_methods', `fiat_currency=${USD}&country_code=US&state=ZZ`, 400],
    ['/api/on_ramp/payment_methods', `fiat_currency=${BTC}`, 422],
    ['/api/on_ramp/payment_methods_extra_info', 'provider_code=sandbox', 200],
    ['/api/on_ramp/payment_methods_extra_info', 'provider_code=nobody', 400],
    ['/api/on_ramp/countries', '', 200],
    ['/api/on_ramp/countries', 'provider_codes=transak', 200],
    ['/api/on_ramp/countries', 'provider_codes=nobody', 400],
    ['/api/on_ramp/currency_pairs', 'country_code=US', 200],
    ['/api/on_ramp/currency_pairs', 'country_code=US&state=NY', 200],
    ['/api/on_ramp/currency_pairs', '', 400],
    ['/api/on_ramp/providers', `country_code=GB&from_currency=${GBP}&to_currency=${BTC}`, 200],
    ['/api/on_ramp/providers', `country_code=GB&from_currency=${GBP}`, 400],
    ['/api/on_ramp/providers', `country_code=GB&from_currency=${BTC}&to_currency=${BTC}`, 422],
    // The off-ramp routes (no simulated provider sells yet: their answers with offers are checked in off-ramp.test.ts).
    ['/api/off_ramp/countries', '', 200],
    ['/api/off_ramp/countries', 'provider_codes=nobody', 400],
    ['/api/off_ramp/currency_pairs', 'country_code=US&state=NY', 200],
    ['/api/off_ramp/currency_pairs', '', 400],
    ['/api/off_ramp/payout_methods', `currency=${GBP}&country_code=GB`, 200],
    ['/api/off_ramp/payout_methods', `currency=${BTC}`, 400],
    ['/api/off_ramp/providers', `country_code=GB&from_currency=${BTC}&to_currency=${GBP}`, 200],
    ['/api/off_ramp/providers', `country_code=GB&from_currency=${GBP}&to_currency=${BTC}`, 400],
    ['/api/off_ramp/offers', `external_user_id=u1&currency_from=${BTC}&currency_to=${GBP}&amount_from=0.01&country=GB`, 200],
    ['/api/off_ramp/offers', `external_user_id=u1&currency_from=${GBP}&currency_to=${BTC}&amount_from=10&country=GB`, 400],
  ])('GET %s?%s is %d', async (path, query, status) => {
    await check('GET', path, `${path}?${query}`, status);
  });

  describe('offers', () => {
    const offers = '/api/on_ramp/offers';
    const query = (extra: string) => `${offers}?external_user_id=u1&currency_to=${BTC}&amount_from=100&${extra}`;

    test('offers alone, and offers with the reasons of the providers left out', async () => {
      // Transak does not serve Louisiana.
      const plain = await check('GET', offers, query(`currency_from=${USD}&country=US&state=LA`), 200);
      expect(plain.body.sandbox.amount_expected_to).toBeDefined();
      expect(plain.body.transak).toBeUndefined();
      const withErrors = await check('GET', offers, query(`currency_from=${USD}&country=US&state=LA&include_errors=true`), 200);
      expect(withErrors.body.transak.error.code).toBe('state');
      const limits = await check(
        'GET',
        offers,
        query(`currency_from=${USD}&country=GB&include_errors=true`).replace('amount_from=100', 'amount_from=5'),
        200,
      );
      expect(limits.body.sandbox.error).toMatchObject({ code: 'limits', min_amount: expect.any(String) });
    });

    test.each<[string, number]>([
      [`currency_from=USD&country=GB`, 400],
      [`currency_from=99999&country=GB`, 400],
      [`currency_from=${USD}&country=US`, 400],
      [`currency_from=${USD}&country=gb`, 400],
      [`currency_from=${BTC}&country=GB`, 422],
    ])('?%s is %d', async (extra, status) => {
      await check('GET', offers, query(extra), status);
    });
  });

  describe('orders', () => {
    const orders = '/api/on_ramp/orders';
    const post = (body: unknown) => (r: request.Test) => r.send(body as object);

    test.each<{ what: string; overrides: Record<string, unknown>; status: number }>([
      { what: 'a missing field', overrides: { external_order_id: undefined }, status: 400 },
      { what: 'a ticker', overrides: { from_currency: 'USD' }, status: 400 },
      { what: 'an unknown field', overrides: { colour: 'red' }, status: 400 },
      { what: 'a crypto currency to pay with', overrides: { from_currency: BTC }, status: 422 },
      { what: 'a valid body while Temporal is unreachable', overrides: {}, status: 503 },
    ])('$what is $status', async ({ overrides, status }) => {
      const res = await check('POST', orders, orders, status, post({ ...draftOrder(), ...overrides }));
      if (status === 503) expect(res.headers['retry-after']).toBeDefined();
    });

    test('a body that is not JSON is 400, a form 415, a huge body 413', async () => {
      await check('POST', orders, orders, 400, (r) => r.set('Content-Type', 'application/json').send('{"provider_code": '));
      await check('POST', orders, orders, 415, (r) => r.type('form').send('a=b'));
      await check('POST', orders, orders, 413, post({ ...draftOrder(), extras: { blob: 'x'.repeat(70_000) } }));
    });

    test('order status: 400 without a code, 503 while Temporal is unreachable, 401 without a key', async () => {
      const template = '/api/on_ramp/orders/{provider_code}';
      await check('GET', template, `${orders}/sandbox`, 400);
      await check('GET', template, `${orders}/sandbox?code=not-a-uuid`, 400);
      await check('GET', template, `${orders}/sandbox?code=8d3f6f8e-1b2c-4d5e-9f00-112233445566`, 503);
      expectResponseConforms('GET', template, await request(app).get(`${orders}/sandbox?code=8d3f6f8e-1b2c-4d5e-9f00-112233445566`));
    });

    test('order search: 400 for a bad filter, a quote or an unknown parameter, 503 while Temporal is unreachable, 401 without a key', async () => {
      for (const query of [
        'status=lost',
        "external_order_id=o'1",
        'limit=0',
        'limit=101',
        'created_from=yesterday',
        'colour=red',
        'cursor=e30',
        'kind=sell',
        'kind=on_ramp&status=waiting_for_deposit',
        'kind=off_ramp&status=hold',
      ]) {
        await check('GET', orders, `${orders}?${query}`, 400);
      }
      await check('GET', orders, `${orders}?status=complete&limit=5`, 503);
      await check('GET', orders, `${orders}?kind=off_ramp&status=deposit_received`, 503);
      expectResponseConforms('GET', orders, await request(app).get(orders));
    });

    test('order export: 400 for a bad window or filter, 503 while Temporal is unreachable, 401 without a key', async () => {
      const template = `${orders}/export`;
      const window = 'requested_from=2026-11-01T00:00:00Z&requested_to=2026-11-02T00:00:00Z';
      for (const query of [
        '',
        'requested_from=2026-11-01T00:00:00Z',
        `${window}&format=xml`,
        `${window}&colour=red`,
        `${window}&status=lost`,
        `${window}&kind=buy`,
        `${window}&kind=off_ramp&status=pending`,
      ]) {
        await check('GET', template, `${template}?${query}`, 400);
      }
      const unreachable = await check('GET', template, `${template}?${window}&format=jsonl`, 503);
      expect(unreachable.headers['retry-after']).toBeDefined();
      expectResponseConforms('GET', template, await request(app).get(`${template}?${window}`));
    });

    test('webhook test: 404 without a webhook endpoint, 401 without a key', async () => {
      await check('POST', '/api/on_ramp/webhooks/test', '/api/on_ramp/webhooks/test', 404);
      expectResponseConforms('POST', '/api/on_ramp/webhooks/test', await request(app).post('/api/on_ramp/webhooks/test'));
    });

    test("an order's webhooks: 400 without a code, 503 while Temporal is unreachable, 401 without a key", async () => {
      const code = '8d3f6f8e-1b2c-4d5e-9f00-112233445566';
      for (const [method, template, path] of [
        ['POST', '/api/on_ramp/orders/{provider_code}/webhooks/resend', `${orders}/sandbox/webhooks/resend`],
        ['GET', '/api/on_ramp/orders/{provider_code}/webhooks', `${orders}/sandbox/webhooks`],
        ['POST', '/api/off_ramp/orders/{provider_code}/webhooks/resend', '/api/off_ramp/orders/sandbox/webhooks/resend'],
        ['GET', '/api/off_ramp/orders/{provider_code}/webhooks', '/api/off_ramp/orders/sandbox/webhooks'],
      ] as const) {
        await check(method, template, path, 400);
        await check(method, template, `${path}?code=not-a-uuid`, 400);
        await check(method, template, `${path}?code=${code}`, 503);
        expectResponseConforms(method, template, await request(app)[method === 'GET' ? 'get' : 'post'](`${path}?code=${code}`));
      }
    });
  });

  test('sell orders and deposit confirmations: 400 for a bad body or code, 401 without a key, 503 while Temporal is unreachable', async () => {
    const create = '/api/off_ramp/orders';
    const bad = await request(app)
      .post(create)
      .set('X-Api-Key', TEST_API_KEY)
      .send({ provider_code: 'sandbox', extras: { deposit_address: 'x' } });
    expect([bad.status, bad.body.code]).toEqual([400, 'validation_error']);
    expectResponseConforms('POST', create, bad);
    const anonymous = await request(app).post(create).send({});
    expect(anonymous.status).toBe(401);
    expectResponseConforms('POST', create, anonymous);
    const template = '/api/off_ramp/orders/{provider_code}';
    for (const [query, status] of [
      ['', 400],
      ['?code=not-a-uuid', 400],
      ['?code=0b8f4a8e-6a53-4b39-9b7e-3f1f2c1d0e9a', 503],
    ] as const) {
      const res = await request(app).get(`/api/off_ramp/orders/sandbox${query}`).set('X-Api-Key', TEST_API_KEY);
      expect(res.status).toBe(status);
      expectResponseConforms('GET', template, res);
    }
    const confirmation = '/api/off_ramp/orders/{provider_code}/deposit_confirmation';
    for (const [query, body, status] of [
      ['', { transaction_hash: `0x${'ab'.repeat(32)}` }, 400],
      ['?code=0b8f4a8e-6a53-4b39-9b7e-3f1f2c1d0e9a', { transaction_hash: `0x${'ab'.repeat(32)}` }, 503],
    ] as const) {
      const res = await request(app)
        .post(`/api/off_ramp/orders/banxa/deposit_confirmation${query}`)
        .set('X-Api-Key', TEST_API_KEY)
        .send(body);
      expect(res.status).toBe(status);
      expectResponseConforms('POST', confirmation, res);
    }
    const anonymousConfirmation = await request(app).post('/api/off_ramp/orders/banxa/deposit_confirmation?code=x').send({});
    expect(anonymousConfirmation.status).toBe(401);
    expectResponseConforms('POST', confirmation, anonymousConfirmation);
  });

  test('forget a customer: 204 (twice), 400 for a bad id, 401 without a key', async () => {
    const template = '/api/on_ramp/customers/{external_user_id}';
    const path = '/api/on_ramp/customers/user-1';
    for (let i = 0; i < 2; i++) {
      const res = await request(app).delete(path).set('X-Api-Key', TEST_API_KEY);
      expect(res.status).toBe(204);
      expectResponseConforms('DELETE', template, res);
    }
    const bad = await request(app).delete('/api/on_ramp/customers/two%20words').set('X-Api-Key', TEST_API_KEY);
    expect(bad.status).toBe(400);
    expectResponseConforms('DELETE', template, bad);
    expectResponseConforms('DELETE', template, await request(app).delete(path));
  });

  test("review queue and actions: 400 for bad input, 503 while Temporal is unreachable, 401 without an operator's key", async () => {
    const key = (r: request.Test) => r.set('Authorization', `Bearer ${DEFAULT_DEV_OPERATOR_KEY}`);
    const ORDER = '0b8f4a8e-6a53-4b39-9b7e-3f1f2c1d0e9a';
    const cases: [method: 'get' | 'post', template: string, path: string, body?: unknown][] = [
      ['get', '/api/operator/reviews', '/api/operator/reviews?reason=lost'],
      ['get', '/api/operator/reviews', '/api/operator/reviews?limit=0'],
      ['get', '/api/operator/reviews', "/api/operator/reviews?provider_code=x'y"],
      ['get', '/api/operator/reviews/{review_id}', '/api/operator/reviews/not-a-review'],
      ['post', '/api/operator/reviews/{review_id}/acknowledge', `/api/operator/reviews/${ORDER}/acknowledge`, {}],
      [
        'post',
        '/api/operator/reviews/{review_id}/acknowledge',
        `/api/operator/reviews/${ORDER}/acknowledge`,
        { note: 'x', reasons: ['lost'] },
      ],
      ['post', '/api/operator/orders/{order_id}/poll', '/api/operator/orders/123/poll', {}],
      ['post', '/api/operator/orders/{order_id}/cancel', '/api/operator/orders/123/cancel', { note: 'x' }],
      ['post', '/api/operator/orders/{order_id}/resend_webhook', '/api/operator/orders/123/resend_webhook', {}],
    ];
    for (const [method, template, path, body] of cases) {
      const res = await key(request(app)[method](path)).send(body as object);
      expect([path, res.status, res.body.code]).toEqual([path, 400, 'validation_error']);
      expectResponseConforms(method.toUpperCase(), template, res);
    }
    for (const [method, template, path, body] of [
      ['get', '/api/operator/reviews', '/api/operator/reviews?reason=payment_differs'],
      ['get', '/api/operator/reviews/{review_id}', `/api/operator/reviews/${ORDER}`],
      ['post', '/api/operator/reviews/{review_id}/acknowledge', `/api/operator/reviews/${ORDER}/acknowledge`, { note: 'checked' }],
      ['post', '/api/operator/orders/{order_id}/poll', `/api/operator/orders/${ORDER}/poll`, {}],
      ['post', '/api/operator/orders/{order_id}/cancel', `/api/operator/orders/${ORDER}/cancel`, { note: 'customer asked' }],
      ['post', '/api/operator/orders/{order_id}/resend_webhook', `/api/operator/orders/${ORDER}/resend_webhook`],
    ] as const) {
      const res = await key(request(app)[method](path)).send(body);
      expect([path, res.status, res.body.code]).toEqual([path, 503, 'service_unavailable']);
      expectResponseConforms(method.toUpperCase(), template, res);
      const anonymous = await request(app)[method](path).set('X-Api-Key', TEST_API_KEY).send(body);
      expect([path, anonymous.status]).toEqual([path, 401]);
      expectResponseConforms(method.toUpperCase(), template, anonymous);
    }
  }, 120_000);

  test("daily summary: 400 for a bad date, a day not ended or a bad filter, 503 while Temporal is unreachable, 401 without an operator's key", async () => {
    const template = '/api/operator/summaries/daily';
    const operator = (path: string) => request(app).get(path).set('Authorization', `Bearer ${DEFAULT_DEV_OPERATOR_KEY}`);
    const today = new Date().toISOString().slice(0, 10);
    for (const query of [
      '',
      'date=2026-02-30',
      'date=2026-11-01&format=xml',
      'date=2026-11-01&colour=red',
      'date=2026-11-01&provider_code=Sand',
      `date=${today}`,
    ]) {
      const res = await operator(`${template}?${query}`);
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'validation_error']);
      expectResponseConforms('GET', template, res);
    }
    const unreachable = await operator(`${template}?date=2026-11-01&format=csv`);
    expect([unreachable.status, unreachable.body.code, unreachable.headers['retry-after']]).toEqual([
      503,
      'service_unavailable',
      expect.any(String),
    ]);
    expectResponseConforms('GET', template, unreachable);
    for (const res of [
      await request(app).get(`${template}?date=2026-11-01`),
      await request(app).get(`${template}?date=2026-11-01`).set('X-Api-Key', TEST_API_KEY),
      await request(app).get(`${template}?date=2026-11-01`).set('Authorization', `Bearer ${TEST_API_KEY}`),
    ]) {
      expect(res.status).toBe(401);
      expectResponseConforms('GET', template, res);
    }
    const posted = await request(app).post(`${template}?date=2026-11-01`).set('X-Operator-Key', DEFAULT_DEV_OPERATOR_KEY);
    expect(posted.status).toBe(405);
  });

  describe('validate-address', () => {
    const path = '/api/on_ramp/validate-address';

    test.each<{ what: string; body: Record<string, unknown>; status: number }>([
      {
        what: 'a valid address',
        body: { provider_code: 'sandbox', currency: BTC, wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
        status: 200,
      },
      { what: 'an invalid address', body: { provider_code: 'sandbox', currency: BTC, wallet_address: 'not-an-address' }, status: 200 },
      { what: 'a ticker', body: { provider_code: 'sandbox', currency: 'BTC', wallet_address: 'x' }, status: 400 },
      { what: 'a fiat currency', body: { provider_code: 'sandbox', currency: USD, wallet_address: 'x' }, status: 422 },
    ])('$what is $status', async ({ body, status }) => {
      await check('POST', path, path, status, (r) => r.send(body));
    });

    test('a form is 415', async () => {
      await check('POST', path, path, 415, (r) => r.type('form').send('a=b'));
    });
  });

  describe('provider webhooks', () => {
    const template = '/api/webhooks/{provider_code}';

    test('401 unsigned, 404 unknown provider, 503 signed while Temporal is unreachable', async () => {
      expectResponseConforms('POST', template, await request(app).post('/api/webhooks/sandbox').send({ event_id: 'x' }));
      expectResponseConforms('POST', template, await request(app).post('/api/webhooks/nobody').send({}));
      const { body, signature } = signedSandboxWebhook(DEV_SANDBOX_WEBHOOK_SECRET, {
        partner_order_id: '8d3f6f8e-1b2c-4d5e-9f00-112233445566',
        status: 'COMPLETED',
      });
      const signed = await request(app)
        .post('/api/webhooks/sandbox')
        .set('Content-Type', 'application/json')
        .set('Sandbox-Signature', signature)
        .send(body);
      expect(signed.status).toBe(503);
      expectResponseConforms('POST', template, signed);
      expect([...checkedAnswers()]).toEqual(
        expect.arrayContaining([`POST ${template} 401`, `POST ${template} 404`, `POST ${template} 503`]),
      );
    });
  });

  test('health: 200 alive, 503 not ready', async () => {
    expectResponseConforms('GET', '/healthz', await request(app).get('/healthz'));
    const ready = await request(app).get('/readyz');
    expect(ready.status).toBe(503);
    expectResponseConforms('GET', '/readyz', ready);
  });

  test('429 over the rate limit', async () => {
    const limited = buildApi({ ...config, rateLimit: { limit: 1, windowMs: 60_000 } }, unreachableTemporal, logger);
    const first = await request(limited).get('/api/dict/currencies').set('X-Api-Key', TEST_API_KEY);
    expect(first.headers.ratelimit).toBeDefined();
    const res = await request(limited).get('/api/dict/currencies').set('X-Api-Key', TEST_API_KEY);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expectResponseConforms('GET', '/api/dict/currencies', res);
  });

  test('every operation had at least one answer checked', () => {
    const checked = new Set([...checkedAnswers()].map((answer) => answer.split(' ').slice(0, 2).join(' ')));
    expect([...documentedOperations()].filter((operation) => !checked.has(operation))).toEqual([]);
  });
});
