/**
 * The simulated MoonPay's off-ramp (docs/providers/moonpay.md, "Sell (off-ramp)"): the public sell
 * quote, the signed sell widget whose page's buttons (POST `{"action": …}`) play the customer, the
 * sell transaction lookups and `sell_transaction_*` webhooks signed like the buy ones. As at MoonPay,
 * the deposit address is shown only on the widget page, never in the API or a webhook.
 */
import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { SimulatorParts } from '../kit/base';
import { simulatedDepositAddress, simulatedDepositTransaction } from '../kit/deposit-address';
import { sellQuote } from '../kit/sell-pricing';
import { DECIMAL, findAsset, moonpayError } from './api';
import { cryptoCurrency, fiatCurrency } from './catalogue';
import type { MoonpaySimulatorCredentials } from './options';
import { MOONPAY_PROFILE, type SimulatedAsset } from './profile';
import { MOONPAY_SELL_PROFILE } from './sell-terms';
import { checkWidgetQuery, moonpayWebhookSignature } from './signing';

type SellStatus = 'waitingForDeposit' | 'pending' | 'completed' | 'failed';
type SellAction = 'pay' | 'fail' | 'expire' | 'wrong_amount';
const ACTIONS: Readonly<Record<SellStatus, readonly SellAction[]>> = {
  waitingForDeposit: ['pay', 'fail', 'expire', 'wrong_amount'],
  pending: ['fail'],
  completed: [],
  failed: [],
};
const isAction = (value: unknown): value is SellAction =>
  typeof value === 'string' && ['pay', 'fail', 'expire', 'wrong_amount'].includes(value);

interface SellTx {
  id: string;
  session: string;
  createdAt: string;
  updatedAt: string;
  status: SellStatus;
  failureReason: string | null;
  externalTransactionId: string | null;
  externalCustomerId: string | null;
  asset: SimulatedAsset;
  fiat: string;
  payoutMethod: string;
  baseCurrencyAmount: string;
  quoteCurrencyAmount: string;
  feeAmount: string;
  refundWalletAddress: string;
  depositHash: string | null;
  /** Shown on the widget page only, as MoonPay's widget does. */
  depositAddress: string;
  quoteExpiresAt: string;
}

interface Step {
  status: SellStatus;
  failureReason?: string;
  depositHash?: boolean;
}

function sellTransactionJson(tx: SellTx) {
  return {
    id: tx.id,
    createdAt: tx.createdAt,
    updatedAt: tx.updatedAt,
    baseCurrencyAmount: Number(tx.baseCurrencyAmount),
    quoteCurrencyAmount: Number(tx.quoteCurrencyAmount),
    feeAmount: Number(tx.feeAmount),
    extraFeeAmount: 0,
    flow: 'principal',
    status: tx.status,
    failureReason: tx.failureReason,
    depositWalletId: null,
    refundWalletAddress: tx.refundWalletAddress,
    externalTransactionId: tx.externalTransactionId,
    externalCustomerId: tx.externalCustomerId,
    depositHash: tx.depositHash,
    refundHash: null,
    widgetRedirectUrl: null,
    quoteExpiresAt: tx.quoteExpiresAt,
    payoutMethod: tx.payoutMethod,
    integratedSellDepositInfo: null,
    baseCurrency: cryptoCurrency(tx.asset),
    quoteCurrency: fiatCurrency(MOONPAY_PROFILE, tx.fiat),
  };
}

export class MoonpaySell {
  readonly router = express.Router();
  readonly transactions = new Map<string, SellTx>();

  constructor(
    private readonly parts: SimulatorParts,
    private readonly credentials: MoonpaySimulatorCredentials,
  ) {
    const r = this.router;
    r.get('/v3/currencies/:code/sell_quote', (req, res) => this.quote(req, res));
    r.get('/v3/sell_transactions/ext/:externalTransactionId', this.key(), (req, res) => {
      const found = [...this.transactions.values()].filter((tx) => tx.externalTransactionId === req.params.externalTransactionId);
      if (found.length === 0) return moonpayError(res, 404, 'NotFoundError', '4_SYS_NOT_FOUND', 'Transaction not found');
      res.json(found.map(sellTransactionJson));
    });
    r.get('/v3/sell_transactions/:id', this.key(), (req, res) => {
      const tx = this.transactions.get(String(req.params.id));
      if (!tx) return moonpayError(res, 404, 'NotFoundError', '4_SYS_NOT_FOUND', 'Transaction not found');
      res.json(sellTransactionJson(tx));
    });
    r.get('/sell-widget', (req, res) => {
      const tx = this.session(req, res);
      if (tx) res.json({ ...sellTransactionJson(tx), depositWalletAddress: tx.depositAddress, actions: ACTIONS[tx.status] });
    });
    r.post('/sell-widget', express.json({ limit: '8kb' }), (req, res) => this.act(req, res));
  }

  /** The publishable key as `apiKey`, or the secret key as `Authorization: Api-Key`. */
  private key() {
    return (req: Request, res: Response, next: NextFunction) => {
      if (req.query.apiKey === this.credentials.publishableKey || req.header('authorization') === `Api-Key ${this.credentials.secretKey}`) {
        return next();
      }
      moonpayError(res, 401, 'UnauthorizedError', '4_SYS_UNAUTHORIZED', 'Invalid API key');
    };
  }

  private price(asset: SimulatedAsset | undefined, fiat: string, amount: string, method: string) {
    if (!asset?.asset) return { ok: false as const, message: 'Currency not found' };
    const [crypto = '', network = ''] = asset.asset.split('/');
    const priced = sellQuote(MOONPAY_SELL_PROFILE, { crypto, network, cryptoAmount: amount, fiat, payoutMethod: method });
    return priced.ok ? priced : { ok: false as const, message: priced.message };
  }

  private quote(req: Request, res: Response): void {
    if (req.query.apiKey !== this.credentials.publishableKey) {
      return moonpayError(res, 401, 'UnauthorizedError', '4_SYS_UNAUTHORIZED', 'Invalid API key');
    }
    const q = req.query;
    const asset = findAsset(String(req.params.code));
    const amount = typeof q.baseCurrencyAmount === 'string' ? q.baseCurrencyAmount : '';
    const fiat = typeof q.quoteCurrencyCode === 'string' ? q.quoteCurrencyCode.toUpperCase() : '';
    const method = typeof q.payoutMethod === 'string' ? q.payoutMethod : 'credit_debit_card';
    if (!DECIMAL.test(amount) || fiat === '') {
      return moonpayError(
        res,
        400,
        'BadRequestError',
        '4_SYS_BAD_REQUEST',
        'quoteCurrencyCode and a numeric baseCurrencyAmount are required',
      );
    }
    const priced = this.price(asset, fiat, amount, method);
    if (!priced.ok) return moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', priced.message);
    res.json({
      baseCurrencyCode: asset!.code,
      baseCurrencyAmount: Number(amount),
      quoteCurrencyCode: fiat.toLowerCase(),
      quoteCurrencyAmount: Number(priced.fiatAmount),
      baseCurrencyPrice: Number(priced.price),
      feeAmount: Number(priced.processingFee),
      extraFeeAmount: 0,
      payoutMethod: method,
      baseCurrency: cryptoCurrency(asset!),
      quoteCurrency: fiatCurrency(MOONPAY_PROFILE, fiat),
      signature: 'simulated',
      expiresIn: MOONPAY_SELL_PROFILE.quoteTtlSeconds,
      expiresAt: new Date(Date.now() + MOONPAY_SELL_PROFILE.quoteTtlSeconds * 1000).toISOString(),
    });
  }

  /** The sell transaction behind a signed widget URL; the first visit plays the customer's confirmation (`waitingForDeposit`). */
  private session(req: Request, res: Response): SellTx | undefined {
    const at = req.originalUrl.indexOf('?');
    const check = checkWidgetQuery(this.credentials.secretKey, at < 0 ? '' : req.originalUrl.slice(at));
    const params = check.ok ? check.params : undefined;
    if (!params || (params.has('refundWalletAddress') && req.originalUrl.lastIndexOf('&signature=') < 0)) {
      moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', check.ok ? 'Missing signature' : check.message);
      return undefined;
    }
    if (params.get('apiKey') !== this.credentials.publishableKey) {
      moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', 'Invalid API key');
      return undefined;
    }
    const session = params.toString();
    const existing = [...this.transactions.values()].find((tx) => tx.session === session);
    if (existing) return existing;
    const asset = findAsset(params.get('baseCurrencyCode') ?? '');
    const fiat = (params.get('quoteCurrencyCode') ?? '').toUpperCase();
    const amount = params.get('baseCurrencyAmount') ?? '';
    const method = params.get('paymentMethod') ?? 'credit_debit_card';
    const priced = DECIMAL.test(amount)
      ? this.price(asset, fiat, amount, method)
      : { ok: false as const, message: 'baseCurrencyAmount is required' };
    if (!priced.ok) {
      moonpayError(res, 400, 'BadRequestError', '1_SYS_UNKNOWN', priced.message);
      return undefined;
    }
    const now = new Date();
    const network = asset!.asset!.split('/')[1]!;
    const tx: SellTx = {
      id: randomUUID(),
      session,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      status: 'waitingForDeposit',
      failureReason: null,
      externalTransactionId: params.get('externalTransactionId'),
      externalCustomerId: params.get('externalCustomerId'),
      asset: asset!,
      fiat,
      payoutMethod: method,
      baseCurrencyAmount: amount,
      quoteCurrencyAmount: priced.fiatAmount,
      feeAmount: priced.processingFee,
      refundWalletAddress: params.get('refundWalletAddress') ?? '',
      depositHash: null,
      depositAddress: simulatedDepositAddress(network)?.address ?? '',
      quoteExpiresAt: new Date(now.getTime() + 20 * 60 * 1000).toISOString(),
    };
    this.transactions.set(tx.id, tx);
    this.emit(tx, 'sell_transaction_created');
    return tx;
  }

  private act(req: Request, res: Response): void {
    const tx = this.session(req, res);
    if (!tx) return;
    const action = (req.body as { action?: unknown } | undefined)?.action;
    if (!isAction(action) || !ACTIONS[tx.status].includes(action)) {
      res.status(409).json({
        error: {
          code: 'action_not_allowed',
          message: `${String(action)} is not possible while the transaction is ${tx.status}`,
          allowed: ACTIONS[tx.status],
        },
      });
      return;
    }
    if (action === 'wrong_amount') {
      // The customer sends a tenth less; MoonPay pays out for what arrived.
      const sent = new BigNumber(tx.baseCurrencyAmount).times('0.9').toFixed();
      const repriced = this.price(tx.asset, tx.fiat, sent, tx.payoutMethod);
      tx.baseCurrencyAmount = sent;
      if (repriced.ok) {
        tx.quoteCurrencyAmount = repriced.fiatAmount;
        tx.feeAmount = repriced.processingFee;
      }
    }
    const steps: Step[] =
      action === 'fail'
        ? [{ status: 'failed', failureReason: 'Payout failed' }]
        : action === 'expire'
          ? [{ status: 'failed', failureReason: 'Deposit timeout' }]
          : [{ status: 'pending', depositHash: true }, { status: 'completed' }];
    this.parts.walks.start(tx, steps, (step) => this.apply(tx, step));
    res.json(sellTransactionJson(tx));
  }

  private apply(tx: SellTx, step: Step): void {
    tx.status = step.status;
    tx.failureReason = step.failureReason ?? null;
    if (step.depositHash) tx.depositHash = simulatedDepositTransaction(tx.asset.asset!.split('/')[1]!);
    tx.updatedAt = new Date().toISOString();
    this.parts.log?.(`moonpay sell transaction ${tx.id} -> ${tx.status}`);
    this.emit(tx, step.status === 'failed' ? 'sell_transaction_failed' : 'sell_transaction_updated');
  }

  private emit(tx: SellTx, type: string): void {
    const body = JSON.stringify({ type, data: sellTransactionJson(tx) });
    this.parts.webhooks.send({
      orderKey: tx.id,
      status: tx.status,
      eventId: randomUUID(),
      body,
      headers: { 'Moonpay-Signature-V2': moonpayWebhookSignature(this.credentials.webhookKey, body, Math.floor(Date.now() / 1000)) },
    });
  }
}
