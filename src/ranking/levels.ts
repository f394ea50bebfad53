/**
 * The levels outcome statistics are kept at, most specific first: provider × country × payment
 * method, provider × payment method, provider, and `*` (every provider). An outcome is folded into
 * every level it has the fields for; an estimate falls back from the most specific toward `*`.
 * Keys join the parts with `|`, which no provider, country or method code contains.
 *
 * Each outcome is folded twice: into these shared levels (every integrator's orders) and into the
 * same levels under its integrator, keyed `@<integrator id>|<level key>`. No provider code starts
 * with `@` (nor does `*`), and an integrator id with a `|` is never keyed (config allows none), so
 * the first `|` ends the id: the memory and Redis stores hold both sets in one map or hash.
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

const INTEGRATOR_MARK = '@';

/** Whether an integrator's levels can be keyed under `id` without ambiguity. */
export function isKeyableIntegrator(id: string | undefined): id is string {
  return id !== undefined && id.length > 0 && !id.includes('|');
}

/** A level's key under an integrator (the same level, that integrator's orders only). */
export function integratorLevelKey(integratorId: string, levelKey: string): string {
  return `${INTEGRATOR_MARK}${integratorId}|${levelKey}`;
}

/** The integrator and the level of an integrator's level key; undefined for a shared level's key. */
export function splitIntegratorKey(key: string): { integratorId: string; levelKey: string } | undefined {
  if (!key.startsWith(INTEGRATOR_MARK)) return undefined;
  const bar = key.indexOf('|');
  if (bar <= 1 || bar === key.length - 1) return undefined;
  return { integratorId: key.slice(1, bar), levelKey: key.slice(bar + 1) };
}
