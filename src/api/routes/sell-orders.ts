import type { Request, RequestHandler, Response, Router } from 'express';
import { checkTransactionHash } from '../../addresses/transaction-hash';
import type { CurrencyDictionary } from '../../domain/currency';
import { DepositConfirmationRefusedError } from '../../orders/errors';
import type { OrderService } from '../../orders/service';
import { placeSellOrder, type SellPlacementDeps } from '../../orders/sell-placement';
import {
  acceptedSellOrderRequest,
  CreateSellOrderBodySchema,
  DepositConfirmationBodySchema,
  type AcceptedSellOrderRequest,
} from '../../orders/sell-request';
import { isCustomerUrl, type CustomerUrlRule } from '../../providers/kit/url';
import type { ProviderRegistry } from '../../providers/registry';
import type { SellOrderMemo } from '../../temporal/sell-order-contract';
import { integratorOf } from '../auth';
import { jsonBody } from '../json-body';
import { bodyFields, countryParam, currencyParam, FieldProblems, fiatAmountParam, providerParam, stateParam } from '../params';
import { methodNotAllowed, ProblemError, REQUEST_PARSE, validationProblem } from '../problem';
import { StatusQuerySchema } from '../schemas';
import { forOrder } from '../tracing';

export interface SellOrderRouteDeps extends Omit<SellPlacementDeps, 'addressRuleOf'> {
  currencies: CurrencyDictionary;
  providers: ProviderRegistry;
  orders: OrderService;
  customerUrls: CustomerUrlRule;
}

/** The caller's sell order named by `?code=` at `:provider_code`; another integrator's, a buy, or one at another provider is 404. */
export async function ownSellOrder(req: Request, res: Response, orders: OrderService): Promise<SellOrderMemo> {
  const integrator = integratorOf(req);
  const parsed = StatusQuerySchema.safeParse(req.query, REQUEST_PARSE);
  if (!parsed.success) throw validationProblem(parsed.error, 'query');
  const memo = await orders.getSell(parsed.data.code);
  if (!memo || memo.integratorId !== integrator.id || memo.providerCode !== req.params.provider_code) {
    throw new ProblemError('not_found', 'No sell order with this code at this provider.');
  }
  forOrder(res, parsed.data.code);
  return memo;
}

/** The sell request's fields, each checked (every offending field named in one answer). */
function checkedSellRequest(
  req: Request,
  { currencies, providers, customerUrls }: SellOrderRouteDeps,
): Pick<AcceptedSellOrderRequest, 'body' | 'crypto' | 'fiat' | 'state'> {
  if (!req.is('application/json')) throw new ProblemError('unsupported_media_type', 'Send the order as application/json.');
  const raw = bodyFields(req.body);
  const problems = new FieldProblems();
  const parsed = CreateSellOrderBodySchema.safeParse(req.body ?? {}, REQUEST_PARSE);
  if (!parsed.success) problems.add(validationProblem(parsed.error, 'order'));
  if (raw.return_url !== undefined && !isCustomerUrl(raw.return_url, customerUrls)) {
    const allowed = customerUrls.loopbackHttp ? 'an https: URL, or http: to localhost' : 'an https: URL';
    problems.add(
      new ProblemError('validation_error', `return_url must be ${allowed}.`, [
        { path: 'return_url', message: `${allowed}, without credentials` },
      ]),
    );
  }
  const crypto = problems.take(() => currencyParam(currencies, 'from_currency', raw.from_currency, 'crypto', 'body'));
  const fiat = problems.take(() => currencyParam(currencies, 'to_currency', raw.to_currency, 'fiat', 'body'));
  const country = problems.take(() => countryParam('country_code', raw.country_code), 'country_code');
  const state =
    country === undefined ? undefined : problems.take(() => stateParam('state_code', raw.state_code, country, true), 'state_code');
  const amount = raw.from_amount;
  if (crypto && typeof amount === 'string') problems.take(() => fiatAmountParam('from_amount', amount, crypto, true), 'from_amount');
  const providerCode = raw.provider_code;
  if (typeof providerCode === 'string') {
    const provider = problems.take(() => providerParam(providers, 'provider_code', providerCode), 'provider_code');
    if (provider && !provider.sell) {
      problems.add(
        new ProblemError('validation_error', `Provider ${providerCode} does not buy crypto from customers.`, [
          { path: 'provider_code', message: 'a provider of GET /api/off_ramp/providers' },
        ]),
      );
    }
  }
  const settled = problems.settle({ body: parsed.data, crypto, fiat });
  return { ...settled, crypto: settled.crypto as AcceptedSellOrderRequest['crypto'], state };
}

function createSellOrderHandler(deps: SellOrderRouteDeps): RequestHandler {
  return async function createSellOrder(req, res) {
    const request = acceptedSellOrderRequest(integratorOf(req).id, checkedSellRequest(req, deps));
    forOrder(res, request.orderId);
    res.json(await placeSellOrder({ ...deps, addressRuleOf: (code) => deps.providers.get(code)?.validateAddress }, request));
  };
}

/**
 * `POST .../deposit_confirmation`: the customer's deposit transaction passed on to the order's
 * provider, where the provider takes one (Banxa); its hash checked for the order's network first.
 */
function confirmDepositHandler({ currencies, providers, orders }: SellOrderRouteDeps): RequestHandler {
  return async function confirmDeposit(req, res) {
    const memo = await ownSellOrder(req, res, orders);
    if (!req.is('application/json')) throw new ProblemError('unsupported_media_type', 'Send the confirmation as application/json.');
    const parsed = DepositConfirmationBodySchema.safeParse(req.body ?? {}, REQUEST_PARSE);
    if (!parsed.success) throw validationProblem(parsed.error, 'confirmation');
    if (!providers.get(memo.providerCode)?.sell?.confirmDeposit) {
      throw new DepositConfirmationRefusedError(
        'deposit_confirmation_unsupported',
        `Provider ${memo.providerCode} sees the deposit itself and takes no confirmation of it.`,
      );
    }
    const network = currencies.crypto(memo.order.from_currency)?.network;
    const hash = checkTransactionHash(network ?? '', parsed.data.transaction_hash);
    if (!hash.valid) {
      throw new ProblemError('validation_error', `transaction_hash: ${hash.reason}.`, [{ path: 'transaction_hash', message: hash.reason }]);
    }
    res.json(await orders.confirmSellDeposit(memo.order.id, hash.normalized));
  };
}

export function sellOrderRoutes(router: Router, deps: SellOrderRouteDeps): void {
  router
    .route('/off_ramp/orders')
    .post(jsonBody, createSellOrderHandler(deps))
    .all(methodNotAllowed(['POST']));
  router
    .route('/off_ramp/orders/:provider_code')
    .get(async (req, res) => {
      const memo = await ownSellOrder(req, res, deps.orders);
      res.json(memo.order);
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/off_ramp/orders/:provider_code/deposit_confirmation')
    .post(jsonBody, confirmDepositHandler(deps))
    .all(methodNotAllowed(['POST']));
}
