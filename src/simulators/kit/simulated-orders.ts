import express from 'express';
import type { SimulatorFaults } from './faults';

/** One order a simulated provider holds, as `GET /_simulator/orders` lists it: the same shape for every provider. */
export interface SimulatedOrder {
  /** The provider's own id of the order (transaction, purchase). */
  id: string;
  /**
   * The broker's order id the provider was given with it (partner order id, external transaction id,
   * merchant transaction id, Ramp's webhookStatusUrl), or null when it came without one.
   */
  reference: string | null;
  /** The provider's status, in its own words. */
  status: string;
  created_at: string;
}

/** The webhook switches that can also be set for one order, by its reference; each one set overrides the simulator's. */
export type OrderWebhookSwitches = Partial<Pick<SimulatorFaults, 'dropWebhooks' | 'duplicateWebhooks' | 'reorderWebhooks'>>;

const ORDER_SWITCHES = ['dropWebhooks', 'duplicateWebhooks', 'reorderWebhooks'] as const;

/** The per-order switches of a JSON body, each only when it is a boolean. */
export function pickOrderSwitches(body: unknown): OrderWebhookSwitches {
  const input = (body ?? {}) as Record<string, unknown>;
  const out: OrderWebhookSwitches = {};
  for (const key of ORDER_SWITCHES) if (typeof input[key] === 'boolean') out[key] = input[key];
  return out;
}

export interface SimulatedOrderRoutesOptions {
  orders: () => SimulatedOrder[];
  /** Per-order webhook switches, by reference. */
  switches: Map<string, OrderWebhookSwitches>;
  /** After the switches of `reference` changed (turning reorder off sends what it held back). */
  onChange?: (reference: string) => void;
}

/**
 * Mounted at /_simulator beside the fault switches, for tests that check the provider's side:
 * `GET /orders` lists the provider's orders (`?reference=` keeps those given that broker order id);
 * `GET|POST /orders/:reference/faults` reads or sets the webhook switches of one order, before or
 * after the provider has it.
 */
export function simulatedOrderRoutes({ orders, switches, onChange }: SimulatedOrderRoutesOptions): express.Router {
  const router = express.Router();
  router.get('/orders', (req, res) => {
    const reference = typeof req.query.reference === 'string' ? req.query.reference : undefined;
    const all = orders();
    res.json({ orders: reference === undefined ? all : all.filter((o) => o.reference === reference) });
  });
  router.get('/orders/:reference/faults', (req, res) => void res.json(switches.get(req.params.reference) ?? {}));
  router.post('/orders/:reference/faults', express.json(), (req, res) => {
    const reference = req.params.reference;
    const next = { ...switches.get(reference), ...pickOrderSwitches(req.body) };
    switches.set(reference, next);
    onChange?.(reference);
    res.json(next);
  });
  return router;
}
