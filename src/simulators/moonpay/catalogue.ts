/** The simulated MoonPay's `GET /v3/currencies` and `GET /v3/countries` answers, built from its profile. */
import BigNumber from 'bignumber.js';
import { iso31661, iso31662 } from 'iso-3166';
import { v5 as uuidv5 } from 'uuid';
import { methodLimits } from '../kit/pricing';
import { US_STATES, type SimulatorProfile } from '../kit/profile';
import { MOONPAY_ASSETS, MOONPAY_REFUSED_COUNTRIES, type SimulatedAsset } from './profile';
import { sellTerms } from './sell-terms';

const ID_NAMESPACE = '2b0c4d6e-8f10-5a2b-9c3d-4e5f60718293';
const LISTED_SINCE = '2019-05-17T18:24:45.206Z';
const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency' });

/** Stable ids, as MoonPay's never change between calls. */
export const currencyId = (code: string) => uuidv5(`currency:${code}`, ID_NAMESPACE);

/** A fiat currency's buy limits: the widest range of the payment methods that take it. */
function fiatLimits(profile: SimulatorProfile, fiat: string): { min: BigNumber; max: BigNumber } | undefined {
  const ranges = profile.paymentMethods.filter((m) => !m.fiat || m.fiat.includes(fiat)).map((m) => methodLimits(m, fiat));
  if (ranges.length === 0) return undefined;
  return {
    min: BigNumber.min(...ranges.map((r) => r.min)),
    max: BigNumber.max(...ranges.map((r) => r.max)),
  };
}

export function fiatCurrency(profile: SimulatorProfile, code: string) {
  const limits = fiatLimits(profile, code);
  return {
    id: currencyId(code.toLowerCase()),
    createdAt: LISTED_SINCE,
    updatedAt: LISTED_SINCE,
    type: 'fiat',
    name: currencyNames.of(code) ?? code,
    code: code.toLowerCase(),
    precision: 2,
    decimals: null,
    minBuyAmount: limits ? limits.min.toNumber() : null,
    maxBuyAmount: limits ? limits.max.toNumber() : null,
    isSellSupported: true,
  };
}

export function cryptoCurrency(asset: SimulatedAsset) {
  return {
    id: currencyId(asset.code),
    createdAt: LISTED_SINCE,
    updatedAt: LISTED_SINCE,
    type: 'crypto',
    name: asset.name,
    code: asset.code,
    precision: 4,
    decimals: asset.contractAddress ? 6 : 8,
    minBuyAmount: null,
    maxBuyAmount: null,
    supportsAddressTag: false,
    supportsTestMode: asset.supportsTestMode,
    supportsLiveMode: true,
    isSuspended: false,
    isSupportedInUS: !(asset.notAllowedCountries ?? []).includes('US'),
    ...sellTerms(asset),
    notAllowedCountries: [...(asset.notAllowedCountries ?? [])],
    notAllowedUSStates: [...(asset.notAllowedUSStates ?? [])],
    metadata: { contractAddress: asset.contractAddress ?? null, chainId: asset.chainId ?? null, networkCode: asset.networkCode },
  };
}

export function currenciesAnswer(profile: SimulatorProfile) {
  return [...MOONPAY_ASSETS.map(cryptoCurrency), ...profile.fiat.map((code) => fiatCurrency(profile, code))];
}

function country(alpha2: string, served: boolean, servedStates?: readonly string[]) {
  const entry = iso31661.find((c) => c.alpha2 === alpha2);
  return {
    alpha2,
    alpha3: entry?.alpha3 ?? alpha2,
    name: entry?.name ?? alpha2,
    isAllowed: served,
    isBuyAllowed: served,
    isSellAllowed: served,
    supportedDocuments: served ? ['passport', 'national_identity_card', 'driving_licence'] : [],
    ...(servedStates
      ? {
          states: US_STATES.map((code) => ({
            code,
            name: iso31662.find((s) => s.code === `${alpha2}-${code}`)?.name ?? code,
            isAllowed: servedStates.includes(code),
            isBuyAllowed: servedStates.includes(code),
            isSellAllowed: servedStates.includes(code),
          })),
        }
      : {}),
  };
}

export function countriesAnswer(profile: SimulatorProfile) {
  return [
    ...profile.countries.map((code) => country(code, true, profile.states?.[code])),
    ...MOONPAY_REFUSED_COUNTRIES.map((code) => country(code, false)),
  ];
}
