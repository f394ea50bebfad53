import { PAYMENT_METHOD_NAMES } from '../domain/payment-methods';
import type { IntegratorEstimate, LevelEstimate } from './estimate';

/** Methods whose display name reads as a common noun mid-sentence ("card orders"); the rest are names ("Apple Pay orders"). */
const COMMON_NOUN_METHODS = new Set(['card', 'bank_transfer']);

function methodPhrase(code: string): string {
  const name = (PAYMENT_METHOD_NAMES as Record<string, string>)[code] ?? code;
  return COMMON_NOUN_METHODS.has(code) ? name.toLowerCase() : name;
}

/** A whole count with thousands separators ("1,500"), without Intl, which is slow on the offers path. */
function count(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * The orders a level counts: "212 card orders in GB", "1 card order with this provider", "orders
 * with this provider", "5,000 orders with any provider" (without a number when `howMany` is absent).
 */
function ordersAt(level: LevelEstimate, country: string | undefined, method: string | undefined, howMany?: number): string {
  const number = howMany === undefined ? '' : `${count(howMany)} `;
  const noun = howMany !== undefined && Math.round(howMany) === 1 ? 'order' : 'orders';
  switch (level.kind) {
    case 'provider_country_method':
      return `${number}${methodPhrase(method!)} ${noun} in ${country!}`;
    case 'provider_method':
      return `${number}${methodPhrase(method!)} ${noun} with this provider`;
    case 'provider':
      return `${number}${noun} with this provider`;
    case 'all':
      return `${number}${noun} with any provider`;
  }
}

/** A share as a whole percentage that never rounds a share below 1 up to 100, nor one above 0 down to 0. */
export function percent(share: number): string {
  const whole = Math.round(share * 100);
  if (whole >= 100 && share < 1) return '99';
  if (whole <= 0 && share > 0) return '<1';
  return String(whole);
}

/** Below this share the refusals are not worth a line of their own. */
const REFUSALS_WORTH_A_REASON = 0.1;

export interface ReasonContext {
  /** The requesting integrator's estimate: its own counts are the only ones a reason quotes. */
  estimate: IntegratorEstimate;
  country: string | undefined;
  /** The payment method the estimate is for (undefined: the provider's level). */
  method: string | undefined;
  /** Orders a level needs before its own rate is quoted rather than the wider level it leans on (K, at least 1). */
  enough: number;
  returning: boolean;
}

/**
 * What a person reads next to an offer: how its completion estimate was made (from the requesting
 * integrator's own orders, or that it has few yet and the estimate leans on all integrators'
 * orders), refusals when they are notable, and the returning-customer boost when it applies. The
 * percentages are the smoothed estimate, the order counts decayed (recent orders count fully, one a
 * half-life old counts half). Every count quoted is the integrator's own: how many orders other
 * integrators sent is their business, so the orders the estimate leans on are never counted.
 */
export function rankingReasons({ estimate, country, method, enough, returning }: ReasonContext): string[] {
  const reasons: string[] = [];
  const specific = estimate.shared.levels[0]!;
  const own = estimate.ownAttempts;
  const share = percent(estimate.p);
  if (own >= enough) {
    reasons.push(`${share} % of ${ordersAt(specific, country, method, own)} completed`);
  } else {
    const few =
      Math.round(own) === 0 ? `no ${ordersAt(specific, country, method)} yet` : `only ${ordersAt(specific, country, method, own)} so far`;
    const leans = estimate.shared.levels.some((level) => level.attempts >= enough);
    reasons.push(
      leans ? `${few}: ${share} % estimated from all integrators' orders` : `${few}: ${share} % assumed until there are more orders`,
    );
  }
  if (estimate.refusedShare >= REFUSALS_WORTH_A_REASON)
    reasons.push(`the provider refused ${percent(estimate.refusedShare)} % of orders at creation`);
  if (returning) reasons.push('you bought with this provider before');
  return reasons;
}
