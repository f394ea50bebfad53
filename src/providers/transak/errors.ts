import { ProviderRejectedError, ProviderUnavailableError } from '../types';
import { TransakErrorSchema } from './schemas';

/**
 * Transak's refusals carry only `{error: {statusCode, name, message}}`, so the kind of refusal is
 * read from the message. The wording is not documented: anything unrecognised stays `rejected`.
 */
const KINDS: readonly [RegExp, ProviderRejectedError['code']][] = [
  [/not found/i, 'not_found'],
  [/minimum|maximum|limit|too (low|high|small|large)/i, 'limits'],
  [/payment ?method/i, 'payment_method'],
  [/\bstate\b/i, 'state'],
  [/country/i, 'country'],
  [/currency|crypto|fiat|network|token|not supported|unsupported/i, 'currency'],
];

const amountAfter = (message: string, word: string) => new RegExp(`${word}\\D*?(\\d+(?:\\.\\d+)?)`, 'i').exec(message)?.[1];

/** The error a non-2xx, non-401 answer of `path` stands for. */
export function refusalError(path: string, status: number, body: unknown): ProviderRejectedError | ProviderUnavailableError {
  const parsed = TransakErrorSchema.safeParse(body);
  if (!parsed.success) return new ProviderUnavailableError(`${path}: HTTP ${status}`);
  const { message } = parsed.data.error;
  if (status === 403) return new ProviderUnavailableError(`${path}: forbidden (HTTP 403): ${message}`);
  const kind = KINDS.find(([pattern]) => pattern.test(message))?.[1] ?? 'rejected';
  if (kind !== 'limits') return new ProviderRejectedError(kind, message);
  const minAmount = amountAfter(message, 'minimum');
  const maxAmount = amountAfter(message, 'maximum');
  return new ProviderRejectedError(kind, message, {
    ...(minAmount === undefined ? {} : { minAmount }),
    ...(maxAmount === undefined ? {} : { maxAmount }),
  });
}
