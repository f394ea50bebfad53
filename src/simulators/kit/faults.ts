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
   * Fraction of order creation calls answered with the provider's own outage (a 5xx), every other
   * call answered as usual: a provider that quotes but cannot create orders (what the broker's
   * provider circuit breaker is for). The creation calls are those the broker's adapter makes to
   * create an order (docs/providers.md, "Simulator switches"); a provider whose adapter makes none
   * (Mercuryo, Onramp.money, Ramp: a signed widget URL is the order) cannot be switched so.
   */
  createErrorRate: number;
  /**
   * Fraction of order creation calls refused with the provider's own refusal (a 4xx, or Alchemy
   * Pay's refusal envelope): the provider will not take this customer's order. The same calls as
   * `createErrorRate`.
   */
  createRejectRate: number;
  /**
   * The probability that a customer's `pay` at the checkout ends with the order complete; otherwise
   * the payment fails as the checkout's `fail` action plays it (e.g. card declined), and the order
   * ends failed. 1: every payment goes through.
   */
  completionRate: number;
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
  completionRate: 1,
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

/**
 * The action a customer's checkout action is played as under the `completionRate` switch: a `pay`
 * fails with probability 1 - completionRate, and is then played as the provider's `fail` where
 * `allowed` (the actions of the order's state) has one. Where it has none (a late payment to an
 * expired order) the failed payment leaves the order as it is: undefined. Other actions are played
 * as asked. Draws from `random` only for a `pay` while the rate is below 1.
 */
export function checkoutActionAsSwitched<A extends string>(
  action: A,
  allowed: readonly string[],
  faults: Pick<SimulatorFaults, 'completionRate'>,
  random: () => number = Math.random,
): A | 'fail' | undefined {
  if (action !== 'pay' || faults.completionRate >= 1 || random() < faults.completionRate) return action;
  return allowed.includes('fail') ? 'fail' : undefined;
}

/** checkoutActionAsSwitched with a simulator's own switches and random source: what its checkout plays an action as. */
export type CheckoutActionDraw = <A extends string>(action: A, allowed: readonly string[]) => A | 'fail' | undefined;

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

export interface CreationFaultOptions {
  faults: SimulatorFaults;
  random?: () => number;
  /** Writes the provider's own error body for an outage (a 5xx). */
  outage: (res: Response) => void;
  /** Writes the provider's own refusal, the one the broker's adapter reads as the provider refusing the order. */
  refusal: (res: Response) => void;
}

/** Middleware for a provider's order creation route: the `createErrorRate` and `createRejectRate` switches. */
export function injectCreationFaults({ faults, random = Math.random, outage, refusal }: CreationFaultOptions): RequestHandler {
  return (_req: Request, res: Response, next: NextFunction) => {
    const fault = creationFault(faults, random);
    if (fault === 'outage') outage(res);
    else if (fault === 'refusal') refusal(res);
    else next();
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
