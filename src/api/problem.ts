import { ActionRefusedError } from '../operators/reviews';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { AlternativeOfferSchema } from './alternatives';
import { z } from 'zod';
import { StoreUnavailableError } from '../offers/redis-store';
import { ExportCutError } from '../orders/export';
import { UndecodableRecordError } from '../orders/search';
import { ReturningCustomersUnavailableError } from '../ranking/returning-customers';
import {
  NoLiveOfferError,
  DepositConfirmationRefusedError,
  OrderRejectedError,
  OrderUnavailableError,
  OrderUnreadableError,
  ExportsBusyError,
  ExportTooLargeError,
  ProviderOutOfServiceError,
  SearchBudgetSpentError,
  SearchesBusyError,
} from '../orders/errors';

/** Stable error codes of the API (docs/api.md, "Errors"). */
export const PROBLEM_CODES = {
  validation_error: { status: 400, title: 'Invalid request' },
  ticker_not_allowed: { status: 400, title: 'Currency tickers are not accepted' },
  unknown_currency: { status: 400, title: 'Unknown currency' },
  state_required: { status: 400, title: 'State required' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  invalid_signature: { status: 401, title: 'Invalid webhook signature' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  idempotency_conflict: { status: 409, title: 'Idempotency conflict' },
  external_order_id_retired: { status: 409, title: 'External order id retired' },
  order_closed: { status: 409, title: "The order's workflow has ended" },
  action_refused: { status: 409, title: 'Action refused' },
  deposit_not_awaited: { status: 409, title: 'The order waits for no deposit' },
  deposit_already_confirmed: { status: 409, title: 'Another deposit transaction was confirmed' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  unsupported_pair: { status: 422, title: 'Unsupported currency pair' },
  offer_expired: { status: 422, title: 'Offer expired' },
  invalid_wallet_address: { status: 422, title: 'Invalid wallet address' },
  provider_rejected: { status: 422, title: 'Provider rejected the order' },
  deposit_confirmation_unsupported: { status: 422, title: 'The provider takes no deposit confirmation' },
  event_out_of_bounds: { status: 422, title: 'Provider event out of bounds' },
  export_too_large: { status: 422, title: 'Export window too large' },
  summary_too_large: { status: 422, title: 'Summary too large' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  provider_unavailable: { status: 503, title: 'Provider unavailable' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export const PROBLEM_TYPE_PREFIX = 'urn:onramp-broker:problem:';

/** One offending field of a validation problem. */
export const FieldErrorSchema = z.object({
  /** Dotted path of the field, `(root)` for the whole body. */
  path: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** The application/problem+json body of every error (RFC 9457, with the broker's extensions). */
export const ProblemSchema = z.object({
  type: z.string().regex(new RegExp(`^${PROBLEM_TYPE_PREFIX}[a-z_]+$`)),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  code: z.enum(Object.keys(PROBLEM_CODES) as [ProblemCode, ...ProblemCode[]]),
  errors: z.array(FieldErrorSchema).optional(),
  /** With `provider_unavailable` on an order: the request's other live offers, best first (./alternatives.ts). */
  alternatives: z.array(AlternativeOfferSchema).optional(),
  request_id: z.string().optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;

export class ProblemError extends Error {
  constructor(
    readonly code: ProblemCode,
    detail: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
    /** Members of the answer beyond RFC 9457's (ProblemSchema lists each). */
    readonly extensions: Pick<Problem, 'alternatives'> = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
  }
}

export const problemType = (code: ProblemCode) => `${PROBLEM_TYPE_PREFIX}${code}`;

/** When a 503 names no other delay: an outage the broker expects to end (Redis, Temporal, a provider). */
export const DEFAULT_RETRY_AFTER_SECONDS = 2;

export function sendProblem(res: Response, problem: ProblemError): void {
  const { status, title } = PROBLEM_CODES[problem.code];
  res.status(status);
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  if (status === 503 && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS));
  const body: Problem = {
    type: problemType(problem.code),
    title,
    status,
    detail: problem.message,
    code: problem.code,
    ...(problem.errors ? { errors: problem.errors } : {}),
    ...problem.extensions,
    ...(res.req.id ? { request_id: res.req.id } : {}),
  };
  res.type('application/problem+json').send(JSON.stringify(body));
}

export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(root)', message: issue.message }));
}

/**
 * What a request schema found wrong, as one validation_error. FieldProblems restates its count when
 * the routes' own checks find other fields wrong too.
 */
export class SchemaProblem extends ProblemError {
  constructor(
    readonly what: string,
    errors: FieldError[],
  ) {
    super('validation_error', `${SchemaProblem.detail(what, new Set(errors.map((e) => e.path)).size)}.`, errors);
  }

  static detail(what: string, fields: number): string {
    return `The ${what} has ${fields} invalid field(s)`;
  }
}

export function validationProblem(error: z.ZodError, what = 'request'): SchemaProblem {
  return new SchemaProblem(what, fieldErrors(error));
}

/**
 * Parse options for request schemas: a field that is missing says "required", as the routes' own
 * checks say it, instead of zod's "expected string, received undefined".
 */
export const REQUEST_PARSE = {
  error: (issue: z.core.$ZodRawIssue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'required' : undefined),
};

export const notFoundHandler: RequestHandler = (req, res) => {
  sendProblem(res, new ProblemError('not_found', `No route for ${req.method} ${req.path}.`));
};

/** Answers a route that exists with the wrong method. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  return (req, res) => {
    sendProblem(
      res,
      new ProblemError('method_not_allowed', `${req.method} is not allowed here; use ${allowed.join(', ')}.`, undefined, {
        Allow: allowed.join(', '),
      }),
    );
  };
}

interface HttpError {
  status?: number;
  type?: string;
  /** body-parser: the raw body it could not use. */
  body?: unknown;
}

/** body-parser refuses a JSON scalar (`null`, `"x"`, `1`) with the same error as broken JSON. */
function isJsonScalar(raw: unknown): boolean {
  if (typeof raw !== 'string') return false;
  try {
    const value: unknown = JSON.parse(raw);
    return value === null || typeof value !== 'object';
  } catch {
    return false;
  }
}

/**
 * The problem the API answers a known error with: its own problems as they are, and the errors of
 * the folders below it (orders, offers), which know nothing of HTTP. Undefined for any other error.
 */
export function problemOf(err: unknown): ProblemError | undefined {
  if (err instanceof ProblemError) return err;
  if (err instanceof OrderRejectedError) return new ProblemError(err.reason, err.message);
  if (err instanceof ActionRefusedError) return new ProblemError(err.reason, err.message);
  if (err instanceof DepositConfirmationRefusedError) return new ProblemError(err.reason, err.message);
  if (err instanceof NoLiveOfferError) return new ProblemError('offer_expired', err.message);
  if (err instanceof ProviderOutOfServiceError) {
    return new ProblemError('provider_unavailable', err.message, undefined, { 'Retry-After': String(err.retryAfterSeconds) });
  }
  if (err instanceof OrderUnavailableError) {
    const headers: Record<string, string> = err.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(err.retryAfterSeconds) };
    return new ProblemError('service_unavailable', err.message, undefined, headers);
  }
  if (err instanceof StoreUnavailableError) return new ProblemError('service_unavailable', err.message);
  if (err instanceof ReturningCustomersUnavailableError) return new ProblemError('service_unavailable', err.message);
  if (err instanceof ExportsBusyError) {
    return new ProblemError(err.mine ? 'rate_limited' : 'service_unavailable', err.message, undefined, { 'Retry-After': '10' });
  }
  if (err instanceof ExportTooLargeError) return new ProblemError('export_too_large', err.message);
  if (err instanceof UndecodableRecordError) {
    return new ProblemError(
      'service_unavailable',
      'An order of the window cannot be read by the broker (an encryption setting): the export is refused rather than left incomplete.',
      undefined,
      { 'Retry-After': '60' },
    );
  }
  // Cut before its first row was sent (an export past its time limit after one page, or grown past its bound).
  if (err instanceof ExportCutError) {
    return err.reason === 'timeout'
      ? new ProblemError('service_unavailable', 'The export could not start within its time limit; try again shortly.')
      : new ProblemError('export_too_large', err.message);
  }
  if (err instanceof SearchesBusyError) return new ProblemError('rate_limited', err.message, undefined, { 'Retry-After': '1' });
  if (err instanceof SearchBudgetSpentError) {
    return new ProblemError('rate_limited', err.message, undefined, { 'Retry-After': String(err.retryAfterSeconds) });
  }
  return undefined;
}

/** Last handler: everything becomes problem+json; unexpected errors are logged, never shown. */
export const errorHandler: ErrorRequestHandler = (err: unknown, req, res, _next) => {
  if (err instanceof OrderUnreadableError) {
    // An operator's matter (keys, ENCRYPTION_ACCEPT_CLEAR_UNTIL), answered as a 503 below.
    req.log.error(
      { workflowId: err.workflowId, err: err.cause },
      'a payload of this workflow cannot be decoded: check ENCRYPTION_KEYS and ENCRYPTION_ACCEPT_CLEAR_UNTIL (docs/operations.md)',
    );
  }
  const problem = problemOf(err);
  if (problem) return sendProblem(res, problem);
  const httpError = err as HttpError;
  if (httpError.type === 'entity.parse.failed') {
    const detail = isJsonScalar(httpError.body) ? 'The request body must be a JSON object.' : 'The request body is not valid JSON.';
    return sendProblem(res, new ProblemError('validation_error', detail));
  }
  if (httpError.type === 'entity.too.large') {
    return sendProblem(res, new ProblemError('payload_too_large', 'The request body is too large.'));
  }
  if (httpError.type === 'encoding.unsupported' || httpError.type === 'charset.unsupported') {
    return sendProblem(res, new ProblemError('unsupported_media_type', 'Unsupported body encoding.'));
  }
  if (typeof httpError.status === 'number' && httpError.status >= 400 && httpError.status < 500) {
    return sendProblem(res, new ProblemError('validation_error', 'The request could not be read.'));
  }
  req.log.error({ err }, 'unhandled error');
  sendProblem(res, new ProblemError('internal_error', 'Something went wrong on our side; the request id identifies it.'));
};
