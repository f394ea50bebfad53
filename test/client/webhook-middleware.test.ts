/**
 * The client package's webhook middleware facing a hostile sender: a body cut off halfway and a body
 * too large must be answered (or dropped) without taking the integrator's process down.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_WEBHOOK_BODY_BYTES, webhookMiddleware } from '../../clients/typescript/src';

let server: Server;
let port: number;
const events: unknown[] = [];

beforeAll(async () => {
  server = createServer(webhookMiddleware('whsec_' + Buffer.from('x'.repeat(32)).toString('base64'), (event) => void events.push(event)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function post(headers: Record<string, string | number>, body: Buffer, abortAfterBytes?: number): Promise<number | 'aborted'> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', (err) => (abortAfterBytes === undefined ? reject(err) : resolve('aborted')));
    if (abortAfterBytes === undefined) req.end(body);
    else {
      req.write(body.subarray(0, abortAfterBytes));
      setTimeout(() => req.destroy(), 50);
    }
  });
}

test('a sender that drops the connection halfway through the body does not crash the process', async () => {
  const body = Buffer.alloc(10_000, 'a');
  expect(await post({ 'content-length': body.length }, body, 100)).toBe('aborted');
  await new Promise((r) => setTimeout(r, 100));
  // Still serving: an unsigned message is refused as usual.
  expect(await post({ 'content-type': 'application/json' }, Buffer.from('{}'))).toBe(400);
  expect(events).toEqual([]);
});

test('a body over the limit is 413, declared or not', async () => {
  const big = Buffer.alloc(MAX_WEBHOOK_BODY_BYTES + 1, 'a');
  expect(await post({ 'content-length': big.length }, big)).toBe(413);
  expect(await post({ 'transfer-encoding': 'chunked' }, big)).toBe(413);
  expect(events).toEqual([]);
});
