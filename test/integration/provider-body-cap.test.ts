/**
 * Provider answers are read with a size cap (src/providers/kit/http.ts): a local HTTP server
 * streams answers far over it, and the call fails fast, having read little of them.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_BODY_BYTES, providerRequest } from '../../src/providers/kit/http';
import { ProviderUnavailableError } from '../../src/providers/types';

const HUGE_BYTES = 64 * 1024 * 1024;
const CHUNK = Buffer.from('0,'.repeat(32 * 1024));

let server: Server;
let baseUrl: string;
/** Bytes the server managed to hand to the socket for the last streamed answer, and whether it was cut off. */
let streamed = { bytes: 0, closedEarly: false };

/** A valid JSON array of `total` bytes, written as fast as the client reads it. */
function streamJsonArray(res: ServerResponse, total: number): void {
  streamed = { bytes: 0, closedEarly: false };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const more = () => {
    while (streamed.bytes + CHUNK.length < total) {
      streamed.bytes += CHUNK.length;
      if (!res.write(CHUNK)) {
        res.once('drain', more);
        return;
      }
    }
    res.end('0]');
  };
  res.on('close', () => {
    if (!res.writableFinished) streamed.closedEarly = true;
  });
  more();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/huge') return streamJsonArray(res, HUGE_BYTES);
    if (req.url === '/declared-huge') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 * 1024 * 1024) });
      res.write('[');
      return;
    }
    const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('size'));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify('é'.repeat((size - 2) / 2)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('a provider streaming a huge answer fails the call at the cap, with little of it read', async () => {
  const started = Date.now();
  const call = providerRequest(`${baseUrl}/huge`, { timeoutMs: 5000 });
  await expect(call).rejects.toThrow(ProviderUnavailableError);
  await expect(call).rejects.toThrow(`GET /huge: answer is over the ${DEFAULT_MAX_BODY_BYTES}-byte cap`);
  expect(Date.now() - started).toBeLessThan(3000);
  await waitFor(() => streamed.closedEarly);
  // The cap plus what the sockets' buffers took in before the connection was closed.
  expect(streamed.bytes).toBeLessThan(HUGE_BYTES / 4);
});

test('an answer whose Content-Length is over the cap is refused without waiting for its body', async () => {
  const started = Date.now();
  await expect(providerRequest(`${baseUrl}/declared-huge`, { timeoutMs: 5000 })).rejects.toThrow(/answer is over the \d+-byte cap/);
  expect(Date.now() - started).toBeLessThan(1000);
});

test('the cap is per call: an answer of exactly the cap is read, one byte more is refused', async () => {
  await expect(providerRequest(`${baseUrl}/sized?size=100`, { timeoutMs: 5000, maxBodyBytes: 100 })).resolves.toEqual({
    status: 200,
    body: 'é'.repeat(49),
  });
  await expect(providerRequest(`${baseUrl}/sized?size=102`, { timeoutMs: 5000, maxBodyBytes: 101 })).rejects.toThrow(
    'GET /sized: answer is over the 101-byte cap',
  );
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
