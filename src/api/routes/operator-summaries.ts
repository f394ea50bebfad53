import type { RequestHandler, Router } from 'express';
import { SummaryRecordError } from '../../domain/daily-summary';
import type { CurrencyDictionary } from '../../domain/currency';
import {
  DayNotSummarizableError,
  SummariesBusyError,
  SummaryTimeoutError,
  SummaryTooLargeError,
  type DailySummaries,
} from '../../operators/daily-summary';
import { UndecodableRecordError } from '../../orders/search';
import { SUMMARY_CSV_CONTENT_TYPE, summaryBody, summaryCsv } from '../daily-summary-format';
import { operatorOf } from '../operator-auth';
import { methodNotAllowed, ProblemError, REQUEST_PARSE, validationProblem } from '../problem';
import { DailySummaryQuerySchema } from '../schemas';

export interface OperatorSummaryDependencies {
  summaries: DailySummaries;
  currencies: CurrencyDictionary;
}

/** GET /api/operator/summaries/daily (./operator-summaries.paths.ts), on the operator router (behind an operator key). */
export function operatorSummaryRoutes(router: Router, deps: OperatorSummaryDependencies): void {
  router
    .route('/summaries/daily')
    .get(dailySummaryHandler(deps))
    .all(methodNotAllowed(['GET']));
}

/**
 * The summary of one UTC day, as JSON or CSV, whole or refused: a bad query or a day that cannot be
 * summarized whole is 400 naming `date`; everything else that stops the summary (too many orders,
 * too long, a record the broker cannot read or count, Temporal out of reach) is a problem answer,
 * never a smaller summary. The answer is made once every record is read, so nothing is sent before.
 */
function dailySummaryHandler({ summaries, currencies }: OperatorSummaryDependencies): RequestHandler {
  return async (req, res) => {
    const operator = operatorOf(req);
    const parsed = DailySummaryQuerySchema.safeParse(req.query, REQUEST_PARSE);
    if (!parsed.success) throw validationProblem(parsed.error, 'query');
    const { date, format = 'json', integrator_id: integratorId, provider_code: providerCode } = parsed.data;
    const gone = new AbortController();
    res.on('close', () => gone.abort(new Error('the client went away')));
    let summary;
    try {
      summary = await summaries.summarize(
        { date, ...(integratorId === undefined ? {} : { integratorId }), ...(providerCode === undefined ? {} : { providerCode }) },
        gone.signal,
      );
    } catch (err) {
      if (gone.signal.aborted) return;
      if (err instanceof UndecodableRecordError || err instanceof SummaryRecordError) {
        req.log.error({ err: err.message }, 'daily summary: an order of the day cannot be read or counted');
      }
      throw problemOf(err) ?? err;
    }
    req.log.info({ operator: operator.id, date, format, integratorId, providerCode, rows: summary.rows.length }, 'daily summary answered');
    if (format === 'csv') {
      res.status(200);
      res.setHeader('Content-Type', SUMMARY_CSV_CONTENT_TYPE);
      res.setHeader('Content-Disposition', `attachment; filename="daily-summary-${date}.csv"`);
      res.send(summaryCsv(summary, currencies));
      return;
    }
    res.json(summaryBody(summary, integratorId, currencies));
  };
}

/** The problem a refused or failed summary is answered with; undefined for the errors the API's handler maps (Temporal out of reach). */
function problemOf(err: unknown): ProblemError | undefined {
  if (err instanceof DayNotSummarizableError) {
    const field =
      err.reason === 'not_ended'
        ? 'a day that has ended (and its orders are all visible)'
        : err.reason === 'past_retention'
          ? "a day whose orders Temporal still keeps (the namespace's retention)"
          : 'a date, YYYY-MM-DD';
    return new ProblemError('validation_error', err.message, [{ path: 'date', message: field }]);
  }
  if (err instanceof SummaryTooLargeError) return new ProblemError('summary_too_large', err.message);
  if (err instanceof SummaryTimeoutError) return new ProblemError('service_unavailable', err.message, undefined, { 'Retry-After': '60' });
  if (err instanceof SummariesBusyError) return new ProblemError('service_unavailable', err.message, undefined, { 'Retry-After': '10' });
  if (err instanceof UndecodableRecordError) {
    return new ProblemError(
      'service_unavailable',
      `An order of the day (${err.workflowId}) cannot be decoded by the broker (an encryption setting): the summary is refused rather than left incomplete.`,
      undefined,
      { 'Retry-After': '60' },
    );
  }
  if (err instanceof SummaryRecordError) {
    return new ProblemError('internal_error', `${err.message}: the summary is refused rather than left incomplete.`);
  }
  return undefined;
}
