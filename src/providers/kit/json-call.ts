import type { z } from 'zod';
import { ProviderUnavailableError } from '../types';
import { providerRequest, type ProviderRequestOptions, type ProviderResponse } from './http';

/**
 * The error a provider's answer other than 2xx stands for: ProviderRejectedError for a refusal the
 * caller should see, ProviderUnavailableError for one worth retrying. Each provider supplies its own.
 */
export type Refusal = (route: string, status: number, body: unknown) => Error;

export interface JsonCall<S extends z.ZodType> extends ProviderRequestOptions {
  /** The call as errors name it: its path, without the base URL and without credentials. */
  route: string;
  schema: S;
  refusal: Refusal;
}

/** One JSON call to a provider: its 2xx answer in the shape of `schema`, or the error its answer stands for. */
export async function callJson<S extends z.ZodType>(url: string, call: JsonCall<S>): Promise<z.output<S>> {
  // The call is its own request options (the extra fields are not read there): no copy without them.
  return readAnswer(await providerRequest(url, call), call);
}

/** A provider's answer: a 2xx answer in the shape of `schema`, any other as the error `refusal` makes of it. */
export function readAnswer<S extends z.ZodType>(
  answer: ProviderResponse,
  { route, schema, refusal }: Pick<JsonCall<S>, 'route' | 'schema' | 'refusal'>,
): z.output<S> {
  if (answer.status < 200 || answer.status >= 300) throw refusal(route, answer.status, answer.body);
  return parseAnswer(route, schema, answer.body);
}

/** A 2xx answer's body in the shape of `schema`; another shape means the provider is not answering as documented. */
export function parseAnswer<S extends z.ZodType>(route: string, schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ProviderUnavailableError(`${route}: unexpected answer shape`);
  return parsed.data;
}

/** A hand-written check of a 2xx answer's shape: the answer as read, or undefined for another shape. */
export type AnswerCheck<T> = (body: unknown) => T | undefined;

export interface CheckedCall<T> extends ProviderRequestOptions {
  route: string;
  check: AnswerCheck<T>;
  refusal: Refusal;
}

/**
 * callJson with a hand-written check in place of a zod schema, for the calls every offers request
 * makes (a zod object's safeParse allocates about 2 KB per answer): the same answers and errors.
 */
export function callChecked<T>(url: string, call: CheckedCall<T>): Promise<T> {
  return providerRequest(url, call).then((answer) => checkedAnswer(answer, call));
}

function checkedAnswer<T>(answer: ProviderResponse, { route, check, refusal }: CheckedCall<T>): T {
  if (answer.status < 200 || answer.status >= 300) throw refusal(route, answer.status, answer.body);
  const value = check(answer.body);
  if (value === undefined) throw new ProviderUnavailableError(`${route}: unexpected answer shape`);
  return value;
}
