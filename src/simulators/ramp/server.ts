/**
 * A local simulator of Ramp Network: the host API (assets, currencies, payment methods, countries,
 * quotes, purchase status) under /api, and the widget under /app, where opening the URL creates the
 * purchase and the checkout buttons drive it. Each status change is posted, signed as Ramp signs,
 * to the webhookStatusUrl given in that widget URL.
 */
import type { Request, Response } from 'express';
import { SimulatorBase } from '../kit/base';
import type { SimulatedOrder } from '../kit/simulated-orders';
import { RampApi, rampError } from './api';
import { RampCheckout } from './checkout';
import { RampLifecycle } from './lifecycle';
import { RampSell } from './sell-api';
import type { RampSimulatorOptions } from './options';
import type { PurchaseRecord, SimPurchase } from './purchase';
import { isPublicHalf, rampSimulatorSigningKey } from './signing';
import { RAMP_ORDER_ID_PARAM } from '../../providers/ramp/webhook-url';

export type { RampSimulatorOptions } from './options';

export class RampSimulator extends SimulatorBase {
  readonly code = 'ramp';
  private readonly purchases = new Map<string, PurchaseRecord>();
  /** The off-ramp: sales, their quotes and lookups, and the widget's OFFRAMP flow (sell-api.ts). */
  readonly sell: RampSell;

  constructor(options: RampSimulatorOptions) {
    super({ ...options, webhookUrl: options.brokerWebhookUrl });
    const signingKey = options.signingKey ?? rampSimulatorSigningKey(undefined);
    if (!isPublicHalf(options.credentials.webhookPublicKey, signingKey)) {
      throw new Error("credentials.webhookPublicKey must be the public half of the Ramp simulator's signing key");
    }
    const lifecycle = new RampLifecycle(this.parts, signingKey);
    this.sell = new RampSell(this.parts, options.credentials, signingKey, this.faults);
    // Before the purchase widget: a widget URL in the OFFRAMP flow is a sale's.
    this.app.use(this.sell.widget);
    // The widget is the customer's page: no fault injection there.
    this.app.use(new RampCheckout(this.purchases, lifecycle, options, this.faults, this.playedAction).router);
    this.injectFaultsUnder('/api', (res) => void res.status(503).json(rampError('SERVICES.UNAVAILABLE', 503, 'simulated outage')));
    this.app.use(this.sell.api);
    this.app.use(new RampApi(this.purchases, options.credentials).router);
    // Ramp's framework answers unknown paths in its own shape.
    this.app.use(
      (req: Request, res: Response) =>
        void res.status(404).json({ message: `Cannot ${req.method} ${req.path}`, error: 'Not Found', statusCode: 404 }),
    );
  }

  /** Ramp echoes no reference: the broker's order id is the one in the purchase's webhookStatusUrl, when it has one. */
  simulatedOrders(): SimulatedOrder[] {
    const purchases = [...this.purchases.values()].map(({ purchase, webhookStatusUrl }) => ({
      id: purchase.id,
      reference: webhookStatusUrl ? new URL(webhookStatusUrl).searchParams.get(RAMP_ORDER_ID_PARAM) : null,
      status: purchase.status,
      created_at: purchase.createdAt,
    }));
    const sales = [...this.sell.sales.values()].map(({ sale, offrampWebhookV3Url }) => ({
      id: sale.id,
      reference: offrampWebhookV3Url ? new URL(offrampWebhookV3Url).searchParams.get(RAMP_ORDER_ID_PARAM) : null,
      status: sale.status,
      created_at: sale.createdAt,
    }));
    return [...purchases, ...sales];
  }

  /** Every purchase, for tests. */
  purchaseList(): SimPurchase[] {
    return [...this.purchases.values()].map((r) => r.purchase);
  }
}

export function createRampSimulator(options: RampSimulatorOptions): RampSimulator {
  return new RampSimulator(options);
}
