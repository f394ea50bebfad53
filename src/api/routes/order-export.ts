import type { RequestHandler, Response } from 'express';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createGzip, constants as zlib, type Gzip } from 'node:zlib';
import type { CurrencyDictionary } from '../../domain/currency';
import { orderExportsEnded } from '../../metrics/metrics';
import { ExportCutError, type OrderExports } from '../../orders/export';
import { integratorOf } from '../auth';
import { csvHeader, csvRow, EXPORT_CONTENT_TYPES, jsonLine, type ExportFormat } from '../order-export-format';
import { ProblemError, REQUEST_PARSE, validationProblem } from '../problem';
import { OrderExportQuerySchema } from '../schemas';

const DAY_MS = 86_400_000;

/**
 * GET /api/on_ramp/orders/export: the caller's orders of a window, streamed as CSV or JSON lines.
 * Everything that can be refused is refused before the status line (a bad query, a window too wide
 * or holding too many orders, an export of the integrator's already running, Temporal out of reach
 * for the count or the first page); after it, an export that cannot finish (past its time limit,
 * Temporal gone) ends with the connection reset rather than a complete body, so that a cut export
 * can never pass for a whole one.
 */
export function exportOrdersHandler(exports: OrderExports, currencies: CurrencyDictionary): RequestHandler {
  return async (req, res) => {
    const integrator = integratorOf(req);
    const parsed = OrderExportQuerySchema.safeParse(req.query, REQUEST_PARSE);
    if (!parsed.success) throw validationProblem(parsed.error, 'query');
    const query = parsed.data;
    const createdFromMs = Date.parse(query.created_from);
    // The window ends at the request at the latest: an export is of orders that exist when it starts.
    const createdToMs = Math.min(Date.parse(query.created_to), Date.now());
    if (createdToMs < createdFromMs) {
      throw new ProblemError('validation_error', 'created_to is before created_from.', [
        { path: 'created_to', message: 'at or after created_from (and created_from not after now)' },
      ]);
    }
    const { maxWindowMs } = exports.limits;
    if (createdToMs - createdFromMs > maxWindowMs) {
      throw new ProblemError('validation_error', `An export covers at most ${maxWindowMs / DAY_MS} days.`, [
        { path: 'created_to', message: `at most ${maxWindowMs / DAY_MS} days after created_from` },
      ]);
    }
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const format: ExportFormat = query.format ?? 'csv';
    const run = await exports.start(
      {
        integratorId: integrator.id,
        createdFromMs,
        createdToMs,
        status: query.status,
        providerCode: query.provider_code,
        externalUserId: query.external_user_id,
      },
      gone.signal,
    );
    let rows = 0;
    try {
      const pages = run.pages();
      // The first page before the status line: a failure there is still a problem answer.
      let page = await pages.next();
      const body = startBody(res, format, createdFromMs, createdToMs, req.acceptsEncodings('gzip', 'identity') === 'gzip');
      if (format === 'csv') await write(body, csvHeader(), gone.signal);
      for (; !page.done; page = await pages.next()) {
        const records = page.value;
        rows += records.length;
        await write(body, records.map((r) => (format === 'csv' ? csvRow(r, currencies) : jsonLine(r))).join(''), gone.signal);
        // Each page leaves at once, compressed or not: the client sees the export move, and no proxy sees it idle.
        if (body !== res) (body as Gzip).flush(zlib.Z_SYNC_FLUSH);
      }
      body.end();
      orderExportsEnded.inc({ format, outcome: 'complete' });
      req.log.info({ rows, format }, 'order export complete');
    } catch (err) {
      if (!res.headersSent) {
        orderExportsEnded.inc({ format, outcome: 'refused' });
        throw err;
      }
      const outcome = gone.signal.aborted ? 'client_gone' : err instanceof ExportCutError ? err.reason : 'failed';
      orderExportsEnded.inc({ format, outcome });
      req.log.warn({ rows, format, outcome, err: (err as Error).message }, 'order export cut');
      // Never a clean end: the chunked body stops without its last chunk.
      res.destroy();
    } finally {
      run.release();
    }
  };
}

/** The status line and headers, and the stream the rows go to (gzip when the client takes it). */
function startBody(res: Response, format: ExportFormat, fromMs: number, toMs: number, gzip: boolean): Writable {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  res.status(200);
  res.setHeader('Content-Type', EXPORT_CONTENT_TYPES[format]);
  res.setHeader('Content-Disposition', `attachment; filename="orders-${day(fromMs)}-${day(toMs)}.${format}"`);
  res.setHeader('Vary', 'Accept-Encoding');
  if (!gzip) return res;
  res.setHeader('Content-Encoding', 'gzip');
  // A fast level: the export is paced by visibility, and the API's CPU is the other integrators'.
  const gzipped = createGzip({ level: 1, flush: zlib.Z_NO_FLUSH });
  gzipped.pipe(res);
  res.on('close', () => gzipped.destroy());
  return gzipped;
}

/** Writes `chunk`, then waits while the client is slower than the export (its memory stays at a page). */
async function write(body: Writable, chunk: string, signal: AbortSignal): Promise<void> {
  if (body.write(chunk)) return;
  await once(body, 'drain', { signal });
}
