/**
 * The levels outcome statistics are kept at, most specific first: provider × country × payment
 * method, provider × payment method, provider, and `*` (every provider). An outcome is folded into
 * every level it has the fields for; an estimate falls back from the most specific toward `*`.
 * Keys join the parts with `|`, which no provider, country or method code contains.
 */

export const ALL_PROVIDERS_KEY = '*';

export type LevelKind = 'provider_country_method' | 'provider_method' | 'provider' | 'all';

export interface Level {
  key: string;
  kind: LevelKind;
}

/** The levels for a provider, a country and a payment method (either may be unknown), most specific first. */
export function levelsOf(providerCode: string, country: string | undefined, paymentMethod: string | undefined): Level[] {
  const levels: Level[] = [];
  if (paymentMethod !== undefined) {
    if (country !== undefined) levels.push({ key: `${providerCode}|${country}|${paymentMethod}`, kind: 'provider_country_method' });
    levels.push({ key: `${providerCode}|${paymentMethod}`, kind: 'provider_method' });
  }
  levels.push({ key: providerCode, kind: 'provider' }, { key: ALL_PROVIDERS_KEY, kind: 'all' });
  return levels;
}
