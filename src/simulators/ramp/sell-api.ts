/**
 * The simulated Ramp's off-ramp: the off-ramp asset list, payout methods and sell quote of the host
 * API, the sale lookup with its view token, and the widget in its OFFRAMP flow, where opening the URL
 * plays the customer accepting the sale and the page's buttons (POST `{"action": …}`) play the
 * transfer. Every status change is posted, signed as Ramp signs, as a `SaleStatusWebhookEvent` to
 * the widget URL's offrampWebhookV3Url. As at Ramp, the deposit address is on the widget page only.
 */
import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { SimulatorParts } from '../kit/base';
import { renderSellCheckoutPage } from '../kit/checkout-page';
import { simulatedDepositAddress, simulatedDepositTransaction } from '../kit/deposit-address';
import { providerOrderMadeAt, type SimulatorFaults } from '../kit/faults';
import { FIAT_PER_USD, USD_PRICE } from '../kit/market';
import { payoutLimits, sellQuote } from '../kit/sell-pricing';
import { findAsset, num, rampError } from './api';
import type { RampSimulatorCredentials } from './options';
import type { RampSimAsset } from './profile';
import {
  allowedSaleActions,
  PAYOUT_COUNTRIES,
  RAMP_SELL_PROFILE,
  SALE_ACTIONS,
  SALE_CHAIN_NETWORKS,
  salePlan,
  UNDOCUMENTED_SALE_ACTIONS,
  widgetPayoutMethod,
  type SaleAction,
  type SaleRecord,
  type SaleStep,
  type SimSale,
} from './sell-sale';
import { signRampBody } from './signing';

/** The body of `POST /host-api/v3/offramp/quote/all`: the crypto amount in base units. */
const SellQuoteRequestSchema = z.object({
  cryptoAssetSymbol: z.string().regex(/^[A-Z0-9]+_[A-Za-z0-9.]+$/),
  fiatCurrency: z.string().length(3),
  cryptoAmount: z.string().regex(/^\d{1,60}$/),
});

const sold = (asset: RampSimAsset) => RAMP_SELL_PROFILE.assets.includes(`${asset.symbol}/${asset.chain}`);
const wholeUnits = (baseUnits: string, asset: { decimals: number }) => new BigNumber(baseUnits).shiftedBy(-asset.decimals).toFixed();

/** The global sale range of a fiat currency: what every payout method pays (the profile's methods share it). */
function saleRange(fiat: string) {
  return payoutLimits(RAMP_SELL_PROFILE.payoutMethods[0]!, fiat);
}

export class RampSell {
  /** The host API's off-ramp routes, under /api. */
  readonly api = express.Router();
  /** The widget's OFFRAMP flow at /app: the customer's page, so no fault injection there. */
  readonly widget = express.Router();
  readonly sales = new Map<string, SaleRecord>();

  constructor(
    private readonly parts: SimulatorParts,
    private readonly credentials: RampSimulatorCredentials,
    private readonly signingKey: KeyObject,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
  ) {
    const r = this.api;
    r.get('/api/host-api/v3/offramp/assets', this.hostKey(false), (req, res) => this.assets(req, res));
    r.get('/api/host-api/v3/payout-methods', this.hostKey(false), (_req, res) => this.payoutMethods(res));
    r.post('/api/host-api/v3/offramp/quote/all', this.hostKey(true), express.json({ limit: '16kb' }), (req, res) => this.quote(req, res));
    r.get('/api/host-api/v3/offramp/sale/:id', (req, res) => this.lookup(req, res));
    this.widget.get('/app', this.offramp(), (req, res) => this.page(req, res));
    this.widget.post('/app', this.offramp(), express.json({ limit: '8kb' }), (req, res) => this.act(req, res));
  }

  /** As the buy API: the catalogue is public, a given host key must be right, quotes need one. */
  private hostKey(required: boolean) {
    return (req: Request, res: Response, next: NextFunction) => {
      const key = req.query.hostApiKey;
      if ((key === undefined && !required) || key === this.credentials.hostApiKey) return next();
      res.status(401).json(rampError('SERVICES.HOST_API.INVALID_HOST_API_KEY', 401, 'missing or unknown hostApiKey'));
    };
  }

  /** Widget URLs in the OFFRAMP flow are the sale's; any other goes on to the purchase widget. */
  private offramp() {
    return (req: Request, _res: Response, next: NextFunction) => next(req.query.defaultFlow === 'OFFRAMP' ? undefined : 'route');
  }

  private assets(req: Request, res: Response): void {
    const fiat = typeof req.query.currencyCode === 'string' ? req.query.currencyCode : 'EUR';
    if (!RAMP_SELL_PROFILE.fiat.includes(fiat)) {
      res.status(400).json(rampError('SERVICES.HOST_API.UNSUPPORTED_CURRENCY', 400, `currency ${fiat} is not paid out`));
      return;
    }
    const range = saleRange(fiat);
    const assets = RAMP_SELL_PROFILE.assets.map((key) => findAsset(key.split('/').reverse().join('_'))!);
    res.json({
      assets: assets.map((asset) => ({
        symbol: asset.symbol,
        chain: asset.chain,
        name: asset.name,
        decimals: asset.decimals,
        type: asset.address ? 'TOKEN' : 'NATIVE',
        address: asset.address,
        enabled: true,
        hidden: false,
        price: { [fiat]: num(new BigNumber(USD_PRICE[asset.symbol] ?? '0').times(FIAT_PER_USD[fiat] ?? '1')) },
        currencyCode: fiat,
        minPurchaseAmount: -1,
        maxPurchaseAmount: -1,
      })),
      currencyCode: fiat,
      minPurchaseAmount: num(range.min),
      maxPurchaseAmount: num(range.max),
    });
  }

  private payoutMethods(res: Response): void {
    res.json(
      RAMP_SELL_PROFILE.payoutMethods.map((m) => ({
        name: m.code,
        currencies: m.fiat ?? RAMP_SELL_PROFILE.fiat,
        countries: (PAYOUT_COUNTRIES[m.code] ?? []).map((c) => c.toLowerCase()),
      })),
    );
  }

  /** Every payout method's price of the sale, keyed by method name beside the asset. */
  private quote(req: Request, res: Response): void {
    const body = SellQuoteRequestSchema.safeParse(req.body);
    if (!body.success) {
      res
        .status(400)
        .json(rampError('SERVICES.HOST_API.INVALID_REQUEST', 400, 'cryptoAssetSymbol, fiatCurrency and cryptoAmount are required'));
      return;
    }
    const { cryptoAssetSymbol, fiatCurrency, cryptoAmount } = body.data;
    const asset = findAsset(cryptoAssetSymbol);
    if (!asset || !sold(asset)) {
      res.status(400).json(rampError('SERVICES.HOST_API.UNSUPPORTED_ASSET', 400, `asset ${cryptoAssetSymbol} is not bought`));
      return;
    }
    if (!RAMP_SELL_PROFILE.fiat.includes(fiatCurrency)) {
      res.status(400).json(rampError('SERVICES.HOST_API.UNSUPPORTED_CURRENCY', 400, `currency ${fiatCurrency} is not paid out`));
      return;
    }
    if (new BigNumber(cryptoAmount).isZero()) {
      res.status(400).json(rampError('SWAP.VALIDATION.SWAP_VALUE_IS_ZERO', 400, 'the swap value is zero'));
      return;
    }
    const entries: Record<string, unknown> = {};
    let refusal: string | undefined;
    for (const method of RAMP_SELL_PROFILE.payoutMethods.filter((m) => !m.fiat || m.fiat.includes(fiatCurrency))) {
      const priced = this.price(asset, fiatCurrency, cryptoAmount, method.code);
      if (!priced.ok) {
        refusal = priced.message;
        continue;
      }
      entries[method.code] = {
        fiatCurrency,
        cryptoAmount,
        fiatValue: num(priced.fiatAmount),
        baseRampFee: num(priced.processingFee),
        appliedFee: num(new BigNumber(priced.processingFee).plus(priced.networkFee)),
        hostFeeCut: 0,
      };
    }
    if (Object.keys(entries).length === 0) {
      res.status(400).json(rampError('SERVICES.HOST_API.AMOUNT_OUT_OF_LIMITS', 400, refusal ?? 'no payout method takes this sale'));
      return;
    }
    const price = num(new BigNumber(USD_PRICE[asset.symbol] ?? '0').times(FIAT_PER_USD[fiatCurrency] ?? '1'));
    res.json({
      asset: {
        symbol: asset.symbol,
        chain: asset.chain,
        decimals: asset.decimals,
        address: asset.address,
        price: { [fiatCurrency]: price },
      },
      ...entries,
    });
  }

  private price(asset: RampSimAsset, fiat: string, cryptoBaseUnits: string, method: string) {
    return sellQuote(RAMP_SELL_PROFILE, {
      crypto: asset.symbol,
      network: asset.chain,
      cryptoAmount: wholeUnits(cryptoBaseUnits, asset),
      fiat,
      payoutMethod: method,
    });
  }

  private lookup(req: Request, res: Response): void {
    const record = this.sales.get(String(req.params.id));
    if (!record) {
      res.status(404).json(rampError('SERVICES.SALE.NOT_FOUND', 404, 'no such sale'));
      return;
    }
    if (req.query.secret !== record.sale.saleViewToken) {
      res.status(403).json(rampError('SERVICES.SALE.INVALID_SECRET', 403, 'the secret does not open this sale'));
      return;
    }
    // The lookup's fiat amount is a number (the SDK's and BitPay's types); the webhook's a string.
    res.json({ ...record.sale, fiat: { ...record.sale.fiat, amount: Number(record.sale.fiat.amount) } });
  }

  /** The sale of this widget URL, made on its first visit (the customer accepts the sale), or why the URL makes none. */
  private session(req: Request): SaleRecord | { status: number; message: string } {
    const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    if (query.get('hostApiKey') !== this.credentials.hostApiKey) return { status: 401, message: 'Unknown hostApiKey' };
    const session = [...query]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const existing = [...this.sales.values()].find((r) => r.session === session);
    if (existing) return existing;
    if (!(query.get('enabledFlows') ?? 'OFFRAMP').split(',').includes('OFFRAMP')) {
      return { status: 400, message: 'enabledFlows does not include OFFRAMP' };
    }
    const asset = findAsset(query.get('offrampAsset') ?? query.get('swapAsset') ?? '');
    const fiat = query.get('fiatCurrency') ?? '';
    const amount = query.get('swapAmount') ?? '';
    if (!asset || !sold(asset) || !RAMP_SELL_PROFILE.fiat.includes(fiat) || !/^\d{1,60}$/.test(amount)) {
      return {
        status: 400,
        message: 'The off-ramp widget needs an offrampAsset it buys, a fiatCurrency it pays and swapAmount in base units',
      };
    }
    const method = widgetPayoutMethod(fiat);
    const priced = this.price(asset, fiat, amount, method);
    if (!priced.ok) return { status: 400, message: priced.message };
    const network = SALE_CHAIN_NETWORKS[asset.chain] ?? 'ethereum';
    const deposit = simulatedDepositAddress(network);
    const now = new Date().toISOString();
    const sale: SimSale = {
      id: randomUUID(),
      saleViewToken: randomBytes(16).toString('hex'),
      status: 'CREATED',
      createdAt: providerOrderMadeAt(this.faults).toISOString(),
      updatedAt: now,
      transactionHash: null,
      exchangeRate: priced.price,
      crypto: {
        amount,
        assetInfo: {
          address: asset.address,
          symbol: asset.symbol,
          chain: asset.chain,
          type: asset.address ? 'TOKEN' : 'NATIVE',
          name: asset.name,
          decimals: asset.decimals,
        },
        status: null,
      },
      fiat: { amount: priced.fiatAmount, currencySymbol: fiat, status: 'not-started', payoutMethod: method },
      fees: { amount: new BigNumber(priced.processingFee).plus(priced.networkFee).toFixed(), currencySymbol: fiat },
    };
    const webhookUrl = query.get('offrampWebhookV3Url') ?? undefined;
    const record: SaleRecord = {
      sale,
      session,
      ...(webhookUrl && URL.canParse(webhookUrl) ? { offrampWebhookV3Url: webhookUrl } : {}),
      depositAddress: deposit?.address ?? '',
      ...(deposit?.memo ? { depositMemo: deposit.memo } : {}),
      network,
    };
    this.sales.set(sale.id, record);
    this.parts.log?.(`ramp sale ${sale.id} created in the off-ramp widget`);
    this.emit(record);
    return record;
  }

  private page(req: Request, res: Response): void {
    const record = this.session(req);
    if (!('sale' in record)) {
      res.status(record.status).type('text/plain').send(record.message);
      return;
    }
    const { sale } = record;
    res.type('html').send(
      renderSellCheckoutPage({
        reference: sale.id,
        providerName: 'Ramp Network (simulator)',
        status: sale.status,
        cryptoAmount: wholeUnits(sale.crypto.amount, sale.crypto.assetInfo),
        cryptoCurrency: sale.crypto.assetInfo.symbol,
        network: sale.crypto.assetInfo.chain,
        depositAddress: record.depositAddress,
        ...(record.depositMemo ? { depositMemo: record.depositMemo } : {}),
        depositExpiresAt: 'before the sale expires',
        fiatAmount: sale.fiat.amount,
        fiatCurrency: sale.fiat.currencySymbol,
        payoutMethod: sale.fiat.payoutMethod,
        refundAddress: '(the sending address)',
        actions: allowedSaleActions(sale),
      }),
    );
  }

  private act(req: Request, res: Response): void {
    const record = this.session(req);
    if (!('sale' in record)) {
      res.status(record.status).json({ error: { code: 'invalid_widget_url', message: record.message } });
      return;
    }
    const asked = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = allowedSaleActions(record.sale);
    if ((UNDOCUMENTED_SALE_ACTIONS as readonly unknown[]).includes(asked)) {
      res.status(409).json({
        error: { code: 'action_not_documented', message: `Ramp documents no sale status for ${String(asked)}`, allowed },
      });
      return;
    }
    if (typeof asked !== 'string' || !(allowed as string[]).includes(asked)) {
      res.status(409).json({
        error: {
          code: 'invalid_action',
          message: `action ${String(asked)} is not possible while the sale is ${record.sale.status}`,
          allowed,
        },
      });
      return;
    }
    const action = asked as SaleAction;
    if (action === 'wrong_amount') this.sendLess(record);
    this.parts.walks.start(record, salePlan(action, record.sale), (step) => this.apply(record, step));
    res.json({ status: record.sale.status, sale: record.sale, actions: SALE_ACTIONS });
  }

  /** The customer sends a tenth less: Ramp pays out for what arrived. */
  private sendLess(record: SaleRecord): void {
    const { sale } = record;
    const sent = new BigNumber(sale.crypto.amount).times('0.9').integerValue(BigNumber.ROUND_DOWN).toFixed();
    const repriced = this.price(
      findAsset(`${sale.crypto.assetInfo.chain}_${sale.crypto.assetInfo.symbol}`)!,
      sale.fiat.currencySymbol,
      sent,
      sale.fiat.payoutMethod,
    );
    sale.crypto.amount = sent;
    if (repriced.ok) {
      sale.fiat.amount = repriced.fiatAmount;
      sale.fees.amount = new BigNumber(repriced.processingFee).plus(repriced.networkFee).toFixed();
    }
  }

  private apply(record: SaleRecord, step: SaleStep): void {
    const { sale } = record;
    sale.status = step.status;
    if (step.deposit) sale.transactionHash = simulatedDepositTransaction(record.network);
    sale.updatedAt = new Date().toISOString();
    this.parts.log?.(`ramp sale ${sale.id} -> ${sale.status}${step.deposit ? ' (crypto received)' : ''}`);
    this.emit(record);
  }

  /** One signed `SaleStatusWebhookEvent` per change, to the sale's own offrampWebhookV3Url (none without one, as at Ramp). */
  private emit(record: SaleRecord): void {
    if (!record.offrampWebhookV3Url) return;
    const id = randomUUID();
    const body = { id, type: record.sale.status, mode: 'OFFRAMP', payload: record.sale };
    this.parts.webhooks.send({
      orderKey: record.sale.id,
      status: record.sale.status,
      eventId: id,
      body: JSON.stringify(body),
      headers: { 'x-body-signature': signRampBody(body, this.signingKey) },
      url: record.offrampWebhookV3Url,
    });
  }
}
