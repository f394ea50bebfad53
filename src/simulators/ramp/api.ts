import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { FIAT_PER_USD, USD_PRICE } from '../kit/market';
import { quote } from '../kit/pricing';
import type { RampSimulatorCredentials } from './options';
import { assetMinimum, globalLimits, MAIN_CURRENCY, RAMP_FEE_PERCENT, RAMP_PROFILE, RAMP_SIM_ASSETS, type RampSimAsset } from './profile';
import type { PurchaseRecord } from './purchase';
import { RAMP_SELL_PROFILE } from './sell-sale';

/** The body of `POST /host-api/v3/onramp/quote/all`, as Ramp documents it: the asset as `CHAIN_SYMBOL`, a fiat currency and amount. */
const QuoteRequestSchema = z.object({
  cryptoAssetSymbol: z.string().regex(/^[A-Z0-9]+_[A-Za-z0-9.]+$/),
  fiatCurrency: z.string().length(3),
  fiatValue: z.number().positive(),
});

/** Ramp's error body. */
export const rampError = (code: string, statusCode: number, message: string, extra: Record<string, unknown> = {}) => ({
  code,
  statusCode,
  message,
  ...extra,
});
export const num = (value: BigNumber.Value) => new BigNumber(value).toNumber();
const assetKey = (a: { chain: string; symbol: string }) => `${a.chain}_${a.symbol}`;
const ASSETS = new Map(RAMP_SIM_ASSETS.map((a) => [assetKey(a), a]));

/** An asset by Ramp's `CHAIN_SYMBOL`. */
export const findAsset = (key: string): RampSimAsset | undefined => ASSETS.get(key);

/** Prices one payment method; the asset's own minimum applies before the kit's method limits. */
export function price(asset: RampSimAsset, fiat: string, fiatValue: string, method: string) {
  const minimum = assetMinimum(asset, fiat);
  if (minimum && new BigNumber(fiatValue).lt(minimum)) {
    return {
      ok: false as const,
      status: 400,
      code: 'amount_out_of_range',
      message: `minimum for ${assetKey(asset)} is ${minimum.toFixed()} ${fiat}`,
    };
  }
  return quote(RAMP_PROFILE, { fiat, crypto: asset.symbol, network: asset.chain, fiatAmount: fiatValue, paymentMethod: method });
}

/** A decimal amount of the asset in its base units, as Ramp writes crypto amounts. */
export function baseUnits(amount: string, asset: RampSimAsset): string {
  return new BigNumber(amount).shiftedBy(asset.decimals).integerValue(BigNumber.ROUND_DOWN).toFixed();
}

/** Ramp's host API under /api: assets, currencies, payment methods, countries, quotes and the purchase status. */
export class RampApi {
  readonly router = express.Router();

  constructor(
    private readonly purchases: ReadonlyMap<string, PurchaseRecord>,
    private readonly credentials: RampSimulatorCredentials,
  ) {
    const hostApi = express.Router();
    hostApi.use((req, res, next) => this.checkHostKey(req, res, next));
    hostApi.get('/v3/assets', (req, res) => this.getAssets(req, res));
    hostApi.get('/v3/currencies', (_req, res) => this.getCurrencies(res));
    hostApi.get('/v3/payment-methods', (_req, res) => this.getPaymentMethods(res));
    hostApi.get('/countries', (_req, res) => this.getCountries(res));
    hostApi.post('/v3/onramp/quote/all', express.json({ limit: '16kb' }), (req, res) => this.getQuote(req, res));
    this.router.get('/api/host-api/purchase/:id', (req, res) => this.getPurchase(req, res));
    this.router.use('/api/host-api', hostApi);
  }

  /** The catalogue is public; a host key that is given must be right, and quotes need one. */
  private checkHostKey(req: Request, res: Response, next: NextFunction): void {
    const key = req.query.hostApiKey;
    const required = req.method === 'POST';
    if ((key === undefined && !required) || key === this.credentials.hostApiKey) {
      next();
      return;
    }
    res.status(401).json(rampError('SERVICES.HOST_API.INVALID_HOST_API_KEY', 401, 'missing or unknown hostApiKey'));
  }

  private assetInfo(asset: RampSimAsset, fiat: string) {
    const fx = FIAT_PER_USD[fiat] ?? '1';
    const minimum = assetMinimum(asset, fiat);
    return {
      symbol: asset.symbol,
      chain: asset.chain,
      name: asset.name,
      decimals: asset.decimals,
      type: asset.address ? 'TOKEN' : 'NATIVE',
      address: asset.address,
      logoUrl: `https://assets.ramp.network/crypto-assets/${asset.chain.toLowerCase()}-${asset.symbol.toLowerCase()}.svg`,
      enabled: true,
      hidden: false,
      price: Object.fromEntries(
        RAMP_PROFILE.fiat.map((f) => [f, num(new BigNumber(USD_PRICE[asset.symbol] ?? '0').times(FIAT_PER_USD[f] ?? '1'))]),
      ),
      currencyCode: fiat,
      minPurchaseAmount: minimum ? num(minimum) : -1,
      maxPurchaseAmount: -1,
      networkFee: num(new BigNumber(RAMP_PROFILE.networkFeeUsd).times(fx).decimalPlaces(2, BigNumber.ROUND_UP)),
    };
  }

  private getAssets(req: Request, res: Response): void {
    const fiat = typeof req.query.currencyCode === 'string' ? req.query.currencyCode : 'EUR';
    if (!RAMP_PROFILE.fiat.includes(fiat)) {
      res.status(400).json(rampError('SERVICES.HOST_API.UNSUPPORTED_CURRENCY', 400, `currency ${fiat} is not supported`));
      return;
    }
    const limits = globalLimits(fiat);
    res.json({
      assets: RAMP_SIM_ASSETS.map((a) => this.assetInfo(a, fiat)),
      ...(req.query.hostApiKey ? { enabledFeatures: [] } : {}),
      currencyCode: fiat,
      minPurchaseAmount: num(limits.min),
      maxPurchaseAmount: num(limits.max),
      minFeeAmount: 0,
      minFeePercent: num(RAMP_FEE_PERCENT.min),
      maxFeePercent: num(RAMP_FEE_PERCENT.max),
    });
  }

  private getCurrencies(res: Response): void {
    res.json(
      RAMP_PROFILE.fiat.map((fiatCurrency) => ({
        fiatCurrency,
        name: fiatCurrency,
        onrampAvailable: true,
        offrampAvailable: RAMP_SELL_PROFILE.fiat.includes(fiatCurrency),
      })),
    );
  }

  private getPaymentMethods(res: Response): void {
    res.json(
      RAMP_PROFILE.paymentMethods.map((m) => ({
        name: m.code,
        currencies: m.fiat ?? RAMP_PROFILE.fiat,
        countries: RAMP_PROFILE.countries
          .filter((c) => (m.fiat ?? RAMP_PROFILE.fiat).includes(MAIN_CURRENCY[c] ?? 'EUR'))
          .map((c) => c.toLowerCase()),
      })),
    );
  }

  private getCountries(res: Response): void {
    res.json(
      RAMP_PROFILE.countries.map((code) => ({
        code: code.toLowerCase(),
        cardPaymentsEnabled: true,
        mainCurrencyCode: MAIN_CURRENCY[code] ?? 'EUR',
        ...(RAMP_PROFILE.states?.[code] ? { states: RAMP_PROFILE.states[code] } : {}),
      })),
    );
  }

  private getQuote(req: Request, res: Response): void {
    const body = QuoteRequestSchema.safeParse(req.body);
    if (!body.success) {
      res
        .status(400)
        .json(rampError('SERVICES.HOST_API.INVALID_REQUEST', 400, 'cryptoAssetSymbol, fiatCurrency and fiatValue are required'));
      return;
    }
    const { cryptoAssetSymbol, fiatCurrency, fiatValue } = body.data;
    const asset = findAsset(cryptoAssetSymbol);
    if (!asset || USD_PRICE[asset.symbol] === undefined) {
      res.status(400).json(rampError('SERVICES.HOST_API.UNSUPPORTED_ASSET', 400, `asset ${cryptoAssetSymbol} is not available`));
      return;
    }
    if (!RAMP_PROFILE.fiat.includes(fiatCurrency)) {
      res.status(400).json(rampError('SERVICES.HOST_API.UNSUPPORTED_CURRENCY', 400, `currency ${fiatCurrency} is not supported`));
      return;
    }
    const amount = new BigNumber(fiatValue).toFixed();
    const entries: Record<string, unknown> = {};
    let refusal: { code: string; message: string } | undefined;
    for (const method of RAMP_PROFILE.paymentMethods.filter((m) => !m.fiat || m.fiat.includes(fiatCurrency))) {
      const priced = price(asset, fiatCurrency, amount, method.code);
      if (!priced.ok) {
        refusal = priced;
        continue;
      }
      entries[method.code] = {
        fiatCurrency,
        cryptoAmount: baseUnits(priced.cryptoAmount, asset),
        fiatValue,
        baseRampFee: num(priced.processingFee),
        appliedFee: num(new BigNumber(priced.processingFee).plus(priced.networkFee)),
        hostFeeCut: 0,
      };
    }
    if (Object.keys(entries).length === 0) {
      const limits = globalLimits(fiatCurrency);
      res.status(400).json(
        rampError('SERVICES.HOST_API.AMOUNT_OUT_OF_LIMITS', 400, refusal?.message ?? 'no payment method takes this purchase', {
          minPurchaseAmount: num(limits.min),
          maxPurchaseAmount: num(limits.max),
        }),
      );
      return;
    }
    res.json({ asset: this.assetInfo(asset, fiatCurrency), ...entries });
  }

  private getPurchase(req: Request, res: Response): void {
    const record = this.purchases.get(String(req.params.id));
    if (!record) {
      res.status(404).json(rampError('SERVICES.PURCHASE.NOT_FOUND', 404, 'no such purchase'));
      return;
    }
    if (req.query.secret !== record.purchase.purchaseViewToken) {
      res.status(403).json(rampError('SERVICES.PURCHASE.INVALID_SECRET', 403, 'the secret does not open this purchase'));
      return;
    }
    res.json(record.purchase);
  }
}
