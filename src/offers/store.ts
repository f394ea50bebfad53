import { LRUCache } from 'lru-cache';
import { Decimal } from '../domain/money';
import { isPlainDecimal } from '../domain/fixed-decimal';

/**
 * What an offer was given for; an order must match it to be accepted. A buy offer (on-ramp) goes
 * from a fiat currency to a crypto one, a sell offer (off-ramp, `side: 'sell'`) from a crypto
 * currency to a fiat one: amountFrom is then the crypto sent, paymentMethod(s) the payout method(s),
 * amountExpectedTo the fiat paid out and totalFeeAmount the fees taken off it.
 */
export interface OfferTerms {
  /** `sell` for an off-ramp offer; absent for a buy offer (every offer remembered before sells existed). */
  side?: 'sell';
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
  /**
   * The offer's total_fee_amount (fiat, fees included in amountFrom): what an order placed against
   * it records as its quoted fee. Absent from offers remembered before it was kept.
   */
  totalFeeAmount?: string;
  expiresAt: string;
  /** The end user's IP address given with the offers request: an order without `ip` uses it. */
  ip?: string;
}

/** What an order asks of the offer it is placed against: the terms it must match, with the one payment method it pays by. */
export type LiveOfferQuery = Omit<OfferTerms, 'amountExpectedTo' | 'totalFeeAmount' | 'expiresAt' | 'paymentMethods' | 'ip'> & {
  paymentMethod: string;
};

/** Remembers every returned offer until it expires (in memory; Redis when REDIS_URL is set). */
export interface OfferStore {
  remember(terms: OfferTerms): Promise<void>;
  /** The live offer matching an order, if any. */
  findLive(query: LiveOfferQuery): Promise<OfferTerms | undefined>;
}

/**
 * Live offers kept per key (integrator, user, provider, pair, amount), newest kept: an integrator
 * asking again and again for the same offer must not make each request slower than the last.
 */
export const MAX_OFFERS_PER_KEY = 16;

/**
 * The key an offer is kept and found under. A sell offer's key starts with its side, so that a buy
 * order never finds a sell offer nor a sell order a buy one; a buy offer's key is as it always was
 * (offers already in Redis are found across an upgrade).
 */
export function offerKey(
  t: Pick<OfferTerms, 'side' | 'integratorId' | 'externalUserId' | 'providerCode' | 'fromCurrency' | 'toCurrency' | 'amountFrom'>,
): string {
  // Amounts are normalised so that "100" and "100.00" are the same offer.
  const amount = normalAmount(t.amountFrom);
  if (t.side === 'sell')
    return JSON.stringify(['sell', t.integratorId, t.externalUserId, t.providerCode, t.fromCurrency, t.toCurrency, amount]);
  return JSON.stringify([t.integratorId, t.externalUserId, t.providerCode, t.fromCurrency, t.toCurrency, amount]);
}

/**
 * An amount as Decimal's toFixed() writes it, without making a decimal for the plain ones (the offers
 * service remembers one offer per provider on every request): leading zeros and a fraction's trailing
 * zeros dropped. Anything else (an exponent, a sign) goes through Decimal.
 */
export function normalAmount(amount: string): string {
  // Digits with an optional fraction: the amounts the API takes (DECIMAL_AMOUNT_PATTERN is stricter).
  if (!isPlainDecimal(amount)) return new Decimal(amount).toFixed();
  let start = 0;
  while (start < amount.length - 1 && amount[start] === '0' && amount[start + 1] !== '.') start++;
  let end = amount.length;
  if (amount.includes('.')) {
    while (amount[end - 1] === '0') end--;
    if (amount[end - 1] === '.') end--;
  }
  return start === 0 && end === amount.length ? amount : amount.slice(start, end);
}

/** The terms an order is matched on besides its key (offerKey). */
type MatchedTerms = Pick<OfferTerms, 'expiresAt' | 'country' | 'state' | 'paymentMethod' | 'paymentMethods'>;

export function matches(offer: MatchedTerms, query: { country: string; state?: string; paymentMethod: string }, now: number): boolean {
  return matchesAt(offer, Date.parse(offer.expiresAt), query, now);
}

/** `matches`, with the offer's expiry already parsed. */
function matchesAt(
  offer: Omit<MatchedTerms, 'expiresAt'>,
  expiresAtMs: number,
  query: { country: string; state?: string; paymentMethod: string },
  now: number,
): boolean {
  if (expiresAtMs <= now) return false;
  if (offer.country !== query.country) return false;
  if (offer.state !== undefined && offer.state !== query.state) return false;
  if (offer.paymentMethod !== undefined && offer.paymentMethod !== query.paymentMethod) return false;
  return offer.paymentMethods.includes(query.paymentMethod);
}

/**
 * What the memory store keeps of an offer: the terms its key does not already say (integrator, user,
 * provider and currencies come back from the query that matched it), the strings and method lists
 * that repeat from one offer to the next shared, and its expiry as a number too, so that keeping a
 * key's list costs no date parsing. At 50 connections the store holds every offer of the last two
 * minutes, some 250,000 when every request is for another amount: kept whole, they were a third of
 * the API's heap (about 280 bytes each; about half that now).
 */
interface KeptOffer extends Omit<MatchedTerms, 'expiresAt'> {
  expiresAtMs: number;
  /** Only when `new Date(expiresAtMs).toISOString()` would not write it as it came (the offers service's always are). */
  expiresAt?: string;
  amountFrom: string;
  amountExpectedTo: string;
  totalFeeAmount?: string;
  ip?: string;
}

/** Values shared by every offer that repeats them; bounded (past the bound a value is kept as it comes). */
const MAX_SHARED = 10_000;
const sharedStrings = new Map<string, string>();
const sharedLists = new Map<string, readonly string[]>();

function shared(value: string): string {
  const known = sharedStrings.get(value);
  if (known !== undefined) return known;
  if (sharedStrings.size < MAX_SHARED) sharedStrings.set(value, value);
  return value;
}

/** The expiry as it was remembered. */
const expiryOf = (offer: KeptOffer): string => offer.expiresAt ?? new Date(offer.expiresAtMs).toISOString();

function sharedList(values: string[]): string[] {
  const key = values.join('\u0000');
  const known = sharedLists.get(key);
  if (known !== undefined) return known as string[];
  const list = Object.freeze(values.map(shared));
  if (sharedLists.size < MAX_SHARED) sharedLists.set(key, list);
  return list as string[];
}

function kept(terms: OfferTerms): KeptOffer {
  const expiresAtMs = Date.parse(terms.expiresAt);
  const offer: KeptOffer = {
    expiresAtMs,
    amountFrom: terms.amountFrom,
    amountExpectedTo: terms.amountExpectedTo,
    country: shared(terms.country),
    paymentMethods: sharedList(terms.paymentMethods),
  };
  // Absent terms are left out (no empty objects spread in for them: this runs for every offer).
  if (!Number.isFinite(expiresAtMs) || new Date(expiresAtMs).toISOString() !== terms.expiresAt) offer.expiresAt = terms.expiresAt;
  if (terms.state !== undefined) offer.state = shared(terms.state);
  if (terms.paymentMethod !== undefined) offer.paymentMethod = shared(terms.paymentMethod);
  // Not shared: fees vary with every amount, and would crowd the bounded table of shared values.
  if (terms.totalFeeAmount !== undefined) offer.totalFeeAmount = terms.totalFeeAmount;
  if (terms.ip !== undefined) offer.ip = terms.ip;
  return offer;
}

/** Keys the memory store keeps at most (least recently used dropped first). */
export const MAX_KEYS = 100_000;
/**
 * Offers the memory store keeps at most, over all its keys: a key holds up to MAX_OFFERS_PER_KEY, so
 * a bound on keys alone would let it hold 1.6 million (some 250 MB); least recently used keys are
 * dropped first. Twice the keys: an offers request for a new amount adds one key per provider.
 */
export const MAX_OFFERS = 200_000;

export interface MemoryOfferStoreLimits {
  maxKeys?: number;
  maxOffers?: number;
}

/**
 * What the memory store's remember answers: one promise for every offer, already resolved, which a
 * caller need not wait for (the offers service waits only for the others).
 */
export const REMEMBERED: Promise<void> = Promise.resolve();

/** A key's offers: most keys have one, kept without a list around it. */
type KeptOffers = KeptOffer | KeptOffer[];

const listOf = (offers: KeptOffers | undefined): KeptOffer[] => (offers === undefined ? [] : Array.isArray(offers) ? offers : [offers]);

export class MemoryOfferStore implements OfferStore {
  private readonly cache: LRUCache<string, KeptOffers>;

  constructor(
    private readonly now: () => number = Date.now,
    limits: MemoryOfferStoreLimits = {},
  ) {
    const maxOffers = limits.maxOffers ?? MAX_OFFERS;
    this.cache = new LRUCache<string, KeptOffers>({
      max: limits.maxKeys ?? MAX_KEYS,
      // Bounded by offers as well as keys: each key weighs its number of offers.
      maxSize: maxOffers,
      sizeCalculation: (offers) => (Array.isArray(offers) ? Math.max(offers.length, 1) : 1),
      ttl: 60 * 60_000,
    });
  }

  /** Keys and offers held now (its memory bound is on both). */
  get held(): { keys: number; offers: number } {
    return { keys: this.cache.size, offers: this.cache.calculatedSize };
  }

  remember(terms: OfferTerms): Promise<void> {
    const key = offerKey(terms);
    const now = this.now();
    const known = this.cache.get(key);
    if (known === undefined || (!Array.isArray(known) && !(known.expiresAtMs > now))) {
      // The common case, a key with no live offer: the new one kept bare, without a list made for it.
      const offer = kept(terms);
      this.cache.set(key, offer, { ttl: Math.max(Math.max(0, offer.expiresAtMs) - now, 1) });
      return REMEMBERED;
    }
    // Here a bare offer is live (a dead one was replaced above).
    const offers = Array.isArray(known) ? known.filter((o) => o.expiresAtMs > now) : [known];
    offers.push(kept(terms));
    if (offers.length > MAX_OFFERS_PER_KEY) offers.splice(0, offers.length - MAX_OFFERS_PER_KEY);
    let latest = 0;
    for (const offer of offers) latest = Math.max(latest, offer.expiresAtMs);
    this.cache.set(key, offers.length === 1 ? offers[0]! : offers, { ttl: Math.max(latest - now, 1) });
    return REMEMBERED;
  }

  findLive(query: LiveOfferQuery): Promise<OfferTerms | undefined> {
    const candidates = listOf(this.cache.get(offerKey(query)));
    const offer = candidates.find((o) => matchesAt(o, o.expiresAtMs, query, this.now()));
    if (!offer) return Promise.resolve(undefined);
    const { expiresAtMs: _ms, expiresAt: _text, paymentMethods, ...rest } = offer;
    const { side, integratorId, externalUserId, providerCode, fromCurrency, toCurrency } = query;
    return Promise.resolve({
      ...(side === undefined ? {} : { side }),
      integratorId,
      externalUserId,
      providerCode,
      fromCurrency,
      toCurrency,
      expiresAt: expiryOf(offer),
      ...rest,
      paymentMethods: [...paymentMethods],
    });
  }
}
