import { randomBytes } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import BigNumber from 'bignumber.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { SimulatedBooks } from '../kit/books';
import { listWindow } from '../kit/listing';
import { methodLimits, quote } from '../kit/pricing';
import type { CoinbaseSimulatorCredentials } from './options';
import { COINBASE_ASSETS, COINBASE_PROFILE, COUNTRY_FIAT, findAsset, NOT_SOLD_IN } from './profile';
import { cdpPublicKey, checkCdpJwt } from './signing';
import { transactionJson, type SimTransaction } from './transactions';

/** CDP's error body. */
export function coinbaseError(res: Response, status: number, errorType: string, errorMessage: string): void {
  res.status(status).json({ errorType, errorMessage });
}

/** A session token: the addresses and assets it allows, until it is redeemed (once) or 5 minutes pass. */
export interface SimSession {
  token: string;
  createdAt: number;
  addresses: { address: string; blockchains: string[] }[];
  assets: string[];
  clientIp: string | null;
}

export const SESSION_TOKEN_TTL_MS = 5 * 60 * 1000;
const DECIMAL = /^\d+(\.\d{1,2})?$/;
/** The list's page size when none is asked, and the most it takes (Coinbase: 1 to 1000). */
const LIST_PAGE_MAX = 1000;
const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** The place's buy options: its own fiat with each method's limits, and the assets sold there. */
function buyOptions(country: string) {
  const fiat = COUNTRY_FIAT[country]!;
  const methods = COINBASE_PROFILE.paymentMethods.filter((m) => !m.fiat || m.fiat.includes(fiat));
  return {
    paymentCurrencies: [
      {
        id: fiat,
        limits: methods.map((m) => {
          const { min, max } = methodLimits(m, fiat);
          return { id: m.code, min: min.toFixed(2), max: max.toFixed(2) };
        }),
      },
    ],
    purchaseCurrencies: COINBASE_ASSETS.filter((a) => !(NOT_SOLD_IN[a.symbol] ?? []).includes(country)).map((a) => ({
      id: a.id,
      name: a.name,
      symbol: a.symbol,
      iconUrl: `https://example.invalid/coinbase/${a.symbol.toLowerCase()}.png`,
      networks: a.networks,
    })),
  };
}

/** Coinbase's Onramp API under /onramp/v1, every call authenticated by a CDP JWT. */
export class CoinbaseApi {
  readonly router = express.Router();
  private readonly publicKey: KeyObject;

  constructor(
    private readonly transactions: ReadonlyMap<string, SimTransaction>,
    private readonly sessions: Map<string, SimSession>,
    private readonly credentials: CoinbaseSimulatorCredentials,
    private readonly books: SimulatedBooks,
  ) {
    this.publicKey = cdpPublicKey(credentials.apiKeySecret);
    const router = this.router;
    router.use('/onramp/v1', (req, res, next) => void this.authenticate(req, res, next));
    router.get('/onramp/v1/buy/config', (_req, res) => void res.json(this.buyConfig()));
    router.get('/onramp/v1/buy/options', (req, res) => this.options(req, res));
    router.post('/onramp/v1/buy/quote', express.json({ limit: '16kb' }), (req, res) => this.quote(req, res));
    router.post('/onramp/v1/token', express.json({ limit: '16kb' }), (req, res) => this.token(req, res));
    router.get('/onramp/v1/buy/user/:ref/transactions', (req, res) => this.byRef(req, res));
    router.get('/onramp/v1/buy/transactions', (req, res) => this.list(req, res));
  }

  private async authenticate(req: Request, res: Response, next: NextFunction): Promise<void> {
    const path = req.originalUrl.split('?')[0]!;
    const check = await checkCdpJwt(req.header('authorization'), this.credentials.apiKeyId, this.publicKey, {
      method: req.method,
      host: req.header('host') ?? '',
      path,
    });
    if (check.ok) return next();
    coinbaseError(res, 401, 'unauthorized', `Unauthorized: ${check.message}`);
  }

  private buyConfig() {
    return {
      countries: COINBASE_PROFILE.countries.map((id) => ({
        id,
        subdivisions: [...(COINBASE_PROFILE.states?.[id] ?? [])],
        paymentMethods: COINBASE_PROFILE.paymentMethods
          .filter((m) => !m.fiat || m.fiat.includes(COUNTRY_FIAT[id]!))
          .map((m) => ({ id: m.code })),
      })),
    };
  }

  /** The place's problem, if Coinbase does not serve it: unknown country, or a US state not served (the subdivision is required there). */
  private placeProblem(country: string, subdivision: string): string | undefined {
    if (!COINBASE_PROFILE.countries.includes(country)) return `country ${country || '(none)'} is not supported`;
    const states = COINBASE_PROFILE.states?.[country];
    if (states && !states.includes(subdivision)) return `subdivision ${subdivision || '(none)'} of ${country} is not supported`;
    return undefined;
  }

  private options(req: Request, res: Response): void {
    const country = str(req.query.country);
    const problem = this.placeProblem(country, str(req.query.subdivision));
    if (problem) return coinbaseError(res, 400, 'invalid_request', problem);
    res.json(buyOptions(country));
  }

  private quote(req: Request, res: Response): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const country = str(body.country);
    const problem = this.placeProblem(country, str(body.subdivision));
    if (problem) return coinbaseError(res, 400, 'invalid_request', problem);
    const asset = findAsset(str(body.purchaseCurrency));
    const network = str(body.purchaseNetwork) || asset?.networks[0]?.name || '';
    const amount = str(body.paymentAmount);
    if (!asset || !DECIMAL.test(amount))
      return coinbaseError(res, 400, 'invalid_request', 'purchaseCurrency and paymentAmount are required');
    if ((NOT_SOLD_IN[asset.symbol] ?? []).includes(country)) {
      return coinbaseError(res, 400, 'invalid_request', `${asset.symbol} is not available in ${country}`);
    }
    const fiat = str(body.paymentCurrency).toUpperCase();
    const priced = quote(COINBASE_PROFILE, {
      fiat,
      crypto: asset.symbol,
      network,
      fiatAmount: amount,
      paymentMethod: str(body.paymentMethod) || 'CARD',
    });
    if (!priced.ok) return coinbaseError(res, 400, 'invalid_request', priced.message);
    const money = (value: string, currency: string) => ({ value, currency });
    const subtotal = (Number(amount) - Number(priced.processingFee) - Number(priced.networkFee)).toFixed(2);
    res.json({
      paymentTotal: money(Number(amount).toFixed(2), fiat),
      paymentSubtotal: money(subtotal, fiat),
      purchaseAmount: money(priced.cryptoAmount, asset.symbol),
      coinbaseFee: money(priced.processingFee, fiat),
      networkFee: money(priced.networkFee, fiat),
      quoteId: `${randomBytes(16).toString('hex')}`,
    });
  }

  private token(req: Request, res: Response): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const addresses = Array.isArray(body.addresses) ? body.addresses : [];
    const valid = addresses.every(
      (a: unknown) =>
        typeof a === 'object' &&
        a !== null &&
        typeof (a as { address?: unknown }).address === 'string' &&
        Array.isArray((a as { blockchains?: unknown }).blockchains) &&
        (a as { blockchains: unknown[] }).blockchains.every((b) => typeof b === 'string'),
    );
    if (addresses.length === 0 || !valid) return coinbaseError(res, 400, 'invalid_request', 'addresses is required');
    const assets = Array.isArray(body.assets) ? body.assets.filter((a): a is string => typeof a === 'string') : [];
    const token = randomBytes(24).toString('base64url');
    this.sessions.set(token, {
      token,
      createdAt: Date.now(),
      addresses: addresses as SimSession['addresses'],
      assets,
      clientIp: typeof body.clientIp === 'string' ? body.clientIp : null,
    });
    res.json({ token, channel_id: '' });
  }

  /**
   * The list of all buy transactions: `startDate` and `endDate` (dates or RFC 3339 instants, both
   * included; a date alone as the end is its whole day), `pageSize` (1 to 1000, 1000 by default)
   * and `pageKey`, the `nextPageKey` of the page before; newest first. What the books switches change
   * shows here only.
   */
  private list(req: Request, res: Response): void {
    const window = listWindow(req.query.startDate, req.query.endDate);
    const size = req.query.pageSize === undefined ? LIST_PAGE_MAX : Number(req.query.pageSize);
    const after = req.query.pageKey === undefined || req.query.pageKey === '' ? null : readPageKey(req.query.pageKey);
    if (!window || !Number.isInteger(size) || size < 1 || size > LIST_PAGE_MAX || after === undefined) {
      return coinbaseError(res, 400, 'invalid_request', 'startDate, endDate, pageSize (1-1000) or pageKey is invalid');
    }
    const listed = [...this.transactions.values()]
      .filter((tx) => window.holds(tx.createdAt) && !this.books.drops(tx.partnerUserRef))
      .map((tx) => ({ tx, at: Date.parse(tx.createdAt) }))
      .filter(({ tx, at }) => after === null || at < after.at || (at === after.at && tx.transactionId < after.id))
      .sort((a, b) => b.at - a.at || (a.tx.transactionId < b.tx.transactionId ? 1 : -1));
    const page = listed.slice(0, size);
    const last = page.at(-1);
    res.json({
      transactions: page.map(({ tx }) => this.booked(tx)),
      nextPageKey: listed.length > size && last ? pageKeyOf(last.at, last.tx.transactionId) : '',
    });
  }

  /** The transaction as the list shows it, with the books switches of its order applied. */
  private booked(tx: SimTransaction) {
    const json = transactionJson(tx);
    const switches = this.books.of(tx.partnerUserRef);
    if (switches?.status) json.status = switches.status as SimTransaction['status'];
    if (switches?.fiatAmount) {
      // paymentTotal is what the customer paid, fees included: the fees stay, the subtotal takes the difference.
      const money = (value: string) => ({ value, currency: tx.fiat });
      json.paymentTotal = money(switches.fiatAmount);
      json.paymentTotalUsd = money(switches.fiatAmount);
      json.paymentSubtotal = money(new BigNumber(switches.fiatAmount).minus(tx.coinbaseFee).minus(tx.networkFee).toFixed());
    }
    return json;
  }

  private byRef(req: Request, res: Response): void {
    const ref = String(req.params.ref);
    const found = [...this.transactions.values()]
      .filter((tx) => tx.partnerUserRef === ref)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const size = Math.max(1, Math.min(1000, Number(req.query.pageSize) || 1));
    res.json({ transactions: found.slice(0, size).map(transactionJson), nextPageKey: '', totalCount: String(found.length) });
  }
}

/**
 * The list's page key: base64 of JSON, as Coinbase's look, naming the last transaction of the page
 * (its creation time and id), so the next page starts after it however many transactions are made
 * meanwhile.
 */
function pageKeyOf(at: number, id: string): string {
  return Buffer.from(JSON.stringify({ at, id })).toString('base64');
}

/** The transaction a page key names; undefined for a key this simulator did not give. */
function readPageKey(key: unknown): { at: number; id: string } | undefined {
  if (typeof key !== 'string' || key.length > 200) return undefined;
  try {
    const value = JSON.parse(Buffer.from(key, 'base64').toString('utf8')) as { at?: unknown; id?: unknown };
    return Number.isSafeInteger(value.at) && typeof value.id === 'string' ? { at: value.at as number, id: value.id } : undefined;
  } catch {
    return undefined;
  }
}
