import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import { WebhookDeliverer } from '../../src/webhooks/delivery';
import { publicOnlyLookup } from '../../src/webhooks/ssrf';

let server: Server;
let url: string;
let answer: (res: ServerResponse) => void;
const seen: { headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ headers: req.headers, body });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const message = () => ({ url, secret: DEFAULT_DEV_WEBHOOK_SECRET, id: 'evt_a_1', body: '{"type":"order.status_changed"}' });

describe('WebhookDeliverer', () => {
  const open = new WebhookDeliverer({ allowPrivateNetworks: true, timeoutMs: 500 });
  const guarded = new WebhookDeliverer({ allowPrivateNetworks: false, timeoutMs: 500 });
  afterAll(async () => {
    await open.close();
    await guarded.close();
  });

  test('a 2xx answer is a delivery; the request carries the body and the three headers', async () => {
    answer = (res) => res.writeHead(202).end('thanks');
    await expect(open.attempt(message())).resolves.toEqual({ outcome: 'delivered', status: 202 });
    const last = seen.at(-1)!;
    expect(last.body).toBe('{"type":"order.status_changed"}');
    expect(last.headers).toMatchObject({ 'webhook-id': 'evt_a_1', 'content-type': 'application/json' });
    expect(String(last.headers['webhook-signature'])).toMatch(/^v1,/);
  });

  test('an error answer is a failure carrying its Retry-After', async () => {
    answer = (res) => res.writeHead(429, { 'retry-after': '42' }).end();
    await expect(open.attempt(message())).resolves.toEqual({ outcome: 'failed', status: 429, error: 'HTTP 429', retryAfterMs: 42_000 });
  });

  test('a redirect is not followed: it is a failure', async () => {
    answer = (res) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    await expect(open.attempt(message())).resolves.toMatchObject({ outcome: 'failed', status: 302 });
  });

  test('no answer in time is a failure', async () => {
    answer = () => undefined;
    await expect(open.attempt(message())).resolves.toEqual({ outcome: 'failed', error: 'no answer within 500 ms' });
  });

  test('nobody listening is a failure', async () => {
    await expect(open.attempt({ ...message(), url: 'http://127.0.0.1:1/hooks' })).resolves.toMatchObject({ outcome: 'failed' });
  });

  test('with the guard on, a loopback receiver is refused before any request', async () => {
    const before = seen.length;
    await expect(guarded.attempt(message())).resolves.toMatchObject({ outcome: 'refused' });
    expect(seen.length).toBe(before);
  });

  test('with the guard on, a name that resolves to a private address is refused at connect time', async () => {
    const refused = await new Promise<Error | null>((resolve) => publicOnlyLookup('localhost', {}, (err) => resolve(err)));
    expect(refused?.message).toMatch(/localhost resolves to .* which is not a public address/);
  });
});
