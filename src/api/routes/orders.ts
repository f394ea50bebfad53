import type { Request, Response, Router } from 'express';
import type { CatalogueService } from '../../catalogue/service';
import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import type { OfferStore } from '../../offers/store';
import { CreateOrderBodySchema, orderIdFor, requestHash } from '../../orders/request';
import type { OrderSearch } from '../../orders/search';
import type { OrderService } from '../../orders/service';
import type { OrderMemo } from '../../temporal/shared';
import type { CustomerUrlRule } from '../../providers/kit/url';
import type { ProviderRegistry } from '../../providers/registry';
import type { OrderTimings } from '../../temporal/shared';
import { integratorOf } from '../auth';
import { customerUrlsParam } from '../customer-urls';
import { jsonBody } from '../json-body';
import { bodyFields, countryParam, currencyParam, FieldProblems, fiatAmountParam, providerParam, stateParam } from '../params';
import { methodNotAllowed, ProblemError, REQUEST_PARSE, validationProblem } from '../problem';
import { StatusQuerySchema } from '../schemas';
import { forOrder } from '../tracing';
import { searchOrdersHandler } from './order-search';

export interface OrderRouteDeps {
  currencies: CurrencyDictionary;
  catalogue: CatalogueService;
  providers: ProviderRegistry;
  offers: OfferStore;
  orders: OrderService;
  search: OrderSearch;
  timings: OrderTimings;
  customerUrls: CustomerUrlRule;
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

export function orderRoutes(
  router: Router,
  { currencies, catalogue, providers, offers, orders, search, timings, customerUrls }: OrderRouteDeps,
): void {
  router
    .route('/on_ramp/orders')
    .post(jsonBody, async (req, res) => {
      const integrator = integratorOf(req);
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
      const stateCode =
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
        // loaded the offer match below still decides.
        const methods = (await catalogue.get(provider.info.code))?.paymentMethods;
        if (methods && !methods.some((m) => m.code === raw.payment_method)) {
          problems.add(
            new ProblemError('validation_error', `Provider ${provider.info.code} has no payment method ${raw.payment_method}.`, [
              { path: 'payment_method', message: `one of ${methods.map((m) => m.code).join(', ')}` },
            ]),
          );
        }
      }
      const { body, fiat: from, crypto: to } = problems.settle({ body: parsed.data, fiat, crypto });

      // Amounts are compared and stored at the currency's precision: "100" and "100.00" are one order.
      const fromAmount = decimal(body.from_amount).toFixed(from.precision);
      const orderId = orderIdFor(integrator.id, body.external_order_id);
      forOrder(res, orderId);
      const hash = requestHash({ ...body, from_amount: fromAmount, from_currency: from.id, to_currency: to.id });

      // A repeated request returns the order it created, even once its offer has expired.
      const existing = await orders.get(orderId);
      if (existing && existing.integratorId === integrator.id) {
        if (existing.requestHash !== hash) {
          throw new ProblemError('idempotency_conflict', 'This external_order_id was already used with a different request.');
        }
        res.json(existing.order);
        return;
      }

      const offer = await offers.findLive({
        integratorId: integrator.id,
        externalUserId: body.external_user_id,
        providerCode: body.provider_code,
        fromCurrency: from.id,
        toCurrency: to.id,
        amountFrom: fromAmount,
        country: body.country_code,
        state: stateCode,
        paymentMethod: body.payment_method,
      });
      if (!offer) {
        throw new ProblemError(
          'offer_expired',
          'No live offer matches this order (provider, currencies, amount, user, country and payment method). Request new offers.',
        );
      }

      const order = await orders.create({
        orderId,
        integratorId: integrator.id,
        providerCode: body.provider_code,
        requestHash: hash,
        timings,
        request: {
          from_currency: from.id,
          from_amount: fromAmount,
          to_currency: to.id,
          to_amount: offer.amountExpectedTo,
          wallet_address: body.wallet_address,
          payment_method: body.payment_method,
          country_code: body.country_code,
          state_code: body.state_code,
          external_user_id: body.external_user_id,
          external_order_id: body.external_order_id,
          ip: body.ip ?? offer.ip,
          user_agent: body.user_agent,
          extras: body.extras ?? {},
        },
      });
      res.json(order);
    })
    .get(searchOrdersHandler(search))
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/on_ramp/orders/:provider_code')
    .get(async (req, res) => {
      const memo = await ownOrder(req, res, orders);
      res.json(memo.order);
    })
    .all(methodNotAllowed(['GET']));
}
