import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { SimulatorTimers } from './timers';

/** Switches tests use to make a simulated provider misbehave. */
export interface SimulatorFaults {
  /** Added to every API response. */
  latencyMs: number;
  /** Fraction of API calls answered 503. */
  errorRate: number;
  /** Fraction of API calls never answered (the caller's deadline decides). */
  timeoutRate: number;
  /**
   * Fraction of order creation calls answered 503, every other call answered as usual: a provider
   * that quotes but cannot create orders (what the broker's provider circuit breaker is for). The
   * sandbox simulator only.
   */
  createErrorRate: number;
  /** Fraction of order creation calls refused with a 422 (the provider will not take this customer's order). The sandbox simulator only. */
  createRejectRate: number;
  /** Webhooks are not sent at all (the broker must poll). */
  dropWebhooks: boolean;
  /** Every webhook is sent twice. */
  duplicateWebhooks: boolean;
  /** Wait before each webhook. */
  webhookDelayMs: number;
  /** Hold webhooks back and send each order's batch in reverse order when the switch is turned off. */
  reorderWebhooks: boolean;
  /**
   * What the customer really pays, where it differs from the order (a widget whose amount, fiat
   * currency or wallet was edited): each non-empty value replaces the order's at payment, and the
   * provider reports it in every later webhook and status answer. Empty: pay what was ordered.
   */
  paidFiatAmount: string;
  /** The fiat currency paid, as the provider names it (e.g. "EUR"); empty: the order's. */
  paidFiatCurrency: string;
  /** The wallet the crypto goes to; empty: the order's. */
  paidWalletAddress: string;
  /**
   * How long before now each new provider order says it was made: a purchase kept from before the
   * broker's order (an order id the provider still knows after the broker's order was deleted).
   * Every later webhook and status answer shows that creation time. 0: made now; below 0: a
   * provider clock that runs ahead (a time-skipping test's, whose workflow clock is days ahead).
   */
  providerOrderAgeMs: number;
  /**
   * A field of the provider's order answers and webhooks shown `oversizedLength` characters long:
   * a provider answering oversized text, which the broker must refuse at its boundary rather than
   * store in the order. The sandbox simulator only, for its order's `id`, `checkout_url` (a query
   * parameter added), `failure_reason` and `tx_hash`; the order itself keeps its own values, so turning
   * the switch off answers them again. Empty: none.
   */
  oversizedField: string;
  oversizedLength: number;
}

export const NO_FAULTS: SimulatorFaults = {
  latencyMs: 0,
  errorRate: 0,
  timeoutRate: 0,
  createErrorRate: 0,
  createRejectRate: 0,
  dropWebhooks: false,
  duplicateWebhooks: false,
  webhookDelayMs: 0,
  reorderWebhooks: false,
  paidFiatAmount: '',
  paidFiatCurrency: '',
  paidWalletAddress: '',
  providerOrderAgeMs: 0,
  oversizedField: '',
  oversizedLength: 0,
};

/** What the customer pays instead of the order's terms: each `paid*` switch that is set, by the term it replaces. */
export function paidTerms(faults: SimulatorFaults): { fiatAmount?: string; fiatCurrency?: string; walletAddress?: string } {
  return {
    ...(faults.paidFiatAmount ? { fiatAmount: faults.paidFiatAmount } : {}),
    ...(faults.paidFiatCurrency ? { fiatCurrency: faults.paidFiatCurrency } : {}),
    ...(faults.paidWalletAddress ? { walletAddress: faults.paidWalletAddress } : {}),
  };
}

/** When a provider order made now says it was made: now, less the `providerOrderAgeMs` switch. */
export function providerOrderMadeAt(faults: Pick<SimulatorFaults, 'providerOrderAgeMs'>, now = Date.now()): Date {
  return new Date(now - faults.providerOrderAgeMs);
}

/** What becomes of an order creation call under the `createErrorRate` and `createRejectRate` switches. */
export function creationFault(
  faults: Pick<SimulatorFaults, 'createErrorRate' | 'createRejectRate'>,
  random: () => number = Math.random,
): 'outage' | 'refusal' | undefined {
  if (faults.createErrorRate > 0 && random() < faults.createErrorRate) return 'outage';
  if (faults.createRejectRate > 0 && random() < faults.createRejectRate) return 'refusal';
  return undefined;
}

/** The known switches of a JSON body, each only when it has the right type. */
export function pickFaults(body: unknown): Partial<SimulatorFaults> {
  const input = (body ?? {}) as Record<string, unknown>;
  const out: Partial<SimulatorFaults> = {};
  for (const key of Object.keys(NO_FAULTS) as (keyof SimulatorFaults)[]) {
    const value = input[key];
    if (typeof value === typeof NO_FAULTS[key]) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

export interface FaultInjectionOptions {
  faults: SimulatorFaults;
  timers: SimulatorTimers;
  random?: () => number;
  /** Writes the provider's own error body for a simulated outage. */
  outage?: (res: Response) => void;
}

/** Middleware for a provider's API routes: latency, outages (503) and requests left unanswered. */
export function injectFaults({ faults, timers, random = Math.random, outage }: FaultInjectionOptions): RequestHandler {
  return (_req: Request, res: Response, next: NextFunction) => {
    const proceed = () => {
      if (faults.timeoutRate > 0 && random() < faults.timeoutRate) return; // the caller times out
      if (faults.errorRate > 0 && random() < faults.errorRate) {
        if (outage) outage(res);
        else res.status(503).json({ message: 'simulated outage' });
        return;
      }
      next();
    };
    if (faults.latencyMs > 0) timers.later(proceed, faults.latencyMs);
    else proceed();
  };
}

/** `GET|POST /faults`, mounted at /_simulator: read or change the switches; `onChange` runs after each change. */
export function faultRoutes(faults: SimulatorFaults, onChange?: () => void): express.Router {
  const router = express.Router();
  router.post('/faults', express.json(), (req, res) => {
    Object.assign(faults, pickFaults(req.body));
    onChange?.();
    res.json(faults);
  });
  router.get('/faults', (_req, res) => void res.json(faults));
  return router;
}
