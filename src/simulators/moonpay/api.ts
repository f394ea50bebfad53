import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { SimulatedBooks } from '../kit/books';
import { listWindow } from '../kit/listing';
import { quote, type QuoteResult } from '../kit/pricing';
import { countriesAnswer, cryptoCurrency, currenciesAnswer, fiatCurrency } from './catalogue';
import type { MoonpaySimulatorCredentials } from './options';
import { MOONPAY_ASSETS, MOONPAY_PROFILE, type SimulatedAsset } from './profile';
import { transactionJson, type SimTransaction } from './transactions';

type ErrorType = 'BadRequestError' | 'UnauthorizedError' | 'NotFoundError' | 'MoonPayApiError';

/** MoonPay's error body (`moonPayErrorCode`, `message`, `type`, `errors`). */
export function moonpayError(res: Response, status: number, type: ErrorType, code: string, message: string): void {
  res.status(status).json({ moonPayErrorCode: code, message, type, errors: [] });
}

export const DEFAULT_PAYMENT_METHOD = 'credit_debit_card';
export const DECIMAL = /^\d+(\.\d+)?$/;

export const findAsset = (code: string): SimulatedAsset | undefined => MOONPAY_ASSETS.find((a) => a.code === code);

/** Prices a buy of `asset`; an asset MoonPay lists but does not sell right now is refused. */
export function price(asset: SimulatedAsset, fiat: string, amount: string, paymentMethod: string): QuoteResult {
  if (!asset.asset) return { ok: false, status: 400, code: 'unsupported_asset', message: `${asset.code} cannot be bought right now` };
  const [crypto = '', network = ''] = asset.asset.split('/');
  return quote(MOONPAY_PROFILE, { fiat, crypto, network, fiatAmount: amount, paymentMethod });
}

/** MoonPay's API: public currencies, countries and buy quotes (`apiKey` query), and transaction lookups (`Authorization: Api-Key <secret>`). */
export class MoonpayApi {
  readonly router = express.Router();
  private readonly profile = MOONPAY_PROFILE;

  constructor(
    private readonly transactions: ReadonlyMap<string, SimTransaction>,
    private readonly credentials: MoonpaySimulatorCredentials,
    private readonly books: SimulatedBooks,
  ) {
    const router = this.router;
    router.get('/v3/currencies', this.publicKey(false), (_req, res) => void res.json(currenciesAnswer(this.profile)));
    router.get('/v3/countries', this.publicKey(false), (_req, res) => void res.json(countriesAnswer(this.profile)));
    router.get('/v3/currencies/:code/buy_quote', this.publicKey(true), (req, res) => this.buyQuote(req, res));
    router.get('/v1/transactions', this.secretKey(), (req, res) => this.list(req, res));
    router.get('/v1/transactions/ext/:externalTransactionId', this.secretKey(), (req, res) => this.byExternalId(req, res));
    router.get('/v1/transactions/:id', this.secretKey(), (req, res) => this.byId(req, res));
  }

  /** Public endpoints take the publishable key as `apiKey`; a wrong one is refused, a missing one where required. */
  private publicKey(required: boolean) {
    return (req: Request, res: Response, next: NextFunction) => {
      const apiKey = req.query.apiKey;
      if ((apiKey === undefined && !required) || apiKey === this.credentials.publishableKey) return next();
      moonpayError(res, 401, 'UnauthorizedError', '4_SYS_UNAUTHORIZED', apiKey === undefined ? 'Missing API key' : 'Invalid API key');
    };
  }

  private secretKey() {
    return (req: Request, res: Response, next: NextFunction) => {
      if (req.header('authorization') === `Api-Key ${this.credentials.secretKey}`) return next();
      moonpayError(res, 401, 'UnauthorizedError', '4_SYS_UNAUTHORIZED', 'Invalid secret key');
    };
  }

  private buyQuote(req: Request, res: Response): void {
    const asset = findAsset(String(req.params.code));
    if (!asset) return moonpayError(res, 404, 'NotFoundError', '4_SYS_NOT_FOUND', 'Currency not found');
    const q = req.query;
    const baseCode = typeof q.baseCurrencyCode === 'string' ? q.baseCurrencyCode : '';
    const amount = typeof q.baseCurrencyAmount === 'string' ? q.baseCurrencyAmount : '';
    if (baseCode === '' || !DECIMAL.test(amount)) {
      return moonpayError(
        res,
        400,
        'BadRequestError',
        '4_SYS_BAD_REQUEST',
        'baseCurrencyCode and a numeric baseCurrencyAmount are required',
      );
    }
    const paymentMethod = typeof q.paymentMethod === 'string' ? q.paymentMethod : DEFAULT_PAYMENT_METHOD;
    const fiat = baseCode.toUpperCase();
    const priced = price(asset, fiat, amount, paymentMethod);
    if (!priced.ok) return moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', priced.message);
    const feesIncluded = q.areFeesIncluded === 'true';
    const fees = new BigNumber(priced.processingFee).plus(priced.networkFee);
    // With fees included the amount is what the customer pays; otherwise the fees come on top of it.
    const base = feesIncluded ? new BigNumber(amount).minus(fees) : new BigNumber(amount);
    const cryptoAmount = feesIncluded ? priced.cryptoAmount : base.div(priced.price).decimalPlaces(8, BigNumber.ROUND_DOWN).toFixed();
    const expiresAt = new Date(Date.now() + this.profile.quoteTtlSeconds * 1000);
    res.json({
      baseCurrencyCode: fiat.toLowerCase(),
      baseCurrencyAmount: base.toNumber(),
      quoteCurrencyCode: asset.code,
      quoteCurrencyAmount: Number(cryptoAmount),
      quoteCurrencyPrice: Number(priced.price),
      paymentMethod,
      feeAmount: Number(priced.processingFee),
      extraFeePercentage: 0,
      extraFeeAmount: 0,
      networkFeeAmount: Number(priced.networkFee),
      networkFeeAmountNonRefundable: false,
      totalAmount: base.plus(fees).toNumber(),
      areFeesIncluded: feesIncluded,
      baseCurrency: fiatCurrency(this.profile, fiat),
      quoteCurrency: cryptoCurrency(asset),
      externalId: null,
      expiresIn: this.profile.quoteTtlSeconds,
      expiresAt: expiresAt.toISOString(),
    });
  }

  private byExternalId(req: Request, res: Response): void {
    const externalId = String(req.params.externalTransactionId);
    const found = [...this.transactions.values()].filter((tx) => tx.externalTransactionId === externalId);
    if (found.length === 0) return moonpayError(res, 404, 'NotFoundError', '4_SYS_NOT_FOUND', 'Transaction not found');
    res.json(found.map((tx) => transactionJson(tx, this.profile)));
  }

  /**
   * MoonPay's transaction list: `startDate` and `endDate` (ISO dates or instants, both included; a
   * date alone is its whole day), `limit` (at most 50, default 10) and `offset`; newest first. What
   * the books switches change shows here only.
   */
  private list(req: Request, res: Response): void {
    const window = listWindow(req.query.startDate, req.query.endDate);
    const limit = req.query.limit === undefined ? 10 : Number(req.query.limit);
    const offset = req.query.offset === undefined ? 0 : Number(req.query.offset);
    if (!window || !Number.isInteger(limit) || limit < 1 || limit > 50 || !Number.isInteger(offset) || offset < 0) {
      return moonpayError(res, 400, 'BadRequestError', '4_SYS_BAD_REQUEST', 'startDate, endDate, limit (1-50) or offset is invalid');
    }
    const listed = [...this.transactions.values()]
      .filter((tx) => window.holds(tx.createdAt) && !this.books.drops(tx.externalTransactionId))
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : -1));
    res.json(listed.slice(offset, offset + limit).map((tx) => this.booked(tx)));
  }

  /** The transaction as the list shows it, with the books switches of its order applied. */
  private booked(tx: SimTransaction) {
    const json = transactionJson(tx, this.profile);
    const switches = this.books.of(tx.externalTransactionId);
    if (switches?.status) json.status = switches.status as SimTransaction['status'];
    if (switches?.fiatAmount) {
      // MoonPay charges the base amount plus its fees: the base is what makes the listed total differ.
      json.baseCurrencyAmount = new BigNumber(switches.fiatAmount).minus(tx.feeAmount).minus(tx.networkFeeAmount).toNumber();
    }
    return json;
  }

  private byId(req: Request, res: Response): void {
    const tx = [...this.transactions.values()].find((t) => t.id === req.params.id);
    if (!tx) return moonpayError(res, 404, 'NotFoundError', '4_SYS_NOT_FOUND', 'Transaction not found');
    res.json(transactionJson(tx, this.profile));
  }
}
