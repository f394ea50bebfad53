import { createServer, type Server } from 'node:http';
import { z } from 'zod';
import { callChecked, parseAnswer, readAnswer, type Refusal } from '../../../../src/providers/kit/json-call';
import { ProviderRejectedError, ProviderUnavailableError } from '../../../../src/providers/types';

const QuoteSchema = z.object({ price: z.string() });
const refusal: Refusal = (route, status, body) =>
  status === 401 ? new ProviderUnavailableError(`${route}: key refused`) : new ProviderRejectedError('rejected', JSON.stringify(body));
const call = { route: '/v1/quote', schema: QuoteSchema, refusal };

describe('readAnswer', () => {
  test.each([200, 201, 204, 299])('a %s answer is parsed with the schema', (status) => {
    expect(readAnswer({ status, body: { price: '1.5', other: 1 } }, call)).toEqual({ price: '1.5' });
  });

  test('a 2xx answer of another shape means the provider is unavailable, naming the route', () => {
    expect(() => readAnswer({ status: 200, body: { price: 1.5 } }, call)).toThrow(
      new ProviderUnavailableError('/v1/quote: unexpected answer shape'),
    );
    expect(() => readAnswer({ status: 200, body: undefined }, call)).toThrow(ProviderUnavailableError);
  });

  test.each([
    [401, new ProviderUnavailableError('/v1/quote: key refused')],
    [400, new ProviderRejectedError('rejected', '{"error":"amount"}')],
    [404, new ProviderRejectedError('rejected', '{"error":"amount"}')],
    [302, new ProviderRejectedError('rejected', '{"error":"amount"}')],
  ])('any other answer (%s) is the error the provider’s refusal makes of it', (status, expected) => {
    expect(() => readAnswer({ status, body: { error: 'amount' } }, call)).toThrow(expected);
  });

  test('the refusal gets the route, the status and the body', () => {
    const seen: unknown[] = [];
    const spy: Refusal = (...args) => {
      seen.push(args);
      return new ProviderRejectedError('not_found', 'gone');
    };
    expect(() => readAnswer({ status: 404, body: { code: 'X' } }, { ...call, refusal: spy })).toThrow(ProviderRejectedError);
    expect(seen).toEqual([['/v1/quote', 404, { code: 'X' }]]);
  });
});

describe('parseAnswer', () => {
  test('parses with the schema, or refuses naming the route', () => {
    expect(parseAnswer('/token', QuoteSchema, { price: '2' })).toEqual({ price: '2' });
    expect(() => parseAnswer('/token', QuoteSchema, [])).toThrow('/token: unexpected answer shape');
  });
});

describe('callChecked', () => {
  const check = (body: unknown) => (typeof (body as { price?: unknown })?.price === 'string' ? (body as { price: string }) : undefined);

  const servers: Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));

  async function answerWith(status: number, body: string): Promise<string> {
    const server = createServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    servers.push(server);
    return `http://127.0.0.1:${port}/v1/quote`;
  }
  test('a 2xx answer of the checked shape is the answer; another shape is unexpected; other answers are the refusal', async () => {
    const options = { route: '/v1/quote', check, refusal, timeoutMs: 2000 };
    await expect(callChecked(await answerWith(200, '{"price":"1.5"}'), options)).resolves.toEqual({ price: '1.5' });
    await expect(callChecked(await answerWith(200, '{"price":1.5}'), options)).rejects.toThrow(
      new ProviderUnavailableError('/v1/quote: unexpected answer shape'),
    );
    await expect(callChecked(await answerWith(200, ''), options)).rejects.toThrow(ProviderUnavailableError);
    await expect(callChecked(await answerWith(400, '{"error":"amount"}'), options)).rejects.toThrow(
      new ProviderRejectedError('rejected', '{"error":"amount"}'),
    );
  });
});
