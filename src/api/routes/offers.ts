import type { Router } from 'express';
import { z } from 'zod';
import type { CurrencyDictionary, CryptoCurrency, FiatCurrency } from '../../domain/currency';
import { DECIMAL_AMOUNT_PATTERN, fractionDigits } from '../../domain/money';
import type { OffersService } from '../../offers/service';
import { integratorOf } from '../auth';
import { codeListParam, countryParam, currencyParam, stateParam } from '../params';
import { methodNotAllowed, ProblemError, validationProblem } from '../problem';

export const OffersQuerySchema = z.object({
  external_user_id: z.string().trim().min(1).max(128),
  amount_from: z.string().regex(DECIMAL_AMOUNT_PATTERN, 'a positive decimal string such as "100.00"'),
  country: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code in capitals').optional(),
  state: z.string().optional(),
  ip: z.union([z.ipv4(), z.ipv6()]).optional(),
  payment_method: z.string().regex(/^[a-z0-9_]{2,48}$/).optional(),
  provider_codes: z.string().optional(),
  include_errors: z.enum(['true', 'false']).optional(),
});

export function offerRoutes(router: Router, currencies: CurrencyDictionary, offers: OffersService): void {
  router
    .route('/on_ramp/offers')
    .get(async (req, res) => {
      const integrator = integratorOf(req);
      const fiat = currencyParam(currencies, 'currency_from', req.query.currency_from, 'fiat') as FiatCurrency;
      const crypto = currencyParam(currencies, 'currency_to', req.query.currency_to, 'crypto') as CryptoCurrency;
      const parsed = OffersQuerySchema.safeParse(req.query);
      if (!parsed.success) throw validationProblem(parsed.error, 'query');
      const query = parsed.data;
      const country = countryParam('country', query.country);
      const state = stateParam('state', query.state, country, true);
      if (fractionDigits(query.amount_from) > fiat.precision) {
        throw new ProblemError('validation_error', `amount_from has more decimals than ${fiat.ticker} allows.`, [
          { path: 'amount_from', message: `at most ${fiat.precision} decimal places` },
        ]);
      }
      if (Number(query.amount_from) <= 0) {
        throw new ProblemError('validation_error', 'amount_from must be greater than zero.', [
          { path: 'amount_from', message: 'must be greater than zero' },
        ]);
      }
      const result = await offers.getOffers({
        integratorId: integrator.id,
        externalUserId: query.external_user_id,
        fiat,
        crypto,
        amountFrom: query.amount_from,
        country,
        state,
        ip: query.ip,
        paymentMethod: query.payment_method,
        providerCodes: codeListParam(query.provider_codes),
      });
      res.json(query.include_errors === 'true' ? { ...result.errors, ...result.offers } : result.offers);
    })
    .all(methodNotAllowed(['GET']));
}
