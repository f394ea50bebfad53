import { randomBytes, randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type Request, type Response } from 'express';
import { renderCheckoutPage } from '../kit/checkout-page';
import { providerOrderMadeAt, type CheckoutActionDraw, type SimulatorFaults } from '../kit/faults';
import { quote } from '../kit/pricing';
import { coinbaseError, SESSION_TOKEN_TTL_MS, type SimSession } from './api';
import type { CoinbaseLifecycle } from './lifecycle';
import type { CoinbaseSimulatorOptions } from './options';
import { COINBASE_PROFILE, COUNTRY_FIAT, findAsset } from './profile';
import { ALLOWED_ACTIONS, isAction, transactionJson, type SimTransaction } from './transactions';

/**
 * The Onramp page, `/pay/buy/select-asset?sessionToken=…`: the first visit redeems the token and
 * opens the transaction (`onramp.transaction.created`); the page's buttons play the customer.
 */
export class CoinbaseCheckout {
  readonly router = express.Router();

  constructor(
    private readonly transactions: Map<string, SimTransaction>,
    private readonly sessions: Map<string, SimSession>,
    private readonly lifecycle: CoinbaseLifecycle,
    private readonly options: Pick<CoinbaseSimulatorOptions, 'log'>,
    private readonly faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>,
    private readonly playedAction: CheckoutActionDraw,
  ) {
    this.router.get('/pay/buy/select-asset', (req, res) => this.page(req, res));
    this.router.post('/pay/buy/select-asset', express.json({ limit: '8kb' }), (req, res) => this.action(req, res));
  }

  private open(req: Request, res: Response): SimTransaction | undefined {
    const q = (name: string) => {
      const value = req.query[name];
      return typeof value === 'string' ? value : '';
    };
    const token = q('sessionToken');
    const existing = [...this.transactions.values()].find((tx) => tx.sessionToken === token);
    if (existing) return existing;
    const session = this.sessions.get(token);
    if (!session || Date.now() - session.createdAt > SESSION_TOKEN_TTL_MS) {
      coinbaseError(res, 400, 'invalid_request', 'session token is invalid, expired or already used');
      return undefined;
    }
    const asset = findAsset(q('defaultAsset'));
    const network = q('defaultNetwork') || asset?.networks[0]?.name || '';
    const fiat = q('fiatCurrency').toUpperCase();
    const amount = q('presetFiatAmount');
    const paymentMethod = q('defaultPaymentMethod') || 'CARD';
    const wallet = session.addresses.find((a) => a.blockchains.includes(network))?.address;
    if (!asset || !wallet || (session.assets.length > 0 && !session.assets.includes(asset.symbol) && !session.assets.includes(asset.id))) {
      coinbaseError(res, 400, 'invalid_request', 'the session token does not allow this asset on this network');
      return undefined;
    }
    const priced = quote(COINBASE_PROFILE, { fiat, crypto: asset.symbol, network, fiatAmount: amount, paymentMethod });
    if (!priced.ok) {
      coinbaseError(res, 400, 'invalid_request', priced.message);
      return undefined;
    }
    this.sessions.delete(token);
    const total = new BigNumber(amount);
    const tx: SimTransaction = {
      transactionId: randomUUID(),
      sessionToken: token,
      partnerUserRef: q('partnerUserRef') || null,
      status: 'ONRAMP_TRANSACTION_STATUS_CREATED',
      failureReason: 'FAILURE_REASON_UNSPECIFIED',
      createdAt: providerOrderMadeAt(this.faults)
        .toISOString()
        .replace(/\.\d+Z$/, 'Z'),
      completedAt: null,
      country: Object.keys(COUNTRY_FIAT).find((c) => COUNTRY_FIAT[c] === fiat) ?? 'US',
      symbol: asset.symbol,
      network,
      contractAddress: asset.networks.find((n) => n.name === network)?.contractAddress ?? '',
      walletAddress: wallet,
      fiat,
      paymentTotal: total.toFixed(2),
      paymentSubtotal: total.minus(priced.processingFee).minus(priced.networkFee).toFixed(2),
      coinbaseFee: priced.processingFee,
      networkFee: priced.networkFee,
      purchaseAmount: priced.cryptoAmount,
      exchangeRate: priced.price,
      paymentMethod,
      txHash: '',
      userId: randomBytes(16).toString('hex'),
    };
    this.transactions.set(tx.transactionId, tx);
    this.options.log?.(`coinbase transaction ${tx.transactionId} created for ${tx.partnerUserRef ?? '(no partnerUserRef)'}`);
    this.lifecycle.created(tx);
    return tx;
  }

  private page(req: Request, res: Response): void {
    const tx = this.open(req, res);
    if (!tx) return;
    res.type('html').send(
      renderCheckoutPage({
        reference: tx.transactionId,
        providerName: 'Coinbase Onramp (simulator)',
        status: tx.status,
        fiatAmount: tx.paymentTotal,
        fiatCurrency: tx.fiat,
        cryptoAmount: tx.purchaseAmount,
        cryptoCurrency: tx.symbol,
        network: tx.network,
        walletAddress: tx.walletAddress,
        paymentMethod: tx.paymentMethod,
        actions: ALLOWED_ACTIONS[tx.status],
      }),
    );
  }

  private action(req: Request, res: Response): void {
    const tx = this.open(req, res);
    if (!tx) return;
    const action = (req.body as { action?: unknown } | undefined)?.action;
    const allowed = ALLOWED_ACTIONS[tx.status];
    if (!isAction(action) || !allowed.includes(action)) {
      res.status(409).json({
        error: { code: 'action_not_allowed', message: `${String(action)} is not possible while the transaction is ${tx.status}`, allowed },
      });
      return;
    }
    const played = this.playedAction(action, allowed);
    if (played) this.lifecycle.act(tx, played);
    res.json(transactionJson(tx));
  }
}
