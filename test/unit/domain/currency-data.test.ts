/**
 * The checked-in currency dictionary as data: its IDs against the committed snapshot of every ID
 * ever published, fiat precision against ISO 4217 (dinero.js), crypto precision, network and
 * contract against @bitgo/statics.
 */
import { coins } from '@bitgo/statics';
import * as dinero from 'dinero.js';
import { isAddress } from 'viem';
import publishedIds from '../../fixtures/currency-ids.json';
import { currencyDictionary } from '../../../src/domain/currencies';
import { CurrencySchema, type Currency } from '../../../src/domain/currency';

interface PublishedId {
  id: number;
  ticker: string;
  network: string | null;
  currency_type: 'fiat' | 'crypto';
}

const all = currencyDictionary.currencies;
const fiat = all.filter((c) => c.currency_type === 'fiat');
const crypto = all.filter((c) => c.currency_type === 'crypto');
const snapshot = publishedIds as PublishedId[];
const key = (c: Pick<Currency, 'ticker' | 'network'>): string => `${c.ticker}/${c.network ?? ''}`;

const APPEND_HINT =
  'Currency IDs are published to integrators and must never change meaning or be reused. ' +
  'Add a currency by appending it to src/domain/data/currencies.json with the next unused ID ' +
  '(above every ID in test/fixtures/currency-ids.json), then append ' +
  '{"id", "ticker", "network" (null for fiat), "currency_type"} to test/fixtures/currency-ids.json. ' +
  'Never edit or remove a snapshot row.';

/** The broker's network codes and the @bitgo/statics coin family each one corresponds to. */
const NETWORK_FAMILY: Record<string, string> = {
  bitcoin: 'btc',
  ethereum: 'eth',
  tron: 'trx',
  solana: 'sol',
  polygon: 'polygon',
  bsc: 'bsc',
  base: 'baseeth',
  arbitrum: 'arbeth',
  optimism: 'opeth',
  avalanche: 'avaxc',
  litecoin: 'ltc',
  dogecoin: 'doge',
  bitcoin_cash: 'bch',
  ripple: 'xrp',
  ton: 'ton',
  cardano: 'ada',
  stellar: 'xlm',
  polkadot: 'dot',
  cosmos: 'atom',
  ethereum_classic: 'etc',
  algorand: 'algo',
  tezos: 'xtz',
  dash: 'dash',
  zcash: 'zec',
};

/** EVM networks: contracts are 0x addresses, stored in their EIP-55 checksummed form. */
const EVM_NETWORKS = new Set(['ethereum', 'polygon', 'bsc', 'base', 'arbitrum', 'optimism', 'avalanche']);

/**
 * Our `TICKER/network` to the @bitgo/statics coin name. Native coins use the chain's coin; tokens
 * the token on that chain. BitGo names Ethereum ERC-20s without a prefix (`usdt`, `usdc`, `link`,
 * `mcdai` for multi-collateral DAI), other chains' tokens as `<chain>:<token>`; `usdcv2` is
 * Circle's native USDC where BitGo's `usdc` on that chain is the older bridged USDC.e.
 */
const BITGO_COIN: Record<string, string> = {
  'BTC/bitcoin': 'btc',
  'ETH/ethereum': 'eth',
  'ETH/base': 'baseeth',
  'ETH/arbitrum': 'arbeth',
  'ETH/optimism': 'opeth',
  'SOL/solana': 'sol',
  'TRX/tron': 'trx',
  'LTC/litecoin': 'ltc',
  'POL/polygon': 'polygon',
  'BNB/bsc': 'bsc',
  'AVAX/avalanche': 'avaxc',
  'XRP/ripple': 'xrp',
  'DOGE/dogecoin': 'doge',
  'TON/ton': 'ton',
  'ADA/cardano': 'ada',
  'XLM/stellar': 'xlm',
  'DOT/polkadot': 'dot',
  'ATOM/cosmos': 'atom',
  'BCH/bitcoin_cash': 'bch',
  'ETC/ethereum_classic': 'etc',
  'ALGO/algorand': 'algo',
  'XTZ/tezos': 'xtz',
  'DASH/dash': 'dash',
  'ZEC/zcash': 'zec',
  'USDT/ethereum': 'usdt',
  'USDT/tron': 'trx:usdt',
  'USDT/solana': 'sol:usdt',
  'USDT/polygon': 'polygon:usdt',
  'USDT/bsc': 'bsc:usdt',
  'USDT/arbitrum': 'arbeth:usdt',
  'USDT/optimism': 'opeth:usdt',
  'USDT/avalanche': 'avaxc:usdt',
  'USDT/ton': 'ton:usdt',
  'USDC/ethereum': 'usdc',
  'USDC/solana': 'sol:usdc',
  'USDC/polygon': 'polygon:usdcv2',
  'USDC/bsc': 'bsc:usdc',
  'USDC/base': 'baseeth:usdc',
  'USDC/arbitrum': 'arbeth:usdcv2',
  'USDC/optimism': 'opeth:usdcv2',
  'USDC/avalanche': 'avaxc:usdc',
  'DAI/ethereum': 'mcdai',
  'LINK/ethereum': 'link',
  'WBTC/ethereum': 'wbtc',
  'UNI/ethereum': 'uni',
  'AAVE/ethereum': 'aave',
};

/** ISO 4217 exponents from dinero.js (which tracks the ISO 4217 list), by code. */
const ISO_4217 = new Map<string, number>(
  Object.values(dinero as Record<string, unknown>)
    .filter(
      (v): v is { code: string; base: number; exponent: number } => typeof v === 'object' && v !== null && 'code' in v && 'exponent' in v,
    )
    .map((c) => [c.code, c.exponent]),
);

describe('currency IDs never change meaning and are never reused', () => {
  const snapshotMax = Math.max(...snapshot.map((s) => s.id));

  test('the snapshot itself is well formed: unique positive integer ids', () => {
    const ids = snapshot.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(Number.isInteger(id) && id > 0).toBe(true);
  });

  test('every published id still exists with the same ticker, network and type', () => {
    const problems = snapshot.flatMap((s) => {
      const c = currencyDictionary.get(s.id);
      if (!c) return [`id ${s.id} (${s.ticker}/${s.network ?? 'fiat'}) was removed`];
      const now = { ticker: c.ticker, network: c.network ?? null, currency_type: c.currency_type };
      const then = { ticker: s.ticker, network: s.network, currency_type: s.currency_type };
      return JSON.stringify(now) === JSON.stringify(then) ? [] : [`id ${s.id} was ${JSON.stringify(then)}, is now ${JSON.stringify(now)}`];
    });
    if (problems.length > 0) throw new Error(`${problems.join('\n')}\n\n${APPEND_HINT}`);
  });

  test('every id not in the snapshot is above the snapshot maximum, and the snapshot is up to date', () => {
    const published = new Set(snapshot.map((s) => s.id));
    const unpublished = all.filter((c) => !published.has(c.id));
    const backFilled = unpublished.filter((c) => c.id <= snapshotMax);
    if (backFilled.length > 0) {
      throw new Error(
        `ids ${backFilled.map((c) => `${c.id} (${key(c)})`).join(', ')} are at or below ${snapshotMax}, ` +
          `the highest published id: an id that was once published may have been reused.\n\n${APPEND_HINT}`,
      );
    }
    if (unpublished.length > 0) {
      throw new Error(`ids ${unpublished.map((c) => `${c.id} (${key(c)})`).join(', ')} are missing from the snapshot.\n\n${APPEND_HINT}`);
    }
  });

  test('ids are unique positive integers', () => {
    const ids = all.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(Number.isInteger(id) && id > 0).toBe(true);
  });
});

describe('coverage', () => {
  test('at least 30 fiat currencies and 40 crypto assets', () => {
    expect(fiat.length).toBeGreaterThanOrEqual(30);
    expect(crypto.length).toBeGreaterThanOrEqual(40);
  });

  test.each([
    'BTC/bitcoin',
    'ETH/ethereum',
    'SOL/solana',
    'TRX/tron',
    'LTC/litecoin',
    'DOGE/dogecoin',
    'XRP/ripple',
    'TON/ton',
    'BNB/bsc',
    'POL/polygon',
    'AVAX/avalanche',
    'ADA/cardano',
    ...['ethereum', 'tron', 'solana', 'polygon', 'bsc', 'arbitrum'].map((n) => `USDT/${n}`),
    ...['ethereum', 'solana', 'polygon', 'bsc', 'base', 'arbitrum'].map((n) => `USDC/${n}`),
  ])('has %s', (wanted) => {
    expect(all.map(key)).toContain(wanted);
  });

  test('every icon_url is https', () => {
    for (const c of all) expect(new URL(c.icon_url).protocol).toBe('https:');
  });
});

describe('fiat: ISO 4217', () => {
  test('dinero.js currency data is loaded', () => {
    expect(ISO_4217.get('USD')).toBe(2);
    expect(ISO_4217.size).toBeGreaterThan(150);
  });

  test.each(fiat.map((c) => [c.ticker, c] as const))('%s precision is its ISO 4217 minor unit', (ticker, c) => {
    expect(ISO_4217.has(ticker)).toBe(true);
    expect(c.precision).toBe(ISO_4217.get(ticker));
  });

  test.each(fiat.map((c) => [c.ticker] as const))('%s is a currency Intl knows by name', (ticker) => {
    // Intl's fraction digits are a display convention (HUF, TWD, COP, IDR differ from ISO 4217), so
    // Intl is used only to confirm the code is a real, current currency with a display name.
    const name = new Intl.DisplayNames('en', { type: 'currency', fallback: 'none' }).of(ticker);
    expect(name).toBeDefined();
    expect(name).not.toBe(ticker);
  });

  test('known minor units: JPY, KRW, VND, CLP, ISK 0; HUF, TWD 2; KWD, BHD 3', () => {
    const precision = (t: string): number | undefined => fiat.find((c) => c.ticker === t)?.precision;
    for (const t of ['JPY', 'KRW', 'VND', 'CLP', 'ISK']) expect(precision(t)).toBe(0);
    for (const t of ['HUF', 'TWD', 'USD', 'EUR']) expect(precision(t)).toBe(2);
    for (const t of ['KWD', 'BHD']) expect(precision(t)).toBe(3);
  });

  test('fiat icons are flagcdn flags', () => {
    for (const c of fiat) expect(c.icon_url).toMatch(/^https:\/\/flagcdn\.com\/[a-z]{2}\.svg$/);
  });

  test('fiat entries carry no contract, and the schema refuses one', () => {
    for (const c of fiat) expect(c.contract).toBeUndefined();
    const usd = currencyDictionary.fiat(1);
    expect(CurrencySchema.safeParse({ ...usd, contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7' }).success).toBe(false);
  });
});

describe('crypto: cross-checked against @bitgo/statics', () => {
  test('the loaded dictionary keeps the contract field (the API serves the parsed entries)', () => {
    expect(currencyDictionary.crypto(16)?.contract).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(currencyDictionary.crypto(13)?.contract).toBeUndefined();
  });

  test('every crypto network is a known network', () => {
    for (const c of crypto) expect(Object.keys(NETWORK_FAMILY)).toContain(c.network);
  });

  test('every crypto entry has a row in the BitGo mapping, and every row has an entry', () => {
    const ours = crypto.map(key).sort();
    expect(Object.keys(BITGO_COIN).sort()).toEqual(ours);
  });

  test.each(crypto.map((c) => [key(c), c] as const))('%s matches BitGo', (k, c) => {
    const name = BITGO_COIN[k];
    if (name === undefined) throw new Error(`no BitGo coin mapped for ${k}: add it to BITGO_COIN`);
    expect(coins.has(name)).toBe(true);
    const coin = coins.get(name);
    expect(coin.network.type).toBe('mainnet');
    expect(coin.decimalPlaces).toBe(c.precision);
    expect(String(coin.family)).toBe(NETWORK_FAMILY[c.network as string]);

    const bitgoContract = 'contractAddress' in coin ? String(coin.contractAddress) : undefined;
    expect(coin.isToken).toBe(c.contract !== undefined);
    if (c.contract === undefined) return;
    expect(bitgoContract).toBeDefined();
    expect(c.contract.toLowerCase()).toBe(bitgoContract?.toLowerCase());
    if (EVM_NETWORKS.has(c.network as string)) {
      // stored EIP-55 checksummed, so a typo in the mixed case is caught
      expect(isAddress(c.contract, { strict: true })).toBe(true);
      expect(c.contract).not.toBe(c.contract.toLowerCase());
    } else {
      // base58 (Tron, Solana) and base64url (TON) addresses are case-sensitive
      expect(c.contract).toBe(bitgoContract);
    }
  });

  test('crypto icons come from the cryptocurrency-icons set', () => {
    for (const c of crypto) {
      expect(c.icon_url).toMatch(/^https:\/\/cdn\.jsdelivr\.net\/gh\/spothq\/cryptocurrency-icons@master\/svg\/color\/[a-z0-9]+\.svg$/);
    }
  });
});
