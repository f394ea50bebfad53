/**
 * The off-ramp catalogue endpoints: what the providers buy where and how they pay out, aggregated
 * from their cached sell catalogues (src/catalogue/sell-service.ts). Only providers with a sell
 * adapter take part; the query parameters are read as the on-ramp's are (./catalogue.ts).
 */
import type { Router } from 'express';
import { payoutMethodsFor, sellServesPlace, sellsPair } from '../../catalogue/sell-eligibility';
import type { SellCatalogueService } from '../../catalogue/sell-service';
import type { CurrencyDictionary } from '../../domain/currency';
import { amountLimits } from '../../domain/money';
import { paymentMethodName } from '../../domain/payment-methods';
import type { ProviderRegistry } from '../../providers/registry';
import { FieldProblems, offRampCurrencyParam } from '../params';
import { methodNotAllowed } from '../problem';
import type { PayoutMethodList } from '../schemas';
import { providerCodes, region, servedCountries } from './catalogue';

export function offRampCatalogueRoutes(
  router: Router,
  currencies: CurrencyDictionary,
  catalogues: SellCatalogueService,
  providers: ProviderRegistry,
): void {
  router
    .route('/off_ramp/countries')
    .get(async (req, res) => {
      const problems = new FieldProblems();
      const codes = providerCodes(req, providers, problems);
      problems.settle({});
      res.json({ countries: servedCountries((await catalogues.available(codes)).map((p) => p.catalogue)) });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/off_ramp/currency_pairs')
    .get(async (req, res) => {
      const problems = new FieldProblems();
      const where = region(req, true, problems);
      const codes = providerCodes(req, providers, problems);
      problems.settle({});
      const pairs = (await catalogues.available(codes))
        .filter((p) => sellServesPlace(p.catalogue, where))
        .map((p) => ({
          provider_code: p.adapter.info.code,
          fiat_currencies: [...p.catalogue.fiat].sort((a, b) => a - b),
          crypto_currencies: [...p.catalogue.crypto].sort((a, b) => a - b),
        }));
      res.json(pairs);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/off_ramp/payout_methods')
    .get(async (req, res) => {
      const problems = new FieldProblems();
      const where = region(req, false, problems);
      const fiat =
        req.query.currency === undefined
          ? undefined
          : problems.take(() => offRampCurrencyParam(currencies, 'currency', req.query.currency, 'fiat'));
      const codes = providerCodes(req, providers, problems);
      problems.settle({});
      const payout_methods: PayoutMethodList['payout_methods'] = [];
      for (const p of await catalogues.available(codes)) {
        if (!sellServesPlace(p.catalogue, where)) continue;
        for (const m of payoutMethodsFor(p.catalogue, fiat?.id, where.country)) {
          // Only the currencies the provider pays out, each written at its precision (a minimum rounded up, a maximum down).
          const limits = Object.entries(m.limits).flatMap(([id, limit]) => {
            const currency = currencies.get(Number(id));
            if (!currency || (fiat && currency.id !== fiat.id) || !p.catalogue.fiat.includes(currency.id)) return [];
            const { min, max } = amountLimits(limit.min, limit.max, currency);
            return [{ currency: currency.id, min, max }];
          });
          if (limits.length === 0) continue;
          payout_methods.push({
            provider_code: p.adapter.info.code,
            code: m.code,
            name: paymentMethodName(m.code, m.name),
            icon_url: m.icon_url,
            ...(m.fee === undefined ? {} : { fee: m.fee }),
            limits: limits.sort((a, b) => a.currency - b.currency),
          });
        }
      }
      payout_methods.sort((a, b) => a.provider_code.localeCompare(b.provider_code) || a.code.localeCompare(b.code));
      res.json({ payout_methods });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/off_ramp/providers')
    .get(async (req, res) => {
      const problems = new FieldProblems();
      const where = region(req, true, problems);
      const from = problems.take(() => offRampCurrencyParam(currencies, 'from_currency', req.query.from_currency, 'crypto'));
      const to = problems.take(() => offRampCurrencyParam(currencies, 'to_currency', req.query.to_currency, 'fiat'));
      const codes = providerCodes(req, providers, problems);
      const { crypto, fiat } = problems.settle({ crypto: from, fiat: to });
      const serving = (await catalogues.available(codes))
        .filter((p) => sellServesPlace(p.catalogue, where) && sellsPair(p.catalogue, crypto.id, fiat.id))
        .map((p) => p.adapter.info);
      res.json({ providers: serving });
    })
    .all(methodNotAllowed(['GET']));
}
