import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { SimulatedBooks } from '../kit/books';
import { providerOrderMadeAt, type SimulatorFaults } from '../kit/faults';
import { methodLimits, quote } from '../kit/pricing';
import type { PaybisSimulatorOptions } from './options';
import { currentTransaction, transactionView, type PaybisSimQuote, type PaybisSimRequest, type PaybisSimTransaction } from './orders';
import { BLOCKCHAIN_OF_CODE, PAYBIS_PROFILE, tickerOfCode } from './profile';
import { partnerSigned } from './signing';

const DECIMAL = /^\d+(\.\d+)?$/;
const DEFAULT_PAGE_SIZE = 50;
/** The most transactions one page of the list holds. */
const MAX_PAGE_SIZE = 100;

/** A count parameter: `fallback` when absent, undefined when it is not a whole number. */
const countParam = (value: unknown, fallback: number) =>
  value === undefined ? fallback : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : undefined;

/** Paybis's error body: a code and a message. */
export function refuse(res: Response, httpStatus: number, code: string, message: string): void {
  res.status(httpStatus).json({ code, message });
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

type RawRequest = Request & { rawBody?: Buffer };

/** Paybis's Widget API: public catalogue, quotes, requests (server side), the partner's transaction list. */
export class PaybisApi {
  readonly router = express.Router();
  private readonly profile = PAYBIS_PROFILE;
  private readonly quotes = new Map<string, PaybisSimQuote>();

  constructor(
    private readonly requests: Map<string, PaybisSimRequest>,
    private readonly options: Pick<PaybisSimulatorOptions, 'credentials' | 'log'>,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly books: SimulatedBooks,
  ) {
    const router = this.router;
    router.get('/v2/public/currency/pairs/buy-crypto', (_req, res) => this.pairs(res));
    router.get('/v2/public/payment-method-list-with-limits', (_req, res) => this.methods(res));
    router.post('/v2/quote', (req, res) => this.quote(req, res));
    router.post('/v2/request', (req, res) => this.createRequest(req, res));
    router.get('/v2/transactions', (req, res) => this.transactions(req, res));
  }

  /** The API key on every call; on every call with a body, the partner's signature of it (403 without). */
  readonly authenticate = (req: RawRequest, res: Response, next: NextFunction): void => {
    const key = req.header('authorization')?.replace(/^Bearer\s+/i, '');
    if (key !== this.options.credentials.apiKey) return refuse(res, 401, 'UNAUTHORIZED', 'Invalid API key');
    if (
      req.method === 'POST' &&
      !partnerSigned(req.rawBody ?? Buffer.alloc(0), req.header('x-request-signature'), this.options.credentials.partnerPublicKey)
    )
      return refuse(res, 403, 'INVALID_SIGNATURE', 'Request signature validation failed');
    next();
  };

  private pairs(res: Response): void {
    const codes = this.profile.assets.map((a) => a.split('/')[1] ?? '');
    res.json({
      data: this.profile.fiat.map((from) => ({ from, to: codes.map((currencyCode) => ({ currencyCode })) })),
      meta: {
        currencies: [
          ...this.profile.fiat.map((code) => ({ code, name: code, blockchainName: null })),
          ...codes.map((code) => ({ code, name: code, blockchainName: BLOCKCHAIN_OF_CODE[code] ?? null })),
        ],
      },
    });
  }

  private methods(res: Response): void {
    const codes = this.profile.assets.map((a) => a.split('/')[1] ?? '');
    res.json({
      data: this.profile.paymentMethods.map((m) => ({
        id: m.code,
        name: m.name,
        pairs: this.profile.fiat
          .filter((fiat) => !m.fiat || m.fiat.includes(fiat))
          .map((from) => {
            const { min, max } = methodLimits(m, from);
            return {
              from,
              to: codes.map((currencyCode) => ({
                currency: currencyCode,
                currencyCode,
                minAmount: min.toFixed(),
                maxAmount: max.toFixed(),
              })),
            };
          }),
      })),
    });
  }

  private quote(req: Request, res: Response): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const [from, to, amount] = [text(body.currencyCodeFrom), text(body.currencyCodeTo), text(body.amount)];
    if (!from || !to || !amount || !DECIMAL.test(amount))
      return refuse(res, 422, 'VALIDATION_ERROR', 'currencyCodeFrom, currencyCodeTo and a decimal amount are required');
    if (body.directionChange !== 'from')
      return refuse(res, 422, 'VALIDATION_ERROR', 'this simulator quotes by the amount paid (directionChange "from")');
    const ticker = tickerOfCode(to);
    if (!ticker) return refuse(res, 422, 'UNSUPPORTED_CURRENCY', `${to} is not supported`);
    const wanted = text(body.paymentMethod);
    const methods = this.profile.paymentMethods.filter((m) => (wanted ? m.code === wanted : true) && (!m.fiat || m.fiat.includes(from)));
    if (methods.length === 0)
      return refuse(res, 422, 'UNSUPPORTED_PAYMENT_METHOD', `payment method ${wanted ?? ''} is not available for ${from}`);
    const id = randomUUID();
    const expiresAt = new Date(Date.now() + this.profile.quoteTtlSeconds * 1000);
    const priced = [];
    for (const method of methods) {
      const result = quote(this.profile, { fiat: from, crypto: ticker, network: to, fiatAmount: amount, paymentMethod: method.code });
      if (!result.ok) {
        if (wanted === undefined) continue;
        if (result.code === 'amount_out_of_range') return refuse(res, 422, 'AMOUNT_OUT_OF_LIMITS', result.message);
        if (result.code === 'unsupported_fiat' || result.code === 'unsupported_asset')
          return refuse(res, 422, 'UNSUPPORTED_CURRENCY', result.message);
        return refuse(res, 422, 'VALIDATION_ERROR', result.message);
      }
      this.quotes.set(`${id}/${method.code}`, {
        id,
        fiat: from,
        code: to,
        fiatAmount: amount,
        cryptoAmount: result.cryptoAmount,
        paymentMethodId: method.code,
        paymentMethodName: method.name,
        expiresAt,
      });
      priced.push({
        id: method.code,
        name: method.name,
        amountFrom: { amount, currencyCode: from },
        amountTo: { amount: result.cryptoAmount, currencyCode: to },
        fees: {
          networkFee: { amount: result.networkFee, currencyCode: from },
          serviceFee: { amount: result.processingFee, currencyCode: from },
        },
      });
    }
    if (priced.length === 0) return refuse(res, 422, 'AMOUNT_OUT_OF_LIMITS', 'no payment method takes this amount');
    res.json({
      id,
      currencyCodeFrom: from,
      currencyCodeTo: to,
      requestedAmount: { amount, currencyCode: from },
      requestedAmountType: 'from',
      paymentMethods: priced,
      expiresAt: expiresAt.toISOString(),
    });
  }

  private createRequest(req: Request, res: Response): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const partnerUserId = text(body.partnerUserId);
    if (!partnerUserId) return refuse(res, 422, 'VALIDATION_ERROR', 'partnerUserId is required');
    const quoteId = text(body.quoteId);
    const method = text(body.paymentMethod);
    const saved = quoteId && method ? this.quotes.get(`${quoteId}/${method}`) : undefined;
    if (!saved) return refuse(res, 422, 'VALIDATION_ERROR', 'this simulator needs the quoteId of a quote for the paymentMethod');
    if (saved.expiresAt.getTime() < Date.now()) return refuse(res, 422, 'QUOTE_EXPIRED', 'The quote has expired');
    const wallet = body.cryptoWalletAddress as { address?: unknown; currencyCode?: unknown } | null | undefined;
    const address = text(wallet?.address);
    if (!address || wallet?.currencyCode !== saved.code)
      return refuse(res, 422, 'VALIDATION_ERROR', `cryptoWalletAddress with currencyCode ${saved.code} is required`);
    const request: PaybisSimRequest = {
      requestId: randomUUID(),
      partnerUserId,
      partnerTransactionId: text(body.partnerTransactionId) ?? null,
      quote: saved,
      walletAddress: address,
      fiatAmount: saved.fiatAmount,
      fiat: saved.fiat,
      createdAt: providerOrderMadeAt(this.faults),
      transactions: [],
    };
    this.requests.set(request.requestId, request);
    this.options.log?.(`paybis request ${request.requestId} created (partnerTransactionId ${request.partnerTransactionId ?? '-'})`);
    res.json({ requestId: request.requestId });
  }

  /**
   * The partner's transaction list: `from` and `to` (ISO 8601, both included), `limit` (1 to 100,
   * 50 by default) and `cursor` (the `meta.nextCursor` of the page before: an offset here), oldest
   * first; 422 for anything else. The status lookup and the reconciliation read this one list, so
   * it shows the books switches to both: it is Paybis's only record of the transactions.
   */
  private transactions(req: Request, res: Response): void {
    const from = Date.parse(text(req.query.from) ?? '');
    const to = Date.parse(text(req.query.to) ?? '');
    if (Number.isNaN(from) || Number.isNaN(to) || to < from)
      return refuse(res, 422, 'VALIDATION_ERROR', 'from and to (ISO 8601, to not before from) are required');
    const limit = countParam(req.query.limit, DEFAULT_PAGE_SIZE);
    const offset = countParam(req.query.cursor, 0);
    if (limit === undefined || limit < 1 || limit > MAX_PAGE_SIZE || offset === undefined)
      return refuse(res, 422, 'VALIDATION_ERROR', `limit (1-${MAX_PAGE_SIZE}) or cursor is invalid`);
    const matching = [...this.requests.values()]
      .filter((request) => !this.books.drops(request.partnerTransactionId))
      .flatMap((request) => request.transactions.map((tx) => ({ request, tx })))
      .filter(({ tx }) => tx.createdAt.getTime() >= from && tx.createdAt.getTime() <= to)
      .sort((a, b) => a.tx.createdAt.getTime() - b.tx.createdAt.getTime());
    const page = matching.slice(offset, offset + limit);
    res.json({
      data: page.map(({ request, tx }) => this.booked(request, tx)),
      meta: { limit, currentCursor: String(offset), nextCursor: offset + limit < matching.length ? String(offset + limit) : null },
    });
  }

  /**
   * A transaction as the list shows it, with the books switches of its request's order applied:
   * `status` to the request's newest transaction (the one its widget shows), `fiatAmount` as
   * `amounts.spentOriginal.amount` (what the customer paid, fees included) of each of them, since
   * the simulator keeps the amount per request.
   */
  private booked(request: PaybisSimRequest, tx: PaybisSimTransaction) {
    const view = transactionView(request, tx);
    const switches = this.books.of(request.partnerTransactionId);
    const status = switches?.status !== undefined && tx === currentTransaction(request) ? switches.status : view.status;
    const spent =
      switches?.fiatAmount === undefined ? view.amounts.spentOriginal : { ...view.amounts.spentOriginal, amount: switches.fiatAmount };
    return { ...view, status, amounts: { ...view.amounts, spentOriginal: spent } };
  }
}
