/**
 * An export that fails after its first rows went out never ends like a whole one: the route resets
 * the connection, so the client's read fails rather than returning a short file. Over real HTTP, with
 * the route and error handler of the API and a search that fails on its second page.
 */
import express from 'express';
import { OnrampClient } from '../../clients/typescript/src';
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import pino from 'pino';
import { errorHandler } from '../../src/api/problem';
import { exportOrdersHandler } from '../../src/api/routes/order-export';
import { currencyDictionary } from '../../src/domain/currencies';
import { OrderExports, type OrderExportLimits } from '../../src/orders/export';
import type { OrderRecord, OrderSearch } from '../../src/orders/search';

const LIMITS: OrderExportLimits = {
  maxRows: 100,
  maxDurationMs: 60_000,
  maxWindowMs: 86_400_000,
  settleMs: 0,
  pageSize: 2,
  perIntegrator: 1,
  total: 4,
};

const record = (i: number) =>
  ({
    order: {
      id: `00000000-0000-0000-0000-00000000000${i}`,
      status: 'created',
      from_currency: 1,
      to_currency: 13,
      from_amount: '100.00',
      to_amount: '0.001',
      extras: {},
      created_at: '2026-11-30T00:00:00.000Z',
      updated_at: '2026-11-30T00:00:00.000Z',
    },
    providerCode: 'sandbox',
  }) as unknown as OrderRecord;

function serve(failAt: number, options: { limits?: Partial<OrderExportLimits>; delayMs?: number; bigRows?: boolean } = {}) {
  let pages = 0;
  const big = options.bigRows ? { blob: 'x'.repeat(256 * 1024) } : undefined;
  const search = {
    exportCount: () => Promise.resolve(4),
    exportPage: async () => {
      pages++;
      if (pages === failAt) {
        // Later than the first page's bytes take to leave (a reset drops what is still buffered).
        await new Promise((r) => setTimeout(r, 100));
        throw new Error('visibility went away');
      }
      const records = [record(pages * 2 - 1), record(pages * 2)].map((r) => (big ? { ...r, order: { ...r.order, extras: big } } : r));
      return { records, next: { requestedAt: '2026-11-30T00:00:00.000Z', id: String(pages) } };
    },
  } as unknown as OrderSearch;
  const app = express();
  app.use((req, _res, next) => {
    Object.assign(req, { integrator: { id: 'dev' }, log: pino({ level: 'silent' }) });
    // The turn a request may wait before its route (the integrator admission, a Redis rate limit).
    if (options.delayMs) setTimeout(next, options.delayMs);
    else next();
  });
  app.get(
    '/api/on_ramp/orders/export',
    exportOrdersHandler(new OrderExports(search, { ...LIMITS, ...options.limits }), currencyDictionary),
  );
  app.use(errorHandler);
  return new Promise<{ base: string; url: string; close: () => void }>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () =>
      resolve({
        base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/on_ramp/orders/export`,
        close: () => server.close(),
      }),
    );
  });
}

const WINDOW = 'requested_from=2026-11-29T00:00:00Z&requested_to=2026-11-30T00:00:00Z';

function get(url: string): Promise<{ status: number; body: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, complete: res.complete }));
      res.on('error', () => resolve({ status: res.statusCode!, body, complete: false }));
      res.on('aborted', () => resolve({ status: res.statusCode!, body, complete: false }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a failure after the first rows resets the connection: the body is never complete', async () => {
  const server = await serve(2);
  try {
    const res = await get(`${server.url}?${WINDOW}&format=jsonl`);
    expect(res.status).toBe(200);
    expect(res.complete).toBe(false);
    // What came is the first page, whole lines only.
    expect(
      res.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([record(1).order.id, record(2).order.id]);
    await expect(fetch(`${server.url}?${WINDOW}&format=jsonl`).then((r) => r.text())).rejects.toThrow();
  } finally {
    server.close();
  }
});

test('the client package turns the cut into a network_error problem, after the lines that came whole', async () => {
  const server = await serve(2);
  try {
    const onramp = new OnrampClient({ baseUrl: server.base, apiKey: 'unused' });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const order of onramp.exportOrders({ requested_from: '2026-11-29T00:00:00Z', requested_to: '2026-11-30T00:00:00Z' }))
          seen.push(order.id);
      })(),
    ).rejects.toMatchObject({ code: 'network_error' });
    expect(seen).toEqual([record(1).order.id, record(2).order.id]);
  } finally {
    server.close();
  }
});

test('a failure on the first page is still a problem answer', async () => {
  const server = await serve(1);
  try {
    const res = await fetch(`${server.url}?${WINDOW}`);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await res.json()) as { code: string }).code).toBe('internal_error');
  } finally {
    server.close();
  }
});

test('a client that stops reading holds its export slot no longer than the time limit', async () => {
  const server = await serve(0, { limits: { maxDurationMs: 1000, maxRows: 1000 }, bigRows: true });
  try {
    // Reads nothing: the pages' quarter-megabyte rows fill the socket, and the route waits for drain.
    const stalled = request(`${server.url}?${WINDOW}&format=jsonl`, { headers: { 'accept-encoding': 'identity' } }, (res) => res.pause());
    stalled.on('error', () => undefined);
    stalled.end();
    await new Promise((r) => setTimeout(r, 300));
    expect((await fetch(`${server.url}?${WINDOW}`)).status).toBe(429);
    await new Promise((r) => setTimeout(r, 1200));
    const after = await fetch(`${server.url}?${WINDOW}`);
    // Admitted: the slot came back.
    expect(after.status).toBe(200);
    await after.body?.cancel();
    stalled.destroy();
  } finally {
    server.close();
  }
});

test.each(['identity', 'gzip'])('a client gone before the route ran takes no export slot (%s)', async (encoding) => {
  // Pages without end, up to ten million rows: an export served to nobody would hold its slot for long.
  const server = await serve(0, { delayMs: 300, limits: { maxRows: 10_000_000 } });
  try {
    const early = request(`${server.url}?${WINDOW}`, { headers: { 'accept-encoding': encoding } });
    early.on('error', () => undefined);
    early.end();
    setTimeout(() => early.destroy(), 50);
    await new Promise((r) => setTimeout(r, 800));
    const next = await fetch(`${server.url}?${WINDOW}&format=jsonl`);
    expect(next.status).toBe(200);
    await next.body?.cancel();
  } finally {
    server.close();
  }
});
