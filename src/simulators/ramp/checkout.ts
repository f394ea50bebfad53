import { randomBytes, randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type Request, type Response } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import { providerOrderMadeAt, type CheckoutActionDraw, type SimulatorFaults } from '../kit/faults';
import { baseUnits, findAsset, num, price } from './api';
import type { RampLifecycle } from './lifecycle';
import type { RampSimulatorOptions } from './options';
import { RAMP_PROFILE } from './profile';
import { allowedActions, planFor, type PurchaseRecord, type SimPurchase } from './purchase';

/** The widget's paymentMethodType onto Ramp's PaymentMethodName. */
const WIDGET_METHODS: Readonly<Record<string, string>> = {
  CARD: 'CARD_PAYMENT',
  APPLEPAY: 'APPLE_PAY',
  GOOGLEPAY: 'GOOGLE_PAY',
  SEPA: 'MANUAL_BANK_TRANSFER',
  PIX: 'PIX',
};

/** The widget under /app: opening a widget URL creates the purchase, and the page's buttons drive it. */
export class RampCheckout {
  readonly router = express.Router();
  /** Widget sessions: the same widget URL shows the same purchase. */
  private readonly bySession = new Map<string, string>();

  constructor(
    private readonly purchases: Map<string, PurchaseRecord>,
    private readonly lifecycle: RampLifecycle,
    private readonly options: Pick<RampSimulatorOptions, 'publicUrl' | 'credentials' | 'log'>,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly playedAction: CheckoutActionDraw,
  ) {
    this.router.get('/app', (req, res) => this.widget(req, res));
    this.router.post('/app', express.json({ limit: '16kb' }), (req, res) => this.widgetAction(req, res));
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

    const asset = findAsset(query.get('swapAsset') ?? '');
    const fiat = query.get('fiatCurrency') ?? '';
    const fiatValue = query.get('fiatValue') ?? '';
    const receiverAddress = query.get('userAddress') ?? '';
    if (!asset || !RAMP_PROFILE.fiat.includes(fiat) || !/^\d+(\.\d+)?$/.test(fiatValue) || receiverAddress === '') {
      return { status: 400, message: 'The widget needs swapAsset, fiatCurrency, fiatValue and userAddress it can sell' };
    }
    const wanted = WIDGET_METHODS[query.get('paymentMethodType') ?? 'CARD'] ?? 'CARD_PAYMENT';
    const method =
      RAMP_PROFILE.paymentMethods.find((m) => m.code === wanted && (!m.fiat || m.fiat.includes(fiat))) ?? RAMP_PROFILE.paymentMethods[0]!;
    const priced = price(asset, fiat, fiatValue, method.code);
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
      cryptoAmount: baseUnits(priced.cryptoAmount, asset),
      fiatCurrency: fiat,
      fiatValue: num(fiatValue),
      assetExchangeRate: num(priced.price),
      baseRampFee: num(priced.processingFee),
      networkFee: num(priced.networkFee),
      appliedFee: num(new BigNumber(priced.processingFee).plus(priced.networkFee)),
      hostFeeCut: 0,
      paymentMethodType: method.code,
      finalTxHash: null,
      createdAt: providerOrderMadeAt(this.faults).toISOString(),
      updatedAt: now,
      endTime: null,
    };
    const webhookStatusUrl = query.get('webhookStatusUrl') ?? undefined;
    const record: PurchaseRecord = {
      purchase,
      ...(webhookStatusUrl && URL.canParse(webhookStatusUrl) ? { webhookStatusUrl } : {}),
    };
    this.purchases.set(purchase.id, record);
    this.bySession.set(key, purchase.id);
    this.options.log?.(`ramp purchase ${purchase.id} created in the widget at ${this.options.publicUrl}/app`);
    this.lifecycle.created(record);
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
    const asked = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = allowedActions(record.purchase.status);
    if (typeof asked !== 'string' || !allowed.includes(asked)) {
      res.status(409).json({
        error: {
          code: 'invalid_action',
          message: `action ${String(asked)} is not possible while the purchase is ${record.purchase.status}`,
          allowed,
        },
      });
      return;
    }
    const action = this.playedAction(asked, allowed);
    if (action) this.lifecycle.act(record, action, planFor(action, record.purchase.status)!);
    res.json({ status: record.purchase.status, purchase: record.purchase });
  }
}
