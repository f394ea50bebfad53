import express, { type NextFunction, type Request, type Response } from 'express';
import { methodLimits, quote } from '../kit/pricing';
import type { AlchemypaySimulatorCredentials } from './options';
import { ALCHEMYPAY_PROFILE, FIAT_COUNTRIES, NETWORK_CODES, assetOf, fiatCountry } from './profile';
import { orderJson, type SimOrder } from './orders';
import { hmacBase64, sameSignature, sortedJson, sortedPairs } from './signing';

/** Alchemy Pay's answer envelope; errors come with HTTP 200 and `success: false`. */
export function achAnswer(res: Response, data: unknown): void {
  res.json({ success: true, returnCode: '0000', returnMsg: 'SUCCESS', extend: '', data });
}

export function achError(res: Response, returnCode: string, returnMsg: string, status = 200): void {
  res.status(status).json({ success: false, returnCode, returnMsg, extend: '', data: null, traceId: 'simulated' });
}

/** Requests older or newer than this are refused ("the expiration period is 5 minutes"). */
const TIMESTAMP_WINDOW_MS = 300_000;

/** Alchemy Pay's Open API v4: crypto list, fiat and method queries, quotes and the order query. */
export class AlchemypayApi {
  readonly router = express.Router();

  constructor(
    private readonly orders: ReadonlyMap<string, SimOrder>,
    private readonly credentials: AlchemypaySimulatorCredentials,
  ) {
    const r = this.router;
    const v4 = '/open/api/v4/merchant';
    r.use(v4, express.json({ limit: '16kb' }), (req, res, next) => this.authenticate(req, res, next));
    r.get(`${v4}/crypto/list`, (_req, res) => this.cryptoList(res));
    r.post(`${v4}/fiat/info`, (req, res) => this.fiatInfo(req, res));
    r.post(`${v4}/query/cryptoFiatMethod`, (req, res) => this.methods(req, res));
    r.post(`${v4}/order/quote`, (req, res) => this.quote(req, res));
    r.get(`${v4}/query/trade`, (req, res) => this.queryTrade(req, res));
  }

  /** `appid`, `timestamp` (within 5 minutes) and `sign` over `timestamp + METHOD + path[?sorted query] + sorted body`. */
  private authenticate(req: Request, res: Response, next: NextFunction): void {
    const appid = req.header('appid');
    const timestamp = req.header('timestamp') ?? '';
    const sign = req.header('sign') ?? '';
    if (appid !== this.credentials.appId) return achError(res, '10001', 'Invalid appid');
    if (!/^\d{13}$/.test(timestamp) || Math.abs(Date.now() - Number(timestamp)) > TIMESTAMP_WINDOW_MS) {
      return achError(res, '10002', 'Invalid timestamp');
    }
    const query = sortedPairs(req.query);
    const body = req.method === 'POST' ? sortedJson((req.body ?? {}) as Record<string, unknown>) : '';
    // The signed path is the Open API's own, whatever prefix the simulator host mounts it under.
    const full = `${req.baseUrl}${req.path}`;
    const path = full.slice(full.indexOf('/open/api/'));
    const content = `${timestamp}${req.method}${path}${query === '' ? '' : `?${query}`}${body}`;
    if (!sameSignature(sign, hmacBase64(this.credentials.appSecret, content))) return achError(res, '10003', 'Sign verification failed');
    next();
  }

  private cryptoList(res: Response): void {
    achAnswer(
      res,
      ALCHEMYPAY_PROFILE.assets.map((asset) => {
        const [crypto = '', network = ''] = asset.split('/');
        return {
          crypto,
          network: NETWORK_CODES[network] ?? network,
          buyEnable: 1,
          sellEnable: 0,
          minPurchaseAmount: '15',
          maxPurchaseAmount: '3000',
        };
      }),
    );
  }

  private fiatInfo(req: Request, res: Response): void {
    const { crypto, network } = req.body as { crypto?: string; network?: string };
    if (!assetOf(String(crypto), String(network))) return achError(res, '10005', 'Invalid Request Parameters.');
    const [method] = ALCHEMYPAY_PROFILE.paymentMethods;
    achAnswer(
      res,
      ALCHEMYPAY_PROFILE.fiat.flatMap((currency) => {
        const limits = methodLimits(method!, currency);
        return (FIAT_COUNTRIES[currency] ?? ['US']).map((country) => ({
          currency,
          country,
          countryName: country,
          buyEnable: 1,
          sellEnable: 0,
          minBuyFiatAmount: Number(limits.min.toFixed()),
          maxBuyFiatAmount: Number(limits.max.toFixed()),
        }));
      }),
    );
  }

  private methods(req: Request, res: Response): void {
    const { fiat, crypto, network, side } = req.body as Record<string, string | undefined>;
    if (side !== 'BUY' || !assetOf(String(crypto), String(network)) || !ALCHEMYPAY_PROFILE.fiat.includes(String(fiat))) {
      return achError(res, '10005', 'Invalid Request Parameters.');
    }
    achAnswer(
      res,
      ALCHEMYPAY_PROFILE.paymentMethods.map((m) => {
        const limits = methodLimits(m, String(fiat));
        return {
          country: fiatCountry(String(fiat)),
          payWayCode: m.code,
          minPurchaseAmount: limits.min.toFixed(2),
          maxPurchaseAmount: limits.max.toFixed(2),
        };
      }),
    );
  }

  private quote(req: Request, res: Response): void {
    const { crypto, network, fiat, amount, payWayCode, side } = req.body as Record<string, string | undefined>;
    const asset = assetOf(String(crypto), String(network));
    if (side !== 'BUY' || !asset || !fiat || !amount || !/^\d+(\.\d+)?$/.test(amount)) {
      return achError(res, '10005', 'Invalid Request Parameters.');
    }
    const priced = quote(ALCHEMYPAY_PROFILE, {
      fiat,
      crypto: asset.ticker,
      network: asset.network,
      fiatAmount: amount,
      paymentMethod: payWayCode ?? '10001',
    });
    if (!priced.ok) {
      if (priced.code === 'amount_out_of_range' && priced.min && priced.max) {
        return achError(
          res,
          '3102',
          `Quote amount is out of the range, The Min purchase amount is ${priced.min}, The max purchase amount is ${priced.max}`,
        );
      }
      return achError(res, '10005', priced.message);
    }
    achAnswer(res, {
      crypto,
      cryptoPrice: priced.price,
      cryptoQuantity: priced.cryptoAmount,
      fiat,
      rampFee: priced.processingFee,
      networkFee: priced.networkFee,
      payWayCode: priced.method.code,
    });
  }

  private queryTrade(req: Request, res: Response): void {
    const { orderNo, merchantOrderNo, side } = req.query as Record<string, string | undefined>;
    if (side !== 'BUY' || (!orderNo && !merchantOrderNo)) return achError(res, '10005', 'Invalid Request Parameters.');
    const order = [...this.orders.values()]
      .filter((o) => (orderNo ? o.orderNo === orderNo : o.merchantOrderNo === merchantOrderNo))
      .sort((a, b) => b.createTime.localeCompare(a.createTime))[0];
    if (!order) return achError(res, '10021', 'Order does not exist');
    achAnswer(res, orderJson(order, this.credentials.appId));
  }
}
