import type { RequestHandler, Router } from 'express';
import type { CryptoCurrency, CurrencyDictionary, FiatCurrency } from '../../domain/currency';
import type { SellOffersService } from '../../offers/sell-service';
import type { ProviderRegistry } from '../../providers/registry';
import { integratorOf } from '../auth';
import { countryParam, FieldProblems, fiatAmountParam, offRampCurrencyParam, providerCodesParam, stateParam } from '../params';
import { methodNotAllowed, REQUEST_PARSE, validationProblem } from '../problem';
import { SellOffersQuerySchema } from '../schemas';

/**
 * Registers GET /off_ramp/offers: the sell offers of every eligible provider with a sell adapter,
 * read as the on-ramp offers are (./offers.ts), the currencies the other way round (crypto from,
 * fiat to). Answers its handler by path, for the direct routes (../direct-routes.ts).
 */
export function offRampOfferRoutes(
  router: Router,
  currencies: CurrencyDictionary,
  offers: SellOffersService,
  providers: ProviderRegistry,
): Record<string, RequestHandler> {
  const getOffers: RequestHandler = async (req, res) => {
    const integrator = integratorOf(req);
    const problems = new FieldProblems();
    const crypto = problems.take(
      () => offRampCurrencyParam(currencies, 'currency_from', req.query.currency_from, 'crypto') as CryptoCurrency,
    );
    const fiat = problems.take(() => offRampCurrencyParam(currencies, 'currency_to', req.query.currency_to, 'fiat') as FiatCurrency);
    const parsed = SellOffersQuerySchema.safeParse(req.query, REQUEST_PARSE);
    if (!parsed.success) problems.add(validationProblem(parsed.error, 'query'));
    const country = problems.take(() => countryParam('country', req.query.country), 'country');
    const state = country === undefined ? undefined : problems.take(() => stateParam('state', req.query.state, country, true), 'state');
    const providerCodes = problems.take(() => providerCodesParam('provider_codes', req.query.provider_codes, providers), 'provider_codes');
    const amount = req.query.amount_from;
    // The amount sold is in the crypto currency: at most its decimals, above zero (the rule of a fiat amount, in that currency).
    if (crypto && typeof amount === 'string') problems.take(() => fiatAmountParam('amount_from', amount, crypto, true), 'amount_from');
    const checked = problems.settle({ crypto, fiat, country, query: parsed.data });
    const { query } = checked;
    const result = await offers.getOffers({
      integratorId: integrator.id,
      externalUserId: query.external_user_id,
      crypto: checked.crypto,
      fiat: checked.fiat,
      amountFrom: query.amount_from,
      country: checked.country,
      state,
      ip: query.ip,
      payoutMethod: query.payout_method,
      providerCodes,
    });
    res.json(query.include_errors === 'true' ? { ...result.errors, ...result.offers } : result.offers);
  };
  router
    .route('/off_ramp/offers')
    .get(getOffers)
    .all(methodNotAllowed(['GET']));
  return { '/off_ramp/offers': getOffers };
}
