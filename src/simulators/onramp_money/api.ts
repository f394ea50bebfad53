import { timingSafeEqual } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { SimulatedBooks } from '../kit/books';
import { listWindow } from '../kit/listing';
import { methodLimits, quote } from '../kit/pricing';
import type { OnrampMoneySimulatorCredentials } from './options';
import { CHAIN_IDS, COIN_IDS, FIAT_TYPES, ONRAMP_MONEY_PROFILE, PAYMENT_TYPES } from './profile';
import { signPayload } from './signing';
import type { SimTransaction } from './transactions';
import { transactionRecord } from './views';

/** Onramp.money's error body: `status` 0, the HTTP code, and an `error` text (Error codes page). */
export const apiError = (res: Response, status: number, error: string) => void res.status(status).json({ status: 0, code: status, error });

/** How far a payload's timestamp may be from the server's clock; further ahead is the documented "Ahead of Time" 401. */
const TIMESTAMP_WINDOW_MS = 5 * 60 * 1000;

const ok = (res: Response, data: unknown) => void res.json({ status: 1, code: 200, data });

const BASE = '/onramp/api';

/** Onramp.money's merchant REST API: every call signed with the merchant's API key and secret. */
export class OnrampMoneyApi {
  readonly router = express.Router();
  private readonly profile = ONRAMP_MONEY_PROFILE;

  constructor(
    private readonly transactions: ReadonlyMap<string, SimTransaction>,
    private readonly credentials: OnrampMoneySimulatorCredentials,
    private readonly books: SimulatedBooks,
  ) {
    const router = this.router;
    const signed = express.Router();
    signed.use(express.json({ limit: '64kb' }), (req: Request, res: Response, next: NextFunction) => this.authenticate(req, res, next));
    router.get(`${BASE}/v2/common/public/currentTimestamp`, (_req: Request, res: Response) => ok(res, Date.now()));
    router.post(`${BASE}/v2/common/transaction/allConfigMapping`, signed, (_req: Request, res: Response) => this.configMapping(res));
    router.post(`${BASE}/v2/common/transaction/allChainMapping`, signed, (_req: Request, res: Response) => this.chainMapping(res));
    router.post(`${BASE}/v2/common/transaction/limits`, signed, (req: Request, res: Response) => this.limits(req, res));
    router.get(`${BASE}/v2/common/public/fetchAllCountryConfig`, signed, (_req: Request, res: Response) => this.countryConfig(res));
    router.post(`${BASE}/v2/common/transaction/quotes`, signed, (req: Request, res: Response) => this.quotes(req, res));
    router.post(`${BASE}/v1/transaction/merchantHistory`, signed, (req: Request, res: Response) => this.history(req, res));
    router.post(`${BASE}/v2/common/transaction/orderStatus`, signed, (req: Request, res: Response) => this.orderStatus(req, res));
  }

  /**
   * `X-ONRAMP-APIKEY` names the merchant; `X-ONRAMP-SIGNATURE` is the hex HMAC-SHA512 of
   * `X-ONRAMP-PAYLOAD`, base64 of `{timestamp, body}` whose body is the request's own.
   */
  private authenticate(req: Request, res: Response, next: NextFunction): void {
    const apiKey = req.header('x-onramp-apikey');
    const payload = req.header('x-onramp-payload') ?? '';
    const signature = req.header('x-onramp-signature') ?? '';
    if (apiKey !== this.credentials.apiKey) return apiError(res, 401, 'Invalid client credentials/signature');
    const expected = Buffer.from(signPayload(this.credentials.apiSecret, payload), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return apiError(res, 401, 'Invalid client credentials/signature');
    let decoded: { timestamp?: unknown; body?: unknown };
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as typeof decoded;
    } catch {
      return apiError(res, 400, 'Invalid Request');
    }
    if (typeof decoded.timestamp !== 'number' || Math.abs(decoded.timestamp - Date.now()) > TIMESTAMP_WINDOW_MS) {
      return apiError(res, 401, 'Ahead of Time');
    }
    const sent = req.method === 'GET' ? {} : (req.body as unknown);
    if (JSON.stringify(decoded.body ?? {}) !== JSON.stringify(sent ?? {}))
      return apiError(res, 401, 'Payload does not match the request body');
    next();
  }

  private configMapping(res: Response): void {
    ok(res, { fiatSymbolMapping: FIAT_TYPES, coinSymbolMapping: COIN_IDS, chainSymbolMapping: CHAIN_IDS });
  }

  private chainMapping(res: Response): void {
    const coins = new Map<string, number[]>();
    for (const asset of this.profile.assets) {
      const [ticker, chain] = asset.split('/') as [string, string];
      const code = ticker.toLowerCase();
      coins.set(code, [...(coins.get(code) ?? []), CHAIN_IDS[chain]!]);
    }
    const chains = [...new Set(this.profile.assets.map((a) => a.split('/')[1]!))];
    ok(res, {
      allCoinConfig: Object.fromEntries(
        [...coins].map(([code, networks]) => [
          code,
          { coinId: COIN_IDS[code], coinName: code.toUpperCase(), networks, balanceFloatPlaces: 2 },
        ]),
      ),
      networkConfig: Object.fromEntries(chains.map((chain) => [String(CHAIN_IDS[chain]), { chainSymbol: chain, chainName: chain }])),
    });
  }

  private limits(req: Request, res: Response): void {
    if (String((req.body as { type?: unknown }).type) !== '1') return apiError(res, 400, 'Only type 1 (onramp) is simulated');
    const onramp = Object.fromEntries(
      this.profile.fiat.map((fiat) => {
        const { min, max } = methodLimits(
          this.profile.paymentMethods.find((m) => m.fiat?.includes(fiat))!,
          fiat,
        );
        return [String(FIAT_TYPES[fiat]), { min: min.toNumber(), max: max.toNumber() }];
      }),
    );
    ok(res, { onramp });
  }

  private countryConfig(res: Response): void {
    const buy = Object.fromEntries(
      Object.entries(FIAT_TYPES).map(([fiat, fiatType]) => {
        const methods = this.profile.paymentMethods.filter((m) => m.fiat?.includes(fiat));
        return [
          String(fiatType),
          {
            isActive: this.profile.fiat.includes(fiat) ? 1 : 0,
            paymentMethods: Object.fromEntries(methods.map((m) => [m.code, PAYMENT_TYPES[m.code]])),
          },
        ];
      }),
    );
    ok(res, { buy, sell: {} });
  }

  /** Resolves the quote body's coin, chain and fiat the documented way: codes take precedence over ids. */
  private quotes(req: Request, res: Response): void {
    const body = req.body as Record<string, unknown>;
    if (body.type !== 1) return apiError(res, 409, 'parameter type not correct');
    const coinCode = typeof body.coinCode === 'string' ? body.coinCode : Object.keys(COIN_IDS).find((c) => COIN_IDS[c] === body.coinId);
    const chain = typeof body.network === 'string' ? body.network : Object.keys(CHAIN_IDS).find((c) => CHAIN_IDS[c] === body.chainId);
    const fiat = Object.keys(FIAT_TYPES).find((f) => FIAT_TYPES[f] === body.fiatType);
    if (typeof body.fiatAmount !== 'number' || !(body.fiatAmount > 0)) return apiError(res, 409, 'parameter type not correct');
    if (!coinCode || !chain) return apiError(res, 406, 'Coin name not supplied or not yet supported');
    if (!fiat) return apiError(res, 400, 'Invalid Request');
    const paymentMethod = this.profile.paymentMethods.find((m) => m.fiat?.includes(fiat))?.code ?? '';
    const priced = quote(this.profile, {
      fiat,
      crypto: coinCode.toUpperCase(),
      network: chain,
      fiatAmount: new BigNumber(body.fiatAmount).toFixed(),
      paymentMethod,
    });
    if (!priced.ok) {
      if (priced.code === 'amount_out_of_range') return apiError(res, 413, 'volume asked not acceptable');
      if (priced.code === 'unsupported_asset') return apiError(res, 406, 'Coin name not supplied or not yet supported');
      return apiError(res, 400, priced.message);
    }
    ok(res, {
      rate: Number(priced.price),
      quantity: Number(priced.cryptoAmount),
      onrampFee: Number(priced.processingFee),
      clientFee: 0,
      gatewayFee: 0,
      gasFee: Number(priced.networkFee),
    });
  }

  /**
   * The merchant's onramp transactions (Merchant Transaction History): `page` (from 1), `pageSize`
   * (1-500, default 50), `since` (an ISO 8601 instant: the transactions made at or after it; another
   * value is a 400), `order` (`ASC`, the default, or `DESC`, by orderId) and `type` (1 onramp, the
   * default; 2 offramp, of which there are none here). The books switches apply here, and so to every
   * status lookup, since Onramp.money keeps one record: its status answers are this list.
   */
  private history(req: Request, res: Response): void {
    const body = req.body as { page?: unknown; pageSize?: unknown; since?: unknown; order?: unknown; type?: unknown };
    if (body.type !== undefined && body.type !== 1) return ok(res, []);
    const window = listWindow(body.since, undefined);
    if (!window) return apiError(res, 400, 'Invalid Request');
    const page = Math.max(1, Number(body.page ?? 1) || 1);
    const pageSize = Math.min(500, Math.max(1, Number(body.pageSize ?? 50) || 50));
    const all = [...this.transactions.values()]
      .filter((tx) => window.holds(tx.createdAt.toISOString()) && !this.books.drops(referenceOf(tx)))
      .sort((a, b) => a.orderId - b.orderId);
    if (body.order === 'DESC') all.reverse();
    const shown = all.slice((page - 1) * pageSize, page * pageSize);
    ok(
      res,
      shown.map((tx) => this.booked(tx)),
    );
  }

  /**
   * The transaction as Onramp.money's books hold it: its record, with the books switches of its
   * merchantRecognitionId applied (`status` an onramp status code, `fiatAmount` the fiat received,
   * fees included).
   */
  private booked(tx: SimTransaction): Record<string, unknown> {
    const fiatAmount = this.books.of(referenceOf(tx))?.fiatAmount;
    return { ...transactionRecord(tx), status: this.bookedStatus(tx), ...(fiatAmount ? { fiatAmount: Number(fiatAmount) } : {}) };
  }

  /** The transaction's status in the books: its own, unless switched to another status code (a switch in words is ignored). */
  private bookedStatus(tx: SimTransaction): number {
    const switched = this.books.of(referenceOf(tx))?.status;
    return switched !== undefined && STATUS_CODE.test(switched) ? Number(switched) : tx.status;
  }

  private orderStatus(req: Request, res: Response): void {
    const body = req.body as { orderId?: unknown };
    const tx = this.transactions.get(String(body.orderId));
    if (!tx || this.books.drops(referenceOf(tx))) return apiError(res, 417, "Oops ! Order doesn't exist any more");
    ok(res, { orderStatus: this.bookedStatus(tx) });
  }
}

const STATUS_CODE = /^-?\d{1,9}$/;

/** The broker order id a transaction was made for (its books switches' key); null for a purchase made without one. */
const referenceOf = (tx: SimTransaction): string | null => tx.merchantRecognitionId || null;
