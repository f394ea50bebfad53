/**
 * The simulated Mercuryo's sell widget (`https://exchange.mercuryo.io/?widget_id=…&type=sell&…`):
 * the signed widget URL starts the sale (Mercuryo's `sell` operation, `new`) and shows, as the
 * widget does, where to send the crypto; POST `{"action": …}` to the same URL plays the customer.
 * Each leg's new status is a callback signed like the buy ones and sent with the same retries.
 * Other widget URLs (`type=buy`) go on to the buy widget.
 */
import BigNumber from 'bignumber.js';
import express, { type Request, type Response } from 'express';
import type { SimulatorParts } from '../kit/base';
import { simulatedDepositAddress, simulatedDepositTransaction } from '../kit/deposit-address';
import { sellQuote } from '../kit/sell-pricing';
import { apiError } from './api';
import type { MercuryoSimulatorOptions } from './options';
import { mercuryoId } from './purchase';
import { newSale, saleActions, saleSteps, type SaleStep, type SimSale } from './sell-sale';
import { KIT_NETWORK, MERCURYO_SELL_PROFILE } from './sell-terms';
import { saleCallbackBody, saleItem } from './sell-views';
import { clientIpForms, signCallback, signWidget } from './signing';

const SELL_PARAMS = ['address', 'merchant_transaction_id', 'signature', 'currency', 'network', 'amount', 'fiat_currency'] as const;
type SellQuery = Record<(typeof SELL_PARAMS)[number], string> & { refund_address?: string };

export class MercuryoSellCheckout {
  readonly router = express.Router();
  /** Sales by merchant_transaction_id (the broker's order id). */
  readonly sales = new Map<string, SimSale>();

  constructor(
    private readonly parts: SimulatorParts,
    private readonly options: Pick<MercuryoSimulatorOptions, 'publicUrl' | 'credentials' | 'log'>,
  ) {
    this.router.get('/', (req, res, next) => (req.query.type === 'sell' ? this.page(req, res) : next()));
    this.router.post('/', express.json({ limit: '16kb' }), (req, res, next) =>
      req.query.type === 'sell' ? this.action(req, res) : next(),
    );
  }

  /** The widget URL checked as Mercuryo checks the buy one: the v2 signature over address, secret, the opener's IP and our id. */
  private checked(req: Request, res: Response): SellQuery | undefined {
    const q = req.query as Record<string, unknown>;
    if (q.widget_id !== this.options.credentials.widgetId) return void apiError(res, 403, 'Widget not found');
    const missing = SELL_PARAMS.filter((k) => typeof q[k] !== 'string' || q[k] === '');
    if (missing.length > 0) return void apiError(res, 400, `Missing ${missing.join(', ')}`);
    const query = q as SellQuery;
    const signed = clientIpForms(req.socket.remoteAddress).some(
      (ip) => signWidget(query.address, this.options.credentials.secret, ip, query.merchant_transaction_id) === query.signature,
    );
    if (!signed) return void apiError(res, 403, 'Signature is invalid');
    return query;
  }

  /** The first open starts the sale; later opens show it; another sale's terms under the same id are refused. */
  private open(query: SellQuery): SimSale | string {
    const widgetTerms = JSON.stringify([
      query.address,
      query.refund_address,
      query.currency,
      query.network,
      query.amount,
      query.fiat_currency,
    ]);
    const existing = this.sales.get(query.merchant_transaction_id);
    if (existing) return existing.widgetTerms === widgetTerms ? existing : 'merchant_transaction_id is already used by another sale';
    const priced = sellQuote(MERCURYO_SELL_PROFILE, {
      crypto: query.currency,
      network: query.network,
      cryptoAmount: query.amount,
      fiat: query.fiat_currency,
      payoutMethod: 'card',
    });
    if (!priced.ok) return priced.message;
    const sale = newSale({
      merchantTransactionId: query.merchant_transaction_id,
      widgetTerms,
      currency: query.currency,
      network: query.network,
      amount: query.amount,
      fiatCurrency: query.fiat_currency,
      fiatAmount: priced.fiatAmount,
      fee: priced.processingFee,
      refundAddress: query.refund_address ?? query.address,
      depositAddress: simulatedDepositAddress(KIT_NETWORK[query.network] ?? '')?.address ?? '',
    });
    this.sales.set(sale.merchantTransactionId, sale);
    this.options.log?.(`mercuryo sale ${sale.sell.id} started at ${this.options.publicUrl}/ for ${sale.merchantTransactionId}`);
    this.emit(sale, 'sell');
    return sale;
  }

  private page(req: Request, res: Response): void {
    const query = this.checked(req, res);
    if (!query) return;
    const sale = this.open(query);
    if (typeof sale === 'string') return apiError(res, 400, sale);
    // The widget shows the customer where to send the crypto; no API answer or callback names it before it arrives.
    res.json({ ...this.summary(sale), deposit_address: sale.depositAddress, actions: saleActions(sale) });
  }

  private action(req: Request, res: Response): void {
    const query = this.checked(req, res);
    if (!query) return;
    const sale = this.open(query);
    if (typeof sale === 'string') return apiError(res, 400, sale);
    const asked = (req.body as { action?: unknown } | undefined)?.action;
    const steps = typeof asked === 'string' ? saleSteps(sale, asked) : undefined;
    if (!steps) {
      res.status(409).json({
        error: {
          code: 'invalid_action',
          message: `action ${String(asked)} is not possible now (sell: ${sale.sell.status})`,
          allowed: saleActions(sale),
        },
      });
      return;
    }
    this.parts.walks.start(sale, steps, (step) => this.apply(sale, step));
    res.json(this.summary(sale));
  }

  private summary(sale: SimSale) {
    return {
      merchant_transaction_id: sale.merchantTransactionId,
      status: `sell:${sale.sell.status}`,
      operations: saleItem(sale, this.options.credentials.widgetId),
    };
  }

  private apply(sale: SimSale, step: SaleStep): void {
    const now = new Date();
    if (step.short) this.shortDeposit(sale);
    if (step.deposit) {
      const deposit = sale.deposit ?? { id: mercuryoId(), status: step.deposit, createdAt: now, updatedAt: now };
      sale.deposit = {
        ...deposit,
        status: step.deposit,
        updatedAt: now,
        ...(step.deposit === 'completed' ? { hash: simulatedDepositTransaction(KIT_NETWORK[sale.network] ?? 'ethereum') } : {}),
      };
      this.emit(sale, 'deposit');
    }
    if (step.sell) {
      sale.sell = { ...sale.sell, status: step.sell, updatedAt: now };
      this.emit(sale, 'sell');
    }
  }

  /** A tenth less than the widget's amount arrives: Mercuryo sells what arrived, at the same terms. */
  private shortDeposit(sale: SimSale): void {
    const sent = new BigNumber(sale.amount).times('0.9').toFixed();
    const repriced = sellQuote(MERCURYO_SELL_PROFILE, {
      crypto: sale.currency,
      network: sale.network,
      cryptoAmount: sent,
      fiat: sale.fiatCurrency,
      payoutMethod: 'card',
    });
    sale.amount = sent;
    if (repriced.ok) {
      sale.fiatAmount = repriced.fiatAmount;
      sale.fee = repriced.processingFee;
    }
  }

  private emit(sale: SimSale, leg: 'sell' | 'deposit'): void {
    const operation = leg === 'sell' ? sale.sell : sale.deposit!;
    const body = JSON.stringify(saleCallbackBody(sale, leg));
    this.parts.log?.(`mercuryo ${sale.merchantTransactionId} ${leg} -> ${operation.status}`);
    this.parts.webhooks.send({
      orderKey: sale.merchantTransactionId,
      status: `${leg}:${operation.status}`,
      eventId: `${operation.id}:${operation.status}`,
      body,
      headers: { 'x-signature': signCallback(this.options.credentials.signKey, body) },
    });
  }
}
