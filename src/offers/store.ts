import { LRUCache } from 'lru-cache';
import { Decimal } from '../domain/money';

/** What an offer was given for; an order must match it to be accepted. */
export interface OfferTerms {
  integratorId: string;
  externalUserId: string;
  providerCode: string;
  fromCurrency: number;
  toCurrency: number;
  amountFrom: string;
  country: string;
  state?: string;
  /** Set when the offer was restricted to one payment method. */
  paymentMethod?: string;
  /** Payment methods the offer covered. */
  paymentMethods: string[];
  amountExpectedTo: string;
  expiresAt: string;
  /** The end user's IP address given with the offers request: an order without `ip` uses it. */
  ip?: string;
}

/** Remembers every returned offer until it expires (in memory; Redis when REDIS_URL is set). */
export interface OfferStore {
  remember(terms: OfferTerms): Promise<void>;
  /** The live offer matching an order, if any. */
  findLive(
    query: Omit<OfferTerms, 'amountExpectedTo' | 'expiresAt' | 'paymentMethods' | 'ip'> & { paymentMethod: string },
  ): Promise<OfferTerms | undefined>;
}

/**
 * Live offers kept per key (integrator, user, provider, pair, amount), newest kept: an integrator
 * asking again and again for the same offer must not make each request slower than the last.
 */
export const MAX_OFFERS_PER_KEY = 16;

export function offerKey(
  t: Pick<OfferTerms, 'integratorId' | 'externalUserId' | 'providerCode' | 'fromCurrency' | 'toCurrency' | 'amountFrom'>,
): string {
  // Amounts are normalised so that "100" and "100.00" are the same offer.
  const amount = new Decimal(t.amountFrom).toFixed();
  return JSON.stringify([t.integratorId, t.externalUserId, t.providerCode, t.fromCurrency, t.toCurrency, amount]);
}

export function matches(offer: OfferTerms, query: { country: string; state?: string; paymentMethod: string }, now: number): boolean {
  if (Date.parse(offer.expiresAt) <= now) return false;
  if (offer.country !== query.country) return false;
  if (offer.state !== undefined && offer.state !== query.state) return false;
  if (offer.paymentMethod !== undefined && offer.paymentMethod !== query.paymentMethod) return false;
  return offer.paymentMethods.includes(query.paymentMethod);
}

/** An offer with its expiry as a number, so that keeping a key's list costs no date parsing. */
interface KeptOffer {
  terms: OfferTerms;
  expiresAtMs: number;
}

export class MemoryOfferStore implements OfferStore {
  private readonly cache = new LRUCache<string, KeptOffer[]>({ max: 100_000, ttl: 60 * 60_000 });

  constructor(private readonly now: () => number = Date.now) {}

  remember(terms: OfferTerms): Promise<void> {
    const key = offerKey(terms);
    const now = this.now();
    const kept = (this.cache.get(key) ?? []).filter((o) => o.expiresAtMs > now);
    kept.push({ terms, expiresAtMs: Date.parse(terms.expiresAt) });
    if (kept.length > MAX_OFFERS_PER_KEY) kept.splice(0, kept.length - MAX_OFFERS_PER_KEY);
    const latest = kept.reduce((max, o) => Math.max(max, o.expiresAtMs), 0);
    this.cache.set(key, kept, { ttl: Math.max(latest - now, 1) });
    return Promise.resolve();
  }

  findLive(query: Parameters<OfferStore['findLive']>[0]): Promise<OfferTerms | undefined> {
    const candidates = this.cache.get(offerKey(query)) ?? [];
    return Promise.resolve(candidates.find((o) => matches(o.terms, query, this.now()))?.terms);
  }
}
