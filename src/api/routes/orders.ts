import type { Request, RequestHandler, Response, Router } from 'express';
import type { CatalogueService } from '../../catalogue/service';
import type { CurrencyDictionary } from '../../domain/currency';
import type { OfferStore } from '../../offers/store';
import { placeOrder } from '../../orders/placement';
import { acceptedOrderRequest, CreateOrderBodySchema, type AcceptedOrderRequest } from '../../orders/request';
import type { OrderSearch } from '../../orders/search';
import type { OrderService } from '../../orders/service';
import type { CustomerUrlRule } from '../../providers/kit/url';
import type { ProviderRegistry } from '../../providers/registry';
import type { OrderMemo, OrderTimings } from '../../temporal/order-contract';
import { integratorOf } from '../auth';
import { customerUrlsParam } from '../customer-urls';
import { jsonBody } from '../json-body';
import { bodyFields, countryParam, currencyParam, FieldProblems, fiatAmountParam, providerParam, stateParam } from '../params';
import { methodNotAllowed, ProblemError, problemOf, REQUEST_PARSE, validationProblem } from '../problem';
import { alternativeOffers } from '../alternatives';
import type { OffersRanking } from '../../ranking/offers-ranking';
import { offerQueryFor } from '../../orders/offer-match';
import { StatusQuerySchema } from '../schemas';
import { forOrder } from '../tracing';
import type { OrderExports } from '../../orders/export';
import { exportOrdersHandler } from './order-export';
import { searchOrdersHandler } from './order-search';

export interface OrderRouteDeps {
  currencies: CurrencyDictionary;
  catalogue: CatalogueService;
  providers: ProviderRegistry;
  offers: OfferStore;
  orders: OrderService;
  search: OrderSearch;
  exports: OrderExports;
  timings: OrderTimings;
  customerUrls: CustomerUrlRule;
  /** Ranks the alternatives offered when an order's provider is unavailable; none without it. */
  ranking?: OffersRanking;
}

/**
 * The caller's order named by `?code=` at `:provider_code` (the status route and the order's webhook
 * routes); another integrator's, or one at another provider, is 404. Only once the order is known
 * to be the caller's is its id put on the access log line and the span.
 */
export async function ownOrder(req: Request, res: Response, orders: OrderService): Promise<OrderMemo> {
  const integrator = integratorOf(req);
  const parsed = StatusQuerySchema.safeParse(req.query, REQUEST_PARSE);
  if (!parsed.success) throw validationProblem(parsed.error, 'query');
  const memo = await orders.get(parsed.data.code);
  if (!memo || memo.integratorId !== integrator.id || memo.providerCode !== req.params.provider_code) {
    throw new ProblemError('not_found', 'No order with this code at this provider.');
  }
  forOrder(res, parsed.data.code);
  return memo;
}

/**
 * The create request's fields, each checked (every offending field named in one answer): the body's
 * schema, the currencies, country, state, amount, provider and, where the provider's catalogue is
 * loaded, its payment method.
 */
async function checkedOrderRequest(
  req: Request,
  { currencies, catalogue, providers, customerUrls }: OrderRouteDeps,
): Promise<Pick<AcceptedOrderRequest, 'body' | 'fiat' | 'crypto' | 'state'>> {
  if (!req.is('application/json')) {
    throw new ProblemError('unsupported_media_type', 'Send the order as application/json.');
  }
  const raw = bodyFields(req.body);
  const problems = new FieldProblems();
  const parsed = CreateOrderBodySchema.safeParse(req.body ?? {}, REQUEST_PARSE);
  if (!parsed.success) problems.add(validationProblem(parsed.error, 'order'));
  problems.take(() => customerUrlsParam(raw.extras, customerUrls), 'extras');
  const fiat = problems.take(() => currencyParam(currencies, 'from_currency', raw.from_currency, 'fiat', 'body'));
  const crypto = problems.take(() => currencyParam(currencies, 'to_currency', raw.to_currency, 'crypto', 'body'));
  const country = problems.take(() => countryParam('country_code', raw.country_code), 'country_code');
  const state =
    country === undefined ? undefined : problems.take(() => stateParam('state_code', raw.state_code, country, true), 'state_code');
  const amount = raw.from_amount;
  if (fiat && typeof amount === 'string') problems.take(() => fiatAmountParam('from_amount', amount, fiat, true), 'from_amount');
  const providerCode = raw.provider_code;
  const provider =
    typeof providerCode === 'string'
      ? problems.take(() => providerParam(providers, 'provider_code', providerCode), 'provider_code')
      : undefined;
  if (provider && typeof raw.payment_method === 'string' && !problems.has('payment_method')) {
    // An unknown method is a mistake to name, not an expired offer; when the catalogue cannot be
    // loaded the offer match still decides.
    const methods = (await catalogue.get(provider.info.code))?.paymentMethods;
    if (methods && !methods.some((m) => m.code === raw.payment_method)) {
      problems.add(
        new ProblemError('validation_error', `Provider ${provider.info.code} has no payment method ${raw.payment_method}.`, [
          { path: 'payment_method', message: `one of ${methods.map((m) => m.code).join(', ')}` },
        ]),
      );
    }
  }
  return { ...problems.settle({ body: parsed.data, fiat, crypto }), state };
}

/** POST /api/on_ramp/orders: the order the request names, created once its provider order exists. */
function createOrderHandler(deps: OrderRouteDeps): RequestHandler {
  return async function createOrder(req, res) {
    const request = acceptedOrderRequest(integratorOf(req).id, await checkedOrderRequest(req, deps));
    forOrder(res, request.orderId);
    try {
      res.json(await placeOrder({ ...deps, addressRuleOf: (code) => deps.providers.get(code)?.validateAddress }, request));
    } catch (err) {
      const problem = problemOf(err);
      if (problem?.code !== 'provider_unavailable' || !deps.ranking) throw err;
      const alternatives = await alternativeOffers(
        { offers: deps.offers, providerCodes: deps.providers.all().map((p) => p.info.code), ranking: deps.ranking },
        offerQueryFor(request),
      );
      throw new ProblemError(problem.code, problem.message, problem.errors, problem.headers, { alternatives });
    }
  };
}

export function orderRoutes(router: Router, deps: OrderRouteDeps): void {
  router
    .route('/on_ramp/orders')
    .post(jsonBody, createOrderHandler(deps))
    .get(searchOrdersHandler(deps.search))
    .all(methodNotAllowed(['GET', 'POST']));

  // Before /on_ramp/orders/:provider_code, which would take `export` for a provider code.
  router
    .route('/on_ramp/orders/export')
    .get(exportOrdersHandler(deps.exports, deps.currencies))
    .all(methodNotAllowed(['GET']));

  router
    .route('/on_ramp/orders/:provider_code')
    .get(async (req, res) => {
      const memo = await ownOrder(req, res, deps.orders);
      res.json(memo.order);
    })
    .all(methodNotAllowed(['GET']));
}
