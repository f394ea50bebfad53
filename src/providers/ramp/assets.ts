import type { Currency } from '../../domain/currency';
import { RAMP_CHAIN_NETWORKS } from './codes';
import type { RampAsset } from './schemas';

const NATIVE_ADDRESS = /^(0x0{40})?$/i;

function sameContract(ours: string, theirs: string): boolean {
  return ours.startsWith('0x') ? ours.toLowerCase() === theirs.toLowerCase() : ours === theirs;
}

/** Whether a Ramp asset is this broker currency: same network, same ticker, and the same token contract. */
export function matchesAsset(currency: Currency, asset: Pick<RampAsset, 'chain' | 'symbol' | 'address'>): boolean {
  if (currency.currency_type !== 'crypto' || currency.ticker !== asset.symbol || currency.network !== RAMP_CHAIN_NETWORKS[asset.chain]) {
    return false;
  }
  const address = asset.address ?? '';
  return currency.contract === undefined ? NATIVE_ADDRESS.test(address) : address !== '' && sameContract(currency.contract, address);
}
