import { country, hasState, requiresState } from '../domain/countries';
import type { Currency, CurrencyDictionary } from '../domain/currency';
import { fractionDigits } from '../domain/money';
import type { ProviderRegistry } from '../providers/registry';
import type { ProviderAdapter } from '../providers/types';
import { ProblemError, SchemaProblem, type ProblemCode } from './problem';

const INTEGER_ID = /^[1-9]\d{0,8}$/;
/** A symbol, possibly with a network or bridge suffix ("1INCH", "USDC.e", "USDT-TRC20"): at least two letters. */
const TICKER_LIKE = /^(?=(?:[^A-Za-z]*[A-Za-z]){2})[A-Za-z0-9][A-Za-z0-9._-]{1,19}$/;

/**
 * Currencies are integer IDs from the dictionary. A ticker in their place is its own error, so an
 * integrator that skipped the dictionary learns why at once. In a JSON body (`source` "body") the ID
 * is a JSON number, as the OpenAPI document says: digits in a string are refused there, while a query
 * string can only carry them as text.
 */
export function currencyParam(
  dictionary: CurrencyDictionary,
  name: string,
  raw: unknown,
  kind?: Currency['currency_type'],
  source: 'query' | 'body' = 'query',
): Currency {
  if (typeof raw === 'string' && TICKER_LIKE.test(raw.trim())) {
    throw new ProblemError(
      'ticker_not_allowed',
      `${name} must be a currency ID from GET /api/dict/currencies, not a ticker ("${raw.trim()}").`,
      [{ path: name, message: 'tickers are not accepted; use the integer currency ID' }],
    );
  }
  if (source === 'body' && typeof raw === 'string') {
    throw new ProblemError('validation_error', `${name} must be an integer currency ID, sent as a JSON number.`, [
      { path: name, message: 'expected a JSON number, not a string' },
    ]);
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

/**
 * A currency of `kind` on a route of the off-ramp, whose direction is the on-ramp's reversed (crypto
 * sold for fiat): a currency of the other kind is a `validation_error` naming the field, its other
 * problems (a ticker, an unknown ID) as currencyParam says them.
 */
export function offRampCurrencyParam(
  dictionary: CurrencyDictionary,
  name: string,
  raw: unknown,
  kind: Currency['currency_type'],
): Currency {
  const currency = currencyParam(dictionary, name, raw);
  if (currency.currency_type !== kind) {
    throw new ProblemError('validation_error', `${name} must be a ${kind} currency; ${currency.ticker} is ${currency.currency_type}.`, [
      { path: name, message: `expected a ${kind} currency (the off-ramp sells crypto for fiat)` },
    ]);
  }
  return currency;
}

/**
 * The providers a request narrows itself to: one comma-separated string of codes, each of an
 * enabled provider (a typo or a disabled provider is an error, not a silently empty answer); absent
 * or empty, no narrowing.
 */
export function providerCodesParam(name: string, raw: unknown, providers: ProviderRegistry): string[] | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') {
    throw new ProblemError('validation_error', `${name} must be given once, as comma-separated codes.`, [
      { path: name, message: 'one comma-separated string, e.g. "moonpay,transak"' },
    ]);
  }
  const codes = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  const unknown = codes.filter((code) => !providers.get(code));
  if (unknown.length > 0) {
    throw new ProblemError('validation_error', `${name}: no enabled provider ${unknown.join(', ')}.`, [
      { path: name, message: `unknown or disabled provider ${unknown.join(', ')}; enabled: ${providers.codes().join(', ')}` },
    ]);
  }
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
    throw new ProblemError('validation_error', `${name} ${raw} is not an ISO 3166-1 country.`, [
      { path: name, message: 'unknown country' },
    ]);
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

/** An enabled provider, by its code. */
export function providerParam(providers: ProviderRegistry, name: string, code: string): ProviderAdapter {
  const adapter = providers.get(code);
  if (!adapter) {
    throw new ProblemError('validation_error', `Provider ${code} is not available.`, [
      { path: name, message: 'unknown or disabled provider' },
    ]);
  }
  return adapter;
}

/** A JSON body's fields, to check one by one whatever its schema said of the others ({} when it is not an object). */
export function bodyFields(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** A fiat amount that is already a plain decimal string: at most the currency's decimals, and above zero when `positive`. */
export function fiatAmountParam(name: string, amount: string, fiat: Currency, positive: boolean): string {
  if (fractionDigits(amount) > fiat.precision) {
    throw new ProblemError('validation_error', `${name} has more decimals than ${fiat.ticker} allows.`, [
      { path: name, message: `at most ${fiat.precision} decimal places` },
    ]);
  }
  if (positive && Number(amount) <= 0) {
    throw new ProblemError('validation_error', `${name} must be greater than zero.`, [
      { path: name, message: 'must be greater than zero' },
    ]);
  }
  return amount;
}

/**
 * Which problem leads an answer that has several: the 400s before the 422, and among the 400s the
 * specific codes, which tell the integrator what to change, before the generic validation_error.
 */
const LEAD_ORDER: readonly ProblemCode[] = [
  'ticker_not_allowed',
  'unknown_currency',
  'state_required',
  'validation_error',
  'unsupported_pair',
];
const leadRank = (code: ProblemCode) => (LEAD_ORDER.includes(code) ? LEAD_ORDER.indexOf(code) : LEAD_ORDER.length);

/**
 * The problems of a request's fields, gathered so that one answer lists every offending field, not
 * only the first one checked. A check that depends on another field (a state on its country, an
 * amount's decimals on its currency) is skipped while that field has a problem.
 */
export class FieldProblems {
  private readonly problems: ProblemError[] = [];
  private readonly paths = new Set<string>();

  /**
   * `check`'s value; undefined when it throws a ProblemError, which is kept for the answer. With
   * `field`, a field that already has a problem (from the schema, say) is not checked again.
   */
  take<T>(check: () => T, field?: string): T | undefined {
    if (field !== undefined && this.paths.has(field)) return undefined;
    try {
      return check();
    } catch (err) {
      if (!(err instanceof ProblemError)) throw err;
      this.add(err);
      return undefined;
    }
  }

  add(problem: ProblemError): void {
    this.problems.push(problem);
    for (const e of problem.errors ?? []) this.paths.add(e.path);
  }

  /** Whether the field already has a problem. */
  has(path: string): boolean {
    return this.paths.has(path);
  }

  /**
   * Throws the gathered problems as one: the code and detail of the leading problem (LEAD_ORDER,
   * then the order of the checks) and every field's errors. Otherwise returns `values`, each of
   * which a check has produced.
   */
  settle<T extends Record<string, unknown>>(values: T): { [K in keyof T]: NonNullable<T[K]> } {
    if (this.problems.length > 0) {
      const lead = this.problems.reduce((a, b) => (leadRank(b.code) < leadRank(a.code) ? b : a));
      if (this.problems.length === 1) throw lead;
      const errors = this.problems.flatMap((p) => p.errors ?? []);
      const fields = new Set(errors.map((e) => e.path)).size;
      const detail =
        lead instanceof SchemaProblem
          ? `${SchemaProblem.detail(lead.what, fields)}; errors lists them all.`
          : `${lead.message} ${fields - new Set((lead.errors ?? []).map((e) => e.path)).size} other field(s) are invalid too; errors lists them all.`;
      throw new ProblemError(lead.code, detail, errors, lead.headers);
    }
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined || value === null) throw new Error(`${name} passed its checks but has no value`);
    }
    return values as { [K in keyof T]: NonNullable<T[K]> };
  }
}
