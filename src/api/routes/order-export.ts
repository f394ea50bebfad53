import type { RequestHandler, Response } from 'express';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createGzip, constants as zlib, type Gzip } from 'node:zlib';
import type { CurrencyDictionary } from '../../domain/currency';
import { orderExportsEnded } from '../../metrics/metrics';
import { ExportCutError, type OrderExport, type OrderExportLimits, type OrderExports } from '../../orders/export';
import { integratorOf } from '../auth';
import { csvHeader, csvRow, EXPORT_CONTENT_TYPES, jsonLine, type ExportFormat } from '../order-export-format';
import { ProblemError, REQUEST_PARSE, validationProblem } from '../problem';
import { OrderExportQuerySchema } from '../schemas';
import { checkKindOfStatus } from './order-search';

const DAY_MS = 86_400_000;

/**
 * GET /api/on_ramp/orders/export: the caller's orders of a window, buys and sells, streamed as CSV or JSON lines.
 * Everything that can be refused is refused before the status line (a bad query, a window too wide,
 * too recent or holding too many orders, an export of the integrator's already running, Temporal
 * out of reach for the count or the first page); after it, an export that cannot finish (past its
 * time limit, however it spends it, Temporal gone, a record it cannot decode) ends with the
 * connection reset rather than a complete body, so that a cut export never passes for a whole one.
 */
export function exportOrdersHandler(exports: OrderExports, currencies: CurrencyDictionary): RequestHandler {
  return async (req, res) => {
    const integrator = integratorOf(req);
    const parsed = OrderExportQuerySchema.safeParse(req.query, REQUEST_PARSE);
    if (!parsed.success) throw validationProblem(parsed.error, 'query');
    const query = parsed.data;
    checkKindOfStatus(query.status, query.kind);
    const fromMs = Date.parse(query.requested_from);
    const toMs = Date.parse(query.requested_to);
    checkWindow(fromMs, toMs, exports.limits);
    // Whatever holds the export up (visibility, the budget, a client that reads slowly) counts against its time.
    const timedOut = AbortSignal.timeout(exports.limits.maxDurationMs);
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    // The client may have left while the request waited its turn, before this listener.
    if (res.destroyed || req.socket.destroyed) return;
    const stop = AbortSignal.any([gone.signal, timedOut]);
    const format: ExportFormat = query.format ?? 'csv';
    const outcomeOf = (err: unknown) =>
      gone.signal.aborted ? 'client_gone' : timedOut.aborted ? 'timeout' : err instanceof ExportCutError ? err.reason : 'failed';
    let run: OrderExport;
    try {
      run = await exports.start(
        {
          integratorId: integrator.id,
          requestedFromMs: fromMs,
          requestedBeforeMs: toMs,
          status: query.status,
          providerCode: query.provider_code,
          externalUserId: query.external_user_id,
          kind: query.kind,
        },
        stop,
      );
    } catch (err) {
      orderExportsEnded.inc({ format, outcome: gone.signal.aborted ? 'client_gone' : 'refused' });
      if (gone.signal.aborted) return;
      throw timedOut.aborted ? new ExportCutError('timeout') : err;
    }
    let rows = 0;
    try {
      const pages = run.pages();
      // The first page before the status line: a failure there is still a problem answer.
      let page = await pages.next();
      const body = startBody(res, format, fromMs, toMs, req.acceptsEncodings('gzip', 'identity') === 'gzip');
      if (format === 'csv') await write(res, body, csvHeader(), stop);
      for (; !page.done; page = await pages.next()) {
        const records = page.value;
        rows += records.length;
        await write(res, body, records.map((r) => (format === 'csv' ? csvRow(r, currencies) : jsonLine(r))).join(''), stop);
        // Each page leaves at once, compressed or not: the client sees the export move, and no proxy sees it idle.
        if (body !== res) (body as Gzip).flush(zlib.Z_SYNC_FLUSH);
      }
      // The pages stop early when the client leaves: that is no complete export.
      stop.throwIfAborted();
      body.end();
      orderExportsEnded.inc({ format, outcome: 'complete' });
      req.log.info({ rows, format }, 'order export complete');
    } catch (err) {
      const outcome = outcomeOf(err);
      if (!res.headersSent) {
        orderExportsEnded.inc({ format, outcome: outcome === 'client_gone' ? outcome : 'refused' });
        if (outcome === 'client_gone') return;
        throw outcome === 'timeout' ? new ExportCutError('timeout') : err;
      }
      orderExportsEnded.inc({ format, outcome });
      req.log.warn({ rows, format, outcome, err: (err as Error).message }, 'order export cut');
      // Never a clean end: the chunked body stops without its last chunk.
      res.destroy();
    } finally {
      run.release();
    }
  };
}

/** A window the export can answer whole: in order, not wider than allowed, and ended long enough ago. */
function checkWindow(fromMs: number, toMs: number, limits: OrderExportLimits): void {
  const refuse = (message: string, detail: string) => {
    throw new ProblemError('validation_error', detail, [{ path: 'requested_to', message }]);
  };
  if (toMs <= fromMs) refuse('after requested_from', 'requested_to is not after requested_from.');
  if (toMs - fromMs > limits.maxWindowMs) {
    const days = limits.maxWindowMs / DAY_MS;
    refuse(`at most ${days} days after requested_from`, `An export covers at most ${days} days.`);
  }
  const latest = Date.now() - limits.settleMs;
  if (toMs > latest) {
    refuse(
      `at most ${new Date(latest).toISOString()}`,
      `requested_to must be at least ${limits.settleMs / 1000} s in the past: orders requested since may not be visible yet.`,
    );
  }
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
async function write(res: Response, body: Writable, chunk: string, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  // A response already gone takes writes without complaint: nobody would read the rest.
  if (res.destroyed || body.destroyed) throw new Error('the response is gone');
  if (body.write(chunk)) return;
  await once(body, 'drain', { signal });
}
