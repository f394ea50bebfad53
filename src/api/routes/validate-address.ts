import type { Router } from 'express';
import { validateForProvider } from '../../addresses/validate';
import type { CryptoCurrency, CurrencyDictionary } from '../../domain/currency';
import type { ProviderRegistry } from '../../providers/registry';
import { jsonBody } from '../json-body';
import { bodyFields, currencyParam, FieldProblems, providerParam } from '../params';
import { methodNotAllowed, ProblemError, REQUEST_PARSE, validationProblem } from '../problem';
import { ValidateAddressBodySchema } from '../schemas';

/** Answers `{ result }` with 200 whether the address is valid or not, and a `reason` when it is not. */
export function validateAddressRoutes(router: Router, currencies: CurrencyDictionary, providers: ProviderRegistry): void {
  router
    .route('/on_ramp/validate-address')
    .post(jsonBody, (req, res) => {
      if (!req.is('application/json')) {
        throw new ProblemError('unsupported_media_type', 'Send the request as application/json.');
      }
      const raw = bodyFields(req.body);
      const problems = new FieldProblems();
      const parsed = ValidateAddressBodySchema.safeParse(req.body ?? {}, REQUEST_PARSE);
      if (!parsed.success) problems.add(validationProblem(parsed.error));
      const currency = problems.take(() => currencyParam(currencies, 'currency', raw.currency, 'crypto', 'body') as CryptoCurrency);
      const providerCode = raw.provider_code;
      const provider =
        typeof providerCode === 'string'
          ? problems.take(() => providerParam(providers, 'provider_code', providerCode), 'provider_code')
          : undefined;
      const { body, crypto, provider: adapter } = problems.settle({ body: parsed.data, crypto: currency, provider });
      const verdict = validateForProvider(crypto.network, body.wallet_address, { tag: body.memo }, adapter.validateAddress?.bind(adapter));
      res.json(verdict.valid ? { result: true } : { result: false, reason: verdict.reason });
    })
    .all(methodNotAllowed(['POST']));
}
