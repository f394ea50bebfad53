import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { SUMMARY_CSV_COLUMNS } from '../daily-summary-format';
import { headers, RATE_LIMIT_HEADERS } from '../openapi/headers';
import { ADDRESS_RATE_LIMITED, json, problem } from '../openapi/responses';
import * as S from '../schemas';

/** The OpenAPI path of the daily summary (./operator-summaries.ts): the operator API, behind an operator key. */
export function registerOperatorSummaryPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/operator/summaries/daily',
    operationId: 'getDailySummary',
    tags: ['Operator'],
    security: [{ OperatorKey: [] }],
    summary: 'The orders of one UTC day per integrator, provider and fiat currency, for billing',
    description:
      'Every order requested in the UTC day (from its 00:00, included, to the next 00:00, excluded), of every integrator and ' +
      'every provider the broker knows (enabled or not), counted per integrator, provider and fiat currency: orders, by status ' +
      '(`completed`, `failed`, `expired`, `refunded`, `open`), the completed volume (`from_amount`, the provider-verified ' +
      "amount paid, fees included) and the fees the completed orders' offers quoted, with totals per fiat currency. An order " +
      'paid in another currency than requested counts in the paid currency, without its fee (quoted in the requested one). ' +
      'Statuses are as read (`generated_at`): an order of the day may still change. Only a day that ended at least ' +
      'ORDER_CREATE_TIMEOUT_SECONDS + 60 s ago, and whose orders the namespace retention still keeps. Whole or refused: a ' +
      'record the broker cannot read or count, more than DAILY_SUMMARY_MAX_ORDERS orders or more than ' +
      "DAILY_SUMMARY_MAX_SECONDS fail it; answered once every order is read. Reads on no integrator's search budget; at most " +
      '2 summaries at once per API process. CSV (RFC 4180, a header record, CRLF) has one record per row: ' +
      SUMMARY_CSV_COLUMNS.map((c) => `\`${c}\``).join(', ') +
      '; a cell that a spreadsheet would take for a formula is written with a leading apostrophe.',
    request: { query: S.DailySummaryQuery },
    responses: {
      200: {
        description: 'The summary.',
        headers: headers(...RATE_LIMIT_HEADERS, 'Content-Disposition'),
        content: { ...json(S.DailySummarySchema), 'text/csv': { schema: { type: 'string' } } },
      },
      400: problem(
        400,
        '`validation_error`: an unknown parameter, a missing or malformed date or filter, a day that has not ended ' +
          'ORDER_CREATE_TIMEOUT_SECONDS + 60 s ago, or a day whose orders the namespace retention may have deleted; `errors` names each.',
      ),
      401: problem(401, "`unauthorized`: missing or invalid operator key (an integrator's API key is not one).", ['WWW-Authenticate']),
      422: problem(
        422,
        '`summary_too_large`: the day holds more than DAILY_SUMMARY_MAX_ORDERS (1,000,000) orders; summarize one provider at a time.',
      ),
      429: ADDRESS_RATE_LIMITED,
      500: problem(
        500,
        '`internal_error`: an order of the day whose amounts cannot be counted (the order is named), or an unexpected error; ' +
          '`request_id` identifies it in the logs.',
      ),
      503: problem(
        503,
        '`service_unavailable`: Temporal cannot be reached; an order of the day cannot be decoded by the broker (an encryption ' +
          'setting; Retry-After: 60); the day could not be read within DAILY_SUMMARY_MAX_SECONDS (Retry-After: 60); or 2 ' +
          'summaries are being read by this API process (Retry-After: 10).',
        ['Retry-After'],
      ),
    },
  });
}
