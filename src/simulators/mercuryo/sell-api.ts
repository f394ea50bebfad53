/**
 * The simulated Mercuryo's sell endpoints (docs/providers/mercuryo.md, "Sell (off-ramp)"): the sell
 * quote `GET /v1.6/public/convert?type=sell` (crypto `from`, fiat `to`, crypto `amount`), the sell
 * pair's limits `GET /v1.6/public/currency-limits?type=sell`, and every enabled pair's
 * `GET /v1.6/lib/limits/sell`. Calls name the partner's widget (`widget_id`).
 */
import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import { cryptoLimits, payoutLimits, sellQuote } from '../kit/sell-pricing';
import { apiError } from './api';
import { MERCURYO_SELL_PROFILE } from './sell-terms';

const DECIMAL = /^\d{1,12}(\.\d{1,18})?$/;

/** The simulator's own numbering of its sell refusals, Mercuryo-style. */
const REFUSAL_CODES: Readonly<Record<string, number>> = {
  unsupported_fiat: 40010,
  unsupported_asset: 40011,
  unsupported_payout_method: 40012,
  amount_out_of_range: 40020,
  payout_out_of_range: 40021,
};

/** The network Mercuryo sells a ticker on when the call names none: its first listed. */
export const sellNetworkOf = (ticker: string, network?: string) =>
  network ?? MERCURYO_SELL_PROFILE.assets.find((a) => a.startsWith(`${ticker}/`))?.split('/')[1] ?? '';

export class MercuryoSellApi {
  readonly router = express.Router();

  constructor(private readonly widgetId: string) {
    const r = this.router;
    r.get('/v1.6/public/convert', this.widget(), (req, res, next) => (req.query.type === 'sell' ? this.convert(req, res) : next()));
    r.get('/v1.6/public/currency-limits', this.widget(), (req, res, next) => (req.query.type === 'sell' ? this.limits(req, res) : next()));
    r.get('/v1.6/lib/limits/sell', (_req, res) => this.pairs(res));
  }

  private widget() {
    return (req: Request, res: Response, next: NextFunction) => {
      if (req.query.type === 'sell' && req.query.widget_id !== this.widgetId) return apiError(res, 403, 'Widget not found');
      next();
    };
  }

  private convert(req: Request, res: Response): void {
    const { from = '', to = '', amount = '', network } = req.query as Record<string, string | undefined>;
    if (!DECIMAL.test(amount)) return apiError(res, 400, 'amount must be a number');
    const priced = sellQuote(MERCURYO_SELL_PROFILE, {
      crypto: from,
      network: sellNetworkOf(from, network),
      cryptoAmount: amount,
      fiat: to,
      payoutMethod: 'card',
    });
    if (!priced.ok) return apiError(res, 400, priced.message, REFUSAL_CODES[priced.code]);
    res.json({
      status: 200,
      data: {
        type: 'sell',
        currency: from,
        amount: new BigNumber(amount).toFixed(8),
        fiat_currency: to,
        fiat_amount: priced.fiatAmount,
        rate: priced.price,
        fee: new BigNumber(priced.processingFee).plus(priced.networkFee).toFixed(2),
        fee_currency: to,
      },
    });
  }

  /** The documented request names the fiat `from` and the crypto `to`; the answer is keyed by code, so either order is read. */
  private limits(req: Request, res: Response): void {
    const { from = '', to = '' } = req.query as Record<string, string | undefined>;
    const [fiat, crypto] = MERCURYO_SELL_PROFILE.fiat.includes(from) ? [from, to] : [to, from];
    if (!MERCURYO_SELL_PROFILE.fiat.includes(fiat) || !MERCURYO_SELL_PROFILE.assets.some((a) => a.startsWith(`${crypto}/`))) {
      return apiError(res, 400, `Currency pair ${from}/${to} is not supported`, REFUSAL_CODES.unsupported_asset);
    }
    res.json({ status: 200, code: 0, message: '', data: { [crypto]: this.cryptoRange(crypto), [fiat]: this.fiatRange(fiat) } });
  }

  private pairs(res: Response): void {
    const data = MERCURYO_SELL_PROFILE.assets.flatMap((asset) => {
      const [crypto = '', network = ''] = asset.split('/');
      return MERCURYO_SELL_PROFILE.fiat.map((fiat) => ({
        crypto,
        network,
        fiat,
        fiat_limits: this.fiatRange(fiat),
        crypto_limits: this.cryptoRange(crypto),
      }));
    });
    res.json({ status: 200, data });
  }

  private cryptoRange(crypto: string) {
    const { min, max } = cryptoLimits(MERCURYO_SELL_PROFILE, crypto);
    return { min: min.toFixed(), max: max.toFixed() };
  }

  private fiatRange(fiat: string) {
    const { min, max } = payoutLimits(MERCURYO_SELL_PROFILE.payoutMethods[0]!, fiat);
    return { min: min.toFixed(2), max: max.toFixed(2) };
  }
}
