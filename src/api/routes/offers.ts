import type { RequestHandler, Router } from 'express';
import type { CurrencyDictionary, CryptoCurrency, FiatCurrency } from '../../domain/currency';
import type { OffersService } from '../../offers/service';
import type { ProviderRegistry } from '../../providers/registry';
import type { OffersRanking } from '../../ranking/offers-ranking';
import { integratorOf } from '../auth';
import { countryParam, currencyParam, FieldProblems, fiatAmountParam, providerCodesParam, stateParam } from '../params';
import { methodNotAllowed, REQUEST_PARSE, validationProblem } from '../problem';
import { OffersQuerySchema } from '../schemas';

/** Registers GET /on_ramp/offers; answers its handler by path, for the direct routes (../direct-routes.ts). */
export function offerRoutes(
  router: Router,
  currencies: CurrencyDictionary,
  offers: OffersService,
  providers: ProviderRegistry,
  ranking?: OffersRanking,
): Record<string, RequestHandler> {
  const getOffers: RequestHandler = async (req, res) => {
    const integrator = integratorOf(req);
    const problems = new FieldProblems();
    const fiat = problems.take(() => currencyParam(currencies, 'currency_from', req.query.currency_from, 'fiat') as FiatCurrency);
    const crypto = problems.take(() => currencyParam(currencies, 'currency_to', req.query.currency_to, 'crypto') as CryptoCurrency);
    const parsed = OffersQuerySchema.safeParse(req.query, REQUEST_PARSE);
    if (!parsed.success) problems.add(validationProblem(parsed.error, 'query'));
    const country = problems.take(() => countryParam('country', req.query.country), 'country');
    const state = country === undefined ? undefined : problems.take(() => stateParam('state', req.query.state, country, true), 'state');
    const providerCodes = problems.take(() => providerCodesParam('provider_codes', req.query.provider_codes, providers), 'provider_codes');
    const amount = req.query.amount_from;
    if (fiat && typeof amount === 'string') problems.take(() => fiatAmountParam('amount_from', amount, fiat, true), 'amount_from');
    const checked = problems.settle({ fiat, crypto, country, query: parsed.data });
    const { query } = checked;
    // Looked up while the providers quote: the customer's past providers, for the boost.
    const ranked = ranking && query.ranking !== 'off';
    const returning = ranked ? ranking.returningProviders(integrator.id, query.external_user_id) : undefined;
    const result = await offers.getOffers({
      integratorId: integrator.id,
      externalUserId: query.external_user_id,
      fiat: checked.fiat,
      crypto: checked.crypto,
      amountFrom: query.amount_from,
      country: checked.country,
      state,
      ip: query.ip,
      paymentMethod: query.payment_method,
      providerCodes,
    });
    const answered = ranked
      ? ranking.attach(result.offers, {
          integratorId: integrator.id,
          country: checked.country,
          paymentMethod: query.payment_method,
          returningProviders: await returning!,
        })
      : result.offers;
    res.json(query.include_errors === 'true' ? { ...result.errors, ...answered } : answered);
  };
  router
    .route('/on_ramp/offers')
    .get(getOffers)
    .all(methodNotAllowed(['GET']));
  return { '/on_ramp/offers': getOffers };
}
