import { country, hasState, requiresState } from '../domain/countries';
import type { Currency, CurrencyDictionary } from '../domain/currency';
import { ProblemError } from './problem';

const INTEGER_ID = /^[1-9]\d{0,8}$/;
const TICKER_LIKE = /^[A-Za-z][A-Za-z0-9]{1,9}$/;

/**
 * Currencies are integer IDs from the dictionary. A ticker in their place is its own error, so an
 * integrator that skipped the dictionary learns why at once.
 */
export function currencyParam(
  dictionary: CurrencyDictionary,
  name: string,
  raw: unknown,
  kind?: Currency['currency_type'],
): Currency {
  if (typeof raw === 'string' && TICKER_LIKE.test(raw.trim())) {
    throw new ProblemError(
      'ticker_not_allowed',
      `${name} must be a currency ID from GET /api/dict/currencies, not a ticker ("${raw.trim()}").`,
      [{ path: name, message: 'tickers are not accepted; use the integer currency ID' }],
    );
  }
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!INTEGER_ID.test(text)) {
    throw new ProblemError('validation_error', `${name} must be an integer currency ID.`, [
      { path: name, message: raw === undefined ? 'required' : 'expected a positive integer currency ID' },
    ]);
  }
  const currency = dictionary.get(Number(text));
  if (!currency) {
    throw new ProblemError('unknown_currency', `${name} ${text} is not in the currency dictionary.`, [
      { path: name, message: 'unknown currency ID' },
    ]);
  }
  if (kind && currency.currency_type !== kind) {
    throw new ProblemError('unsupported_pair', `${name} must be a ${kind} currency; ${currency.ticker} is ${currency.currency_type}.`, [
      { path: name, message: `expected a ${kind} currency` },
    ]);
  }
  return currency;
}

/** `a,b,c` into a de-duplicated list; undefined when the parameter is absent or empty. */
export function codeListParam(raw: unknown): string[] | undefined {
  if (typeof raw !== 'string') return undefined;
  const codes = [...new Set(raw.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
  return codes.length > 0 ? codes : undefined;
}

/** An ISO 3166-1 alpha-2 code of a country that exists. */
export function countryParam(name: string, raw: unknown): string {
  if (typeof raw !== 'string' || !/^[A-Z]{2}$/.test(raw)) {
    throw new ProblemError('validation_error', `${name} must be an ISO 3166-1 alpha-2 country code in capitals.`, [
      { path: name, message: raw === undefined ? 'required' : 'expected two capital letters, e.g. "US"' },
    ]);
  }
  if (!country(raw)) {
    throw new ProblemError('validation_error', `${name} ${raw} is not an ISO 3166-1 country.`, [{ path: name, message: 'unknown country' }]);
  }
  return raw;
}

/**
 * A state of `countryCode`. Where the country has states (GET /api/dict/countries) and `required`
 * is set, leaving it out is `state_required`; a state that is not one of the country's is refused.
 */
export function stateParam(name: string, raw: unknown, countryCode: string, required: boolean): string | undefined {
  if (raw === undefined || raw === '') {
    if (required && requiresState(countryCode)) {
      throw new ProblemError('state_required', `${countryCode} requires a state: send ${name} (codes in GET /api/dict/countries).`, [
        { path: name, message: 'required for this country' },
      ]);
    }
    return undefined;
  }
  if (typeof raw !== 'string' || !hasState(countryCode, raw)) {
    throw new ProblemError('validation_error', `${name} is not a state of ${countryCode}.`, [
      { path: name, message: requiresState(countryCode) ? `not a state of ${countryCode}` : `${countryCode} has no states` },
    ]);
  }
  return raw;
}
