/**
 * OrderExports' own rules, over a search that answers from a list: how many run at once, the count
 * that refuses a window too large, the cut past the time limit or the row bound, and the slot given
 * back however an export ends. The pages themselves are OrderSearch's (test/e2e/order-export.test.ts).
 */
import { ExportsBusyError, ExportTooLargeError } from '../../../src/orders/errors';
import { ExportCutError, OrderExports, type OrderExportLimits } from '../../../src/orders/export';
import type { OrderRecord, OrderSearch, OrderSearchPosition } from '../../../src/orders/search';

const LIMITS: OrderExportLimits = {
  maxRows: 10,
  maxDurationMs: 60_000,
  maxWindowMs: 86_400_000,
  settleMs: 0,
  pageSize: 3,
  perIntegrator: 1,
  total: 2,
};

const recordOf = (i: number) => ({ order: { id: `o${i}` } }) as unknown as OrderRecord;

/** A search over `total` records, `pageSize` a page; `count` answers what the visibility count would. */
function listSearch(total: number, options: { count?: number; onPage?: () => void; failCount?: boolean } = {}) {
  const search = {
    pages: 0,
    exportCount() {
      return options.failCount ? Promise.reject(new Error('visibility down')) : Promise.resolve(options.count ?? total);
    },
    exportPage(_integrator: string, _filters: unknown, limit: number, after: OrderSearchPosition | undefined) {
      search.pages++;
      options.onPage?.();
      const from = after ? Number(after.id) : 0;
      const records = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, i) => recordOf(from + i));
      const next = from + limit < total ? { requestedAt: '2026-11-30T00:00:00.000Z', id: String(from + limit) } : undefined;
      return Promise.resolve({ records, ...(next ? { next } : {}) });
    },
  };
  return search;
}

const request = (integratorId = 'a') => ({ integratorId, requestedFromMs: 0, requestedBeforeMs: 1 });

async function all(exports: OrderExports, integratorId = 'a', signal = new AbortController().signal) {
  const run = await exports.start(request(integratorId), signal);
  const ids: string[] = [];
  try {
    for await (const page of run.pages()) ids.push(...page.map((r) => r.order.id));
  } finally {
    run.release();
  }
  return ids;
}

test('every record, page after page, in the order the search gives', async () => {
  const search = listSearch(8);
  expect(await all(new OrderExports(search as unknown as OrderSearch, LIMITS))).toEqual(['o0', 'o1', 'o2', 'o3', 'o4', 'o5', 'o6', 'o7']);
  expect(search.pages).toBe(3);
});

test('a window counted above maxRows is refused before any page, and its slot given back', async () => {
  const search = listSearch(5, { count: 11 });
  const exports = new OrderExports(search as unknown as OrderSearch, LIMITS);
  await expect(exports.start(request(), new AbortController().signal)).rejects.toBeInstanceOf(ExportTooLargeError);
  expect(search.pages).toBe(0);
  await expect(all(exports)).rejects.toBeInstanceOf(ExportTooLargeError);
  // The slot is free: a failed count gives it back too.
  const failing = new OrderExports(listSearch(1, { failCount: true }) as unknown as OrderSearch, LIMITS);
  await expect(failing.start(request(), new AbortController().signal)).rejects.toThrow('visibility down');
  await expect(failing.start(request(), new AbortController().signal)).rejects.toThrow('visibility down');
});

test('one export per integrator, and `total` over all of them; a released slot is taken again', async () => {
  const exports = new OrderExports(listSearch(2) as unknown as OrderSearch, LIMITS);
  const signal = new AbortController().signal;
  const first = await exports.start(request('a'), signal);
  await expect(exports.start(request('a'), signal)).rejects.toMatchObject({ constructor: ExportsBusyError, mine: true });
  const other = await exports.start(request('b'), signal);
  await expect(exports.start(request('c'), signal)).rejects.toMatchObject({ constructor: ExportsBusyError, mine: false });
  first.release();
  first.release(); // twice is once
  await expect(exports.start(request('a'), signal)).resolves.toBeDefined();
  other.release();
});

test('more rows than maxRows arriving after the count cut the export', async () => {
  const exports = new OrderExports(listSearch(12, { count: 9 }) as unknown as OrderSearch, LIMITS);
  await expect(all(exports)).rejects.toMatchObject({ constructor: ExportCutError, reason: 'too_many_rows' });
});

test('an export past its time limit is cut', async () => {
  let now = 0;
  const search = listSearch(9, { onPage: () => (now += 40_000) });
  const exports = new OrderExports(search as unknown as OrderSearch, LIMITS, () => now);
  await expect(all(exports)).rejects.toMatchObject({ constructor: ExportCutError, reason: 'timeout' });
  expect(search.pages).toBe(2);
});

test('a client gone stops the pages', async () => {
  const gone = new AbortController();
  const search = listSearch(9, { onPage: () => gone.abort() });
  const exports = new OrderExports(search as unknown as OrderSearch, LIMITS);
  expect(await all(exports, 'a', gone.signal)).toEqual(['o0', 'o1', 'o2']);
  expect(search.pages).toBe(1);
});
