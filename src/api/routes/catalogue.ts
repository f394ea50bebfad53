/**
 * The catalogue endpoints: what can be bought where, aggregated from the providers' cached
 * catalogues (never from lists in this layer).
 */
import { paymentMethodName } from '../../domain/payment-methods';
import type { Request, Router } from 'express';
import { cryptoSoldIn, methodsFor, servesRegion, supportsPair, type Place } from '../../catalogue/eligibility';
import type { CatalogueService, ProviderWithCatalogue } from '../../catalogue/service';
import { COUNTRIES, country as countryOf } from '../../domain/countries';
import type { CurrencyDictionary } from '../../domain/currency';
import type { ProviderRegistry } from '../../providers/registry';
import { countryParam, currencyParam, FieldProblems, providerCodesParam, providerParam, stateParam } from '../params';
import { staticJson } from './dictionaries';
import { methodNotAllowed, ProblemError } from '../problem';
import type { ServedCountryList } from '../schemas';

/** A catalogue that has never loaded is asked for again on the next request, so a short wait is enough. */
const CATALOGUE_RETRY_AFTER_SECONDS = 5;

/** The request's provider_codes, each an enabled provider (a problem kept otherwise). */
export function providerCodes(req: Request, providers: ProviderRegistry, problems: FieldProblems): string[] | undefined {
  return problems.take(() => providerCodesParam('provider_codes', req.query.provider_codes, providers), 'provider_codes');
}

/** Country and optional state from the query; an absent country is allowed only where optional. */
export function region(req: Request, required: boolean, problems: FieldProblems): Place {
  if (req.query.country_code === undefined && !required) {
    if (req.query.state !== undefined) {
      problems.add(
        new ProblemError('validation_error', 'state needs country_code.', [{ path: 'country_code', message: 'required with state' }]),
      );
    }
    return {};
  }
  const country = problems.take(() => countryParam('country_code', req.query.country_code));
  if (country === undefined) return {};
  return { country, state: problems.take(() => stateParam('state', req.query.state, country, false)) };
}

/**
 * The countries some catalogue serves (buy or sell catalogues: both list countries alike), each with
 * the states served where the country has states, by code.
 */
export function servedCountries(catalogues: { countries: { code: string; states?: string[] }[] }[]): ServedCountryList['countries'] {
  const served = new Map<string, Set<string> | undefined>();
  for (const catalogue of catalogues) {
    for (const c of catalogue.countries) {
      const states = countryOf(c.code)?.states.map((s) => s.code) ?? [];
      const known = served.get(c.code);
      const add = states.length === 0 ? [] : (c.states ?? states).filter((s) => states.includes(s));
      served.set(c.code, states.length === 0 ? undefined : new Set([...(known ?? []), ...add]));
    }
  }
  return [...served.entries()]
    .filter(([code]) => countryOf(code) !== undefined)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, states]) => (states ? { code, states: [...states].sort() } : { code }));
}

function inRegion(p: ProviderWithCatalogue, where: Place): boolean {
  if (where.country === undefined) return true;
  const problem = servesRegion(p.catalogue, where.country, where.state);
  // Without a state, a provider serving some of the country's states still counts as serving it.
  return problem === undefined || (problem.code === 'state' && where.state === undefined);
}

export function catalogueRoutes(
  router: Router,
  currencies: CurrencyDictionary,
  catalogues: CatalogueService,
  providers: ProviderRegistry,
): void {
  router
    .route('/dict/countries')
    .get(staticJson({ countries: COUNTRIES }))
    .all(methodNotAllowed(['GET']));

  router
    .route('/on_ramp/payment_methods')
    .get(async (req, res) => {
      const problems = new FieldProblems();
      const currency = problems.take(() => currencyParam(currencies, 'fiat_currency', req.query.fiat_currency, 'fiat'));
      const where = region(req, false, problems);
      const codes = providerCodes(req, providers, problems);
      const { fiat } = problems.settle({ fiat: currency });
      const byCode = new Map<string, { code: string; name: string; icon_url: string | null }>();
      for (const p of await catalogues.available(codes)) {
        if (!inRegion(p, where)) continue;
        for (const m of methodsFor(p.catalogue, fiat.id, where.country)) {
          if (!byCode.has(m.code)) byCode.set(m.code, { code: m.code, name: paymentMethodName(m.code, m.name), icon_url: m.icon_url });
        }
      }
      res.json({ payment_methods: [...byCode.values()].sort((a, b) => a.code.localeCompare(b.code)) });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/on_ramp/payment_methods_extra_info')
    .get(async (req, res) => {
      const code = req.query.provider_code;
      if (typeof code !== 'string' || code === '') {
        throw new ProblemError('validation_error', 'provider_code is required.', [{ path: 'provider_code', message: 'required' }]);
      }
      const catalogue = await catalogues.get(providerParam(providers, 'provider_code', code).info.code);
      // An enabled provider whose catalogue has never loaded is down, not a mistake of the caller's.
      if (!catalogue) {
        throw new ProblemError(
          'provider_unavailable',
          `Provider ${code} has not answered for its catalogue yet; try again later.`,
          undefined,
          {
            'Retry-After': String(CATALOGUE_RETRY_AFTER_SECONDS),
          },
        );
      }
      // A method whose fee could not be read (no reference quote answered yet) is left out, not shown without one.
      const payment_methods = catalogue.paymentMethods.flatMap((m) =>
        m.fee === undefined ? [] : [{ payment_method_code: m.code, fee: m.fee }],
      );
      res.json({ payment_methods });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/on_ramp/countries')
    .get(async (req, res) => {
      const problems = new FieldProblems();
      const codes = providerCodes(req, providers, problems);
      problems.settle({});
      res.json({ countries: servedCountries((await catalogues.available(codes)).map((p) => p.catalogue)) });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/on_ramp/currency_pairs')
    .get(async (req, res) => {
      const problems = new FieldProblems();
      const where = region(req, true, problems);
      const codes = providerCodes(req, providers, problems);
      problems.settle({});
      const pairs = (await catalogues.available(codes))
        .filter((p) => inRegion(p, where))
        .map((p) => ({
          provider_code: p.adapter.info.code,
          fiat_currencies: [...p.catalogue.fiat].sort((a, b) => a - b),
          crypto_currencies: [...cryptoSoldIn(p.catalogue, where)].sort((a, b) => a - b),
        }));
      res.json(pairs);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/on_ramp/providers')
    .get(async (req, res) => {
      const problems = new FieldProblems();
      const where = region(req, true, problems);
      const from = problems.take(() => currencyParam(currencies, 'from_currency', req.query.from_currency, 'fiat'));
      const to = problems.take(() => currencyParam(currencies, 'to_currency', req.query.to_currency, 'crypto'));
      const codes = providerCodes(req, providers, problems);
      const { fiat, crypto } = problems.settle({ fiat: from, crypto: to });
      const serving = (await catalogues.available(codes))
        .filter((p) => inRegion(p, where) && supportsPair(p.catalogue, fiat.id, crypto.id, where))
        .map((p) => p.adapter.info);
      res.json({ providers: serving });
    })
    .all(methodNotAllowed(['GET']));
}
