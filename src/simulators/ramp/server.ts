/**
 * A local simulator of Ramp Network: the host API (assets, currencies, payment methods, countries,
 * quotes, purchase status) under /api, and the widget under /app, where opening the URL creates the
 * purchase and the checkout buttons drive it. Each status change is posted, signed as Ramp signs,
 * to the webhookStatusUrl given in that widget URL.
 */
import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { RampSimulatorCredentials } from '../../providers/ramp/config';
import { RampQuoteRequestSchema } from '../../providers/ramp/schemas';
import { renderCheckoutPage } from '../kit/checkout-page';
import { SimulatorBase } from '../kit/base';
import type { SimulatorFaults } from '../kit/faults';
import { FIAT_PER_USD, USD_PRICE } from '../kit/market';
import { quote } from '../kit/pricing';
import { allowedActions, isFinal, planFor, webhookType, type SimRampStatus } from './lifecycle';
import { assetMinimum, globalLimits, MAIN_CURRENCY, RAMP_FEE_PERCENT, RAMP_PROFILE, RAMP_SIM_ASSETS, type RampSimAsset } from './profile';
import { isPublicHalf, rampSimulatorSigningKey, signRampBody } from './signing';

export interface RampSimulatorOptions {
  /** The simulator's own base, e.g. http://127.0.0.1:4010/ramp. */
  publicUrl: string;
  /** The broker's Ramp webhook endpoint; each purchase posts to the webhookStatusUrl of its widget URL. */
  brokerWebhookUrl: string;
  credentials: RampSimulatorCredentials;
  /** The private half of credentials.webhookPublicKey; the development key when absent. */
  signingKey?: KeyObject;
  faults?: Partial<SimulatorFaults>;
  /** Between automatic status steps; default 300 ms. */
  stepDelayMs?: number;
  log?: (message: string) => void;
}

/** RampPurchase as the simulator keeps and sends it. */
export interface SimPurchase {
  id: string;
  purchaseViewToken: string;
  status: SimRampStatus;
  asset: { address: string | null; symbol: string; chain: string; type: string; name: string; decimals: number };
  receiverAddress: string;
  cryptoAmount: string;
  fiatCurrency: string;
  fiatValue: number;
  assetExchangeRate: number;
  baseRampFee: number;
  networkFee: number;
  appliedFee: number;
  hostFeeCut: number;
  paymentMethodType: string;
  finalTxHash: string | null;
  createdAt: string;
  updatedAt: string;
  endTime: string | null;
}

interface PurchaseRecord {
  purchase: SimPurchase;
  webhookStatusUrl?: string;
  /** Bumped by every action, so a superseded automatic walk stops. */
  walk: number;
}

/** The widget's paymentMethodType onto Ramp's PaymentMethodName. */
const WIDGET_METHODS: Readonly<Record<string, string>> = {
  CARD: 'CARD_PAYMENT',
  APPLEPAY: 'APPLE_PAY',
  GOOGLEPAY: 'GOOGLE_PAY',
  SEPA: 'MANUAL_BANK_TRANSFER',
  PIX: 'PIX',
};

const rampError = (code: string, statusCode: number, message: string, extra: Record<string, unknown> = {}) => ({
  code,
  statusCode,
  message,
  ...extra,
});
const num = (value: BigNumber.Value) => new BigNumber(value).toNumber();
const assetKey = (a: { chain: string; symbol: string }) => `${a.chain}_${a.symbol}`;

export class RampSimulator extends SimulatorBase {
  readonly code = 'ramp';
  private readonly purchases = new Map<string, PurchaseRecord>();
  /** Widget sessions: the same widget URL shows the same purchase. */
  private readonly bySession = new Map<string, string>();
  private readonly assets = new Map(RAMP_SIM_ASSETS.map((a) => [assetKey(a), a]));
  private readonly signingKey: KeyObject;

  constructor(private readonly options: RampSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    this.signingKey = options.signingKey ?? rampSimulatorSigningKey(undefined);
    if (!isPublicHalf(options.credentials.webhookPublicKey, this.signingKey)) {
      throw new Error("credentials.webhookPublicKey must be the public half of the Ramp simulator's signing key");
    }
    this.routes();
  }

  /** Every purchase, for tests. */
  purchaseList(): SimPurchase[] {
    return [...this.purchases.values()].map((r) => r.purchase);
  }

  private get stepDelayMs(): number {
    return this.options.stepDelayMs ?? 300;
  }

  private routes(): void {
    const app = this.app;
    const json = express.json({ limit: '16kb' });

    // The widget is the customer's page: no fault injection there.
    app.get('/app', (req, res) => this.widget(req, res));
    app.post('/app', json, (req, res) => this.widgetAction(req, res));

    this.injectFaultsUnder('/api', (res) => void res.status(503).json(rampError('SERVICES.UNAVAILABLE', 503, 'simulated outage')));
    const hostApi = express.Router();
    hostApi.use((req, res, next) => this.checkHostKey(req, res, next));
    hostApi.get('/v3/assets', (req, res) => this.getAssets(req, res));
    hostApi.get('/v3/currencies', (_req, res) => this.getCurrencies(res));
    hostApi.get('/v3/payment-methods', (_req, res) => this.getPaymentMethods(res));
    hostApi.get('/countries', (_req, res) => this.getCountries(res));
    hostApi.post('/v3/onramp/quote/all', json, (req, res) => this.getQuote(req, res));
    app.get('/api/host-api/purchase/:id', (req, res) => this.getPurchase(req, res));
    app.use('/api/host-api', hostApi);
    // Ramp's framework answers unknown paths in its own shape.
    app.use(
      (req: Request, res: Response) =>
        void res.status(404).json({ message: `Cannot ${req.method} ${req.path}`, error: 'Not Found', statusCode: 404 }),
    );
  }

  /** The catalogue is public; a host key that is given must be right, and quotes need one. */
  private checkHostKey(req: Request, res: Response, next: NextFunction): void {
    const key = req.query.hostApiKey;
    const required = req.method === 'POST';
    if ((key === undefined && !required) || key === this.options.credentials.hostApiKey) {
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
      RAMP_PROFILE.fiat.map((fiatCurrency) => ({ fiatCurrency, name: fiatCurrency, onrampAvailable: true, offrampAvailable: false })),
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

  /** Prices one payment method; the asset's own minimum applies before the kit's method limits. */
  private price(asset: RampSimAsset, fiat: string, fiatValue: string, method: string) {
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

  private getQuote(req: Request, res: Response): void {
    const body = RampQuoteRequestSchema.safeParse(req.body);
    if (!body.success) {
      res
        .status(400)
        .json(rampError('SERVICES.HOST_API.INVALID_REQUEST', 400, 'cryptoAssetSymbol, fiatCurrency and fiatValue are required'));
      return;
    }
    const { cryptoAssetSymbol, fiatCurrency, fiatValue } = body.data;
    const asset = this.assets.get(cryptoAssetSymbol);
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
      const priced = this.price(asset, fiatCurrency, amount, method.code);
      if (!priced.ok) {
        refusal = priced;
        continue;
      }
      entries[method.code] = {
        fiatCurrency,
        cryptoAmount: this.baseUnits(priced.cryptoAmount, asset),
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

  private baseUnits(amount: string, asset: RampSimAsset): string {
    return new BigNumber(amount).shiftedBy(asset.decimals).integerValue(BigNumber.ROUND_DOWN).toFixed();
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

  /** The purchase of this widget URL, created on first use, or why the URL cannot start one. */
  private session(req: Request): PurchaseRecord | { status: number; message: string } {
    const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    if (query.get('hostApiKey') !== this.options.credentials.hostApiKey) return { status: 401, message: 'Unknown hostApiKey' };
    const key = [...query]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const existing = this.purchases.get(this.bySession.get(key) ?? '');
    if (existing) return existing;

    const asset = this.assets.get(query.get('swapAsset') ?? '');
    const fiat = query.get('fiatCurrency') ?? '';
    const fiatValue = query.get('fiatValue') ?? '';
    const receiverAddress = query.get('userAddress') ?? '';
    if (!asset || !RAMP_PROFILE.fiat.includes(fiat) || !/^\d+(\.\d+)?$/.test(fiatValue) || receiverAddress === '') {
      return { status: 400, message: 'The widget needs swapAsset, fiatCurrency, fiatValue and userAddress it can sell' };
    }
    const wanted = WIDGET_METHODS[query.get('paymentMethodType') ?? 'CARD'] ?? 'CARD_PAYMENT';
    const method =
      RAMP_PROFILE.paymentMethods.find((m) => m.code === wanted && (!m.fiat || m.fiat.includes(fiat))) ?? RAMP_PROFILE.paymentMethods[0]!;
    const priced = this.price(asset, fiat, fiatValue, method.code);
    if (!priced.ok) return { status: 400, message: priced.message };

    const now = new Date().toISOString();
    const purchase: SimPurchase = {
      id: randomUUID(),
      purchaseViewToken: randomBytes(16).toString('hex'),
      status: 'INITIALIZED',
      asset: {
        address: asset.address,
        symbol: asset.symbol,
        chain: asset.chain,
        type: asset.address ? 'TOKEN' : 'NATIVE',
        name: asset.name,
        decimals: asset.decimals,
      },
      receiverAddress,
      cryptoAmount: this.baseUnits(priced.cryptoAmount, asset),
      fiatCurrency: fiat,
      fiatValue: num(fiatValue),
      assetExchangeRate: num(priced.price),
      baseRampFee: num(priced.processingFee),
      networkFee: num(priced.networkFee),
      appliedFee: num(new BigNumber(priced.processingFee).plus(priced.networkFee)),
      hostFeeCut: 0,
      paymentMethodType: method.code,
      finalTxHash: null,
      createdAt: now,
      updatedAt: now,
      endTime: null,
    };
    const webhookStatusUrl = query.get('webhookStatusUrl') ?? undefined;
    const record: PurchaseRecord = {
      purchase,
      walk: 0,
      ...(webhookStatusUrl && URL.canParse(webhookStatusUrl) ? { webhookStatusUrl } : {}),
    };
    this.purchases.set(purchase.id, record);
    this.bySession.set(key, purchase.id);
    this.options.log?.(`ramp purchase ${purchase.id} created in the widget at ${this.options.publicUrl}/app`);
    this.emit(record);
    return record;
  }

  private widget(req: Request, res: Response): void {
    const record = this.session(req);
    if (!('purchase' in record)) {
      res.status(record.status).type('text/plain').send(record.message);
      return;
    }
    const { purchase } = record;
    res.type('html').send(
      renderCheckoutPage({
        reference: purchase.id,
        providerName: RAMP_PROFILE.name,
        status: purchase.status,
        fiatAmount: String(purchase.fiatValue),
        fiatCurrency: purchase.fiatCurrency,
        cryptoAmount: new BigNumber(purchase.cryptoAmount).shiftedBy(-purchase.asset.decimals).toFixed(),
        cryptoCurrency: purchase.asset.symbol,
        network: purchase.asset.chain,
        walletAddress: purchase.receiverAddress,
        paymentMethod: purchase.paymentMethodType,
        actions: allowedActions(purchase.status),
      }),
    );
  }

  private widgetAction(req: Request, res: Response): void {
    const record = this.session(req);
    if (!('purchase' in record)) {
      res.status(record.status).json({ error: { code: 'invalid_widget_url', message: record.message } });
      return;
    }
    const action = (req.body as { action?: unknown } | undefined)?.action;
    const steps = typeof action === 'string' ? planFor(action, record.purchase.status) : undefined;
    if (!steps) {
      res.status(409).json({
        error: {
          code: 'invalid_action',
          message: `action ${String(action)} is not possible while the purchase is ${record.purchase.status}`,
          allowed: allowedActions(record.purchase.status),
        },
      });
      return;
    }
    if (action === 'pay') this.payAsSwitched(record.purchase);
    record.walk += 1;
    this.play(record, record.walk, steps);
    res.json({ status: record.purchase.status, purchase: record.purchase });
  }

  /** The fault switches' paid amount, fiat currency and wallet replace the purchase's. */
  private payAsSwitched(purchase: SimPurchase): void {
    const { paidFiatAmount, paidFiatCurrency, paidWalletAddress } = this.faults;
    if (paidFiatAmount) purchase.fiatValue = num(paidFiatAmount);
    if (paidFiatCurrency) purchase.fiatCurrency = paidFiatCurrency;
    if (paidWalletAddress) purchase.receiverAddress = paidWalletAddress;
  }

  /** Takes the first step now and the rest `stepDelayMs` apart, unless another action comes first. */
  private play(record: PurchaseRecord, walk: number, [next, ...rest]: SimRampStatus[]): void {
    if (next === undefined || walk !== record.walk) return;
    this.transition(record, next);
    if (rest.length > 0) this.timers.later(() => this.play(record, walk, rest), this.stepDelayMs);
  }

  private transition(record: PurchaseRecord, status: SimRampStatus): void {
    const { purchase } = record;
    const now = new Date().toISOString();
    purchase.status = status;
    purchase.updatedAt = now;
    if (status === 'RELEASED') purchase.finalTxHash = `0x${randomBytes(32).toString('hex')}`;
    if (isFinal(status)) purchase.endTime = now;
    this.options.log?.(`ramp purchase ${purchase.id} -> ${status}`);
    this.emit(record);
  }

  /** One signed webhook per status change, to the purchase's own webhookStatusUrl (none without one, as at Ramp). */
  private emit(record: PurchaseRecord): void {
    if (!record.webhookStatusUrl) return;
    const body = { type: webhookType(record.purchase.status), purchase: record.purchase };
    this.webhooks.send({
      orderKey: record.purchase.id,
      status: record.purchase.status,
      eventId: randomUUID(),
      body: JSON.stringify(body),
      headers: { 'x-body-signature': signRampBody(body, this.signingKey) },
      url: record.webhookStatusUrl,
    });
  }
}

export function createRampSimulator(options: RampSimulatorOptions): RampSimulator {
  return new RampSimulator(options);
}
