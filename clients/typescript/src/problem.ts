import type { FieldError, Problem } from './types.js';

/**
 * Codes of the problems the client itself reports: no answer (`network_error`), an answer that is not
 * the API's (`invalid_response`), a status not reached in time (`timeout`), a ticker the dictionary
 * does not have (`unknown_ticker`).
 */
export type ClientProblemCode = 'network_error' | 'invalid_response' | 'timeout' | 'unknown_ticker';
export type ProblemCode = Problem['code'] | ClientProblemCode;

/**
 * An RFC 9457 problem: every failure of the client, the API's own answers (`status` 400–599, with
 * the API's stable `code` and `errors[]`) and the client's (`status` 0).
 */
export class ProblemError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[];
  readonly requestId?: string;
  /** Seconds the API asked to wait (`Retry-After`), on 429 and 503. */
  readonly retryAfterSeconds?: number;

  constructor(
    problem: Pick<Problem, 'title' | 'detail'> & {
      code: ProblemCode;
      status: number;
      errors?: FieldError[];
      request_id?: string;
      retryAfterSeconds?: number;
    },
  ) {
    super(`${problem.code}: ${problem.detail}`);
    this.name = 'ProblemError';
    this.code = problem.code;
    this.status = problem.status;
    this.title = problem.title;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
    if (problem.request_id !== undefined) this.requestId = problem.request_id;
    if (problem.retryAfterSeconds !== undefined) this.retryAfterSeconds = problem.retryAfterSeconds;
  }

  /** A problem the client reports itself (no API answer behind it). */
  static client(code: ClientProblemCode, detail: string): ProblemError {
    return new ProblemError({ code, status: 0, title: TITLES[code], detail });
  }
}

const TITLES: Record<ClientProblemCode, string> = {
  network_error: 'The API could not be reached',
  invalid_response: 'The answer is not the API’s',
  timeout: 'Timed out',
  unknown_ticker: 'No such currency in the dictionary',
};

export function isProblemError(err: unknown): err is ProblemError {
  return err instanceof ProblemError;
}
