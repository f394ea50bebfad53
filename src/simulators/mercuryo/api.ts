import { randomBytes } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import { iso31661Alpha2ToAlpha3 } from 'iso-3166';
import type { SimulatedBooks } from '../kit/books';
import { listWindow } from '../kit/listing';
import { FIAT_PER_USD, USD_PRICE } from '../kit/market';
import { methodLimits, quote } from '../kit/pricing';
import type { MercuryoSimulatorCredentials } from './options';
import { MERCURYO_PROFILE } from './profile';
import { STATUSES_WITH_WITHDRAW, type SimPurchase } from './purchase';
import { transactionItem } from './views';
import type { SimSale } from './sell-sale';
import { MERCURYO_SELL_PROFILE } from './sell-terms';
import { saleItem } from './sell-views';

/** Mercuryo's error body. */
export const apiError = (res: Response, status: number, message: string, code = status * 100) =>
  void res.status(status).json({ status, code, message, data: null });

/** Mercuryo-style codes of the simulator's refusals (its own numbering). */
const REFUSAL_CODES: Readonly<Record<string, number>> = {
  unsupported_fiat: 40010,
  unsupported_asset: 40011,
  unsupported_payment_method: 40012,
  amount_out_of_range: 40020,
};

const LIST_LIMIT = 50;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A count parameter: `fallback` when absent, undefined when it is not a whole number. */
const countParam = (value: unknown, fallback: number) =>
  value === undefined ? fallback : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : undefined;

/** The Widget Partner API v1.6: public catalogue, limits and rate (`widget_id`), and the transaction lookup and list (`Sdk-Partner-Token`). */
export class MercuryoApi {
  readonly router = express.Router();
  private readonly profile = MERCURYO_PROFILE;

  constructor(
    private readonly purchases: ReadonlyMap<string, SimPurchase>,
    private readonly credentials: MercuryoSimulatorCredentials,
    private readonly books: SimulatedBooks,
    private readonly sales: ReadonlyMap<string, SimSale> = new Map(),
  ) {
    const router = this.router;
    router.get('/v1.6/lib/currencies', this.widget(false), (_req, res) => this.currencies(res));
    router.get('/v1.6/public/card-countries', this.widget(false), (req, res) => this.countries(req, res));
    router.get('/v1.6/public/currency-limits', this.widget(true), (req, res) => this.limits(req, res));
    router.get('/v1.6/widget/buy/rate', this.widget(true), (req, res) => this.rate(req, res));
    router.get('/v1.6/sdk-partner/transactions', (req, res) => this.transactions(req, res));
  }

  /** Public calls name the partner's widget; an unknown one is refused. */
  private widget(required: boolean) {
    return (req: Request, res: Response, next: NextFunction) => {
      const id = req.query.widget_id;
      if (id === undefined && !required) return next();
      if (id !== this.credentials.widgetId) return apiError(res, 403, 'Widget not found');
      next();
    };
  }

  private currencies(res: Response): void {
    const assets = this.profile.assets.map((a) => a.split('/') as [string, string]);
    const methods = (fiat: string) =>
      this.profile.paymentMethods
        .filter((m) => !m.fiat || m.fiat.includes(fiat))
        .flatMap((m) =>
          m.code === 'card'
            ? [
                { code: 'card', name: 'Visa' },
                { code: 'card', name: 'Mastercard' },
              ]
            : [{ code: m.code, name: m.name }],
        );
    const card = this.profile.paymentMethods[0]!;
    res.json({
      status: 200,
      data: {
        fiat: this.profile.fiat,
        crypto: [...new Set(assets.map(([ticker]) => ticker))],
        config: {
          crypto_currencies: assets.map(([currency, network]) => ({
            currency,
            network,
            network_label: network,
            contract: '',
            widget_onramp_enabled: true,
            widget_offramp_enabled: MERCURYO_SELL_PROFILE.assets.includes(`${currency}/${network}`),
            restricted_countries_onramp: [],
            restricted_countries_offramp: [],
          })),
        },
        fiat_payment_methods: Object.fromEntries(
          this.profile.fiat.map((fiat) => {
            const { min, max } = methodLimits(card, fiat);
            return [fiat, { payment_methods: methods(fiat), limits: { min: min.toFixed(), max: max.toFixed() } }];
          }),
        ),
      },
    });
  }

  private countries(req: Request, res: Response): void {
    const alpha2 = req.query.type === 'alpha2';
    res.json({
      status: 200,
      data: this.profile.countries.map((c) => (alpha2 ? c : (iso31661Alpha2ToAlpha3[c] ?? c)).toLowerCase()),
    });
  }

  private limits(req: Request, res: Response): void {
    const { from = '', to = '' } = req.query as Record<string, string | undefined>;
    const price = USD_PRICE[to];
    if (req.query.type !== 'buy') return apiError(res, 400, 'Only type=buy is simulated');
    if (!this.profile.fiat.includes(from) || price === undefined || !this.profile.assets.some((a) => a.startsWith(`${to}/`))) {
      return apiError(res, 400, `Currency pair ${from}/${to} is not supported`, REFUSAL_CODES.unsupported_asset);
    }
    const { min, max } = methodLimits(this.profile.paymentMethods[0]!, from);
    const unit = new BigNumber(price).times(FIAT_PER_USD[from] ?? '1');
    res.json({
      status: 200,
      code: 0,
      message: '',
      data: {
        [to]: {
          min: min.div(unit).decimalPlaces(8, BigNumber.ROUND_UP).toFixed(),
          max: max.div(unit).decimalPlaces(8, BigNumber.ROUND_DOWN).toFixed(),
        },
        [from]: { min: min.toFixed(), max: max.toFixed() },
      },
    });
  }

  private rate(req: Request, res: Response): void {
    const q = req.query as Record<string, string | undefined>;
    const { from = '', to = '', amount = '' } = q;
    if (!/^\d+(\.\d+)?$/.test(amount)) return apiError(res, 400, 'amount must be a number');
    const network = q.network ?? this.profile.assets.find((a) => a.startsWith(`${to}/`))?.split('/')[1] ?? '';
    // Mercuryo's rate does not depend on the payment method: the card's terms are everyone's.
    const priced = quote(this.profile, { fiat: from, crypto: to, network, fiatAmount: amount, paymentMethod: 'card' });
    if (!priced.ok) return apiError(res, 400, priced.message, REFUSAL_CODES[priced.code]);
    const fee = new BigNumber(priced.processingFee).plus(priced.networkFee).toFixed(2);
    const feeCrypto = new BigNumber(fee).div(priced.price).decimalPlaces(8, BigNumber.ROUND_UP).toFixed();
    res.json({
      status: 200,
      data: {
        buy_token: randomBytes(24).toString('hex'),
        currency: to,
        amount: priced.cryptoAmount,
        fiat_currency: from,
        fiat_amount: amount,
        rate: priced.price,
        fee: { [to]: feeCrypto, [from]: fee },
        subtotal: { [to]: priced.cryptoAmount, [from]: new BigNumber(amount).minus(fee).toFixed(2) },
        total: { [to]: new BigNumber(priced.cryptoAmount).plus(feeCrypto).toFixed(), [from]: amount },
        kyc_limit_exceeded: false,
      },
    });
  }

  /** `merchant_transaction_id` looks one order's purchase up; without it, the widget's transactions are listed. */
  private transactions(req: Request, res: Response): void {
    const { credentials } = this;
    if (req.header('sdk-partner-token') !== credentials.sdkPartnerToken) return apiError(res, 401, 'wrong partner');
    if (req.query.widget_id !== undefined && req.query.widget_id !== credentials.widgetId) return apiError(res, 403, 'Widget not found');
    if (req.query.merchant_transaction_id === undefined) return this.list(req, res);
    const id = req.query.merchant_transaction_id;
    const purchase = typeof id === 'string' ? this.purchases.get(id) : undefined;
    const sale = typeof id === 'string' ? this.sales.get(id) : undefined;
    // A sell's legs are one item, as a purchase's are.
    const found = [
      ...(purchase?.merchantTransactionId === id ? [transactionItem(purchase, credentials.widgetId)] : []),
      ...(sale ? [saleItem(sale, credentials.widgetId)] : []),
    ];
    const limit = Math.min(Number(req.query.limit ?? 50) || 50, 50);
    const offset = Number(req.query.offset ?? 0) || 0;
    res.json({ status: 200, total: found.length, next: null, prev: null, data: found.slice(offset, offset + limit) });
  }

  /**
   * The transaction list: `date_start` and `date_end` (YYYY-MM-DD, both days included; either may be
   * left out), `limit` (1-50, default 50) and `offset`, newest first. One item per purchase, its
   * operations keyed by type, as Mercuryo's answers hold them; `limit` and `offset` count items. What
   * the books switches change shows here only.
   */
  private list(req: Request, res: Response): void {
    const { date_start: start, date_end: end } = req.query;
    const dates = [start, end].every((value) => value === undefined || (typeof value === 'string' && DATE.test(value)));
    const window = dates ? listWindow(start, end) : undefined;
    const limit = countParam(req.query.limit, LIST_LIMIT);
    const offset = countParam(req.query.offset, 0);
    if (!window || limit === undefined || limit < 1 || limit > LIST_LIMIT || offset === undefined) {
      return apiError(res, 400, 'date_start, date_end (YYYY-MM-DD), limit (1-50) or offset is invalid');
    }
    const listed = [...this.purchases.values()]
      .filter((p) => window.holds(p.payment.createdAt.toISOString()) && !this.books.drops(p.merchantTransactionId))
      .sort((a, b) => b.payment.createdAt.getTime() - a.payment.createdAt.getTime() || (a.transactionId < b.transactionId ? 1 : -1));
    res.json({
      status: 200,
      total: listed.length,
      next: null,
      prev: null,
      data: listed.slice(offset, offset + limit).map((p) => this.booked(p)),
    });
  }

  /**
   * The purchase as the list shows it, with the books switches of its order applied: `status` is the
   * payment leg's (the withdraw leg left out when the payment never got that far), `fiatAmount` the
   * payment leg's `fiat_amount`, which the adapter reads as what the customer paid.
   */
  private booked(purchase: SimPurchase): Record<string, Record<string, unknown>> {
    const item = transactionItem(purchase, this.credentials.widgetId);
    const switches = this.books.of(purchase.merchantTransactionId);
    const payment = item[purchase.paymentType]!;
    if (switches?.status) {
      payment.status = switches.status;
      if (!STATUSES_WITH_WITHDRAW.includes(switches.status)) delete item.withdraw;
    }
    if (switches?.fiatAmount) payment.fiat_amount = switches.fiatAmount;
    return item;
  }
}
