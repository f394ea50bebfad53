/**
 * Countries from ISO 3166-1 and their states from ISO 3166-2 (the iso-3166 package, not typed by
 * hand). A country lists `states` only where the broker requires a state: the United States, whose
 * providers price, license and restrict by state (docs/decisions.md, "Countries and states").
 */
import { iso31661, iso31662 } from 'iso-3166';
import { z } from 'zod';

export const StateSchema = z.object({
  /** The subdivision part of the ISO 3166-2 code: "NY" for US-NY. */
  code: z.string().regex(/^[A-Z0-9]{1,3}$/),
  name: z.string(),
});
export type State = z.infer<typeof StateSchema>;

/** A country of GET /api/dict/countries. */
export const CountrySchema = z.object({
  /** ISO 3166-1 alpha-2. */
  code: z.string().regex(/^[A-Z]{2}$/),
  name: z.string(),
  icon_url: z.url(),
  /** The states to choose from where the broker requires one (the US); empty elsewhere. */
  states: z.array(StateSchema),
});
export type Country = z.infer<typeof CountrySchema>;

/**
 * Countries where a state is required, and the ISO 3166-2 subdivisions that count as states:
 * the 50 US states and the District of Columbia. The outlying areas (PR, GU, VI, AS, MP, UM) have
 * country codes of their own and are addressed by those.
 */
const STATE_RULES: Readonly<Record<string, (subdivisionCode: string) => boolean>> = {
  US: (code) => !['US-AS', 'US-GU', 'US-MP', 'US-PR', 'US-UM', 'US-VI'].includes(code),
};

function statesOf(country: string): State[] {
  const rule = STATE_RULES[country];
  if (!rule) return [];
  return iso31662
    .filter((s) => s.parent === country && rule(s.code))
    .map((s) => ({ code: s.code.slice(country.length + 1), name: s.name }))
    .sort((a, b) => a.code.localeCompare(b.code));
}

export const COUNTRIES: readonly Country[] = iso31661
  .map((c) => ({
    code: c.alpha2,
    name: c.name,
    icon_url: `https://flagcdn.com/${c.alpha2.toLowerCase()}.svg`,
    states: statesOf(c.alpha2),
  }))
  .sort((a, b) => a.code.localeCompare(b.code));

const BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));

export function country(code: string): Country | undefined {
  return BY_CODE.get(code);
}

export function requiresState(code: string): boolean {
  return (BY_CODE.get(code)?.states.length ?? 0) > 0;
}

export function hasState(countryCode: string, stateCode: string): boolean {
  return BY_CODE.get(countryCode)?.states.some((s) => s.code === stateCode) ?? false;
}
