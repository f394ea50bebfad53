import { z } from 'zod';

export const NETWORK_PATTERN = /^[a-z0-9_]+$/;

export const CurrencySchema = z
  .object({
    id: z.number().int().positive(),
    ticker: z.string().regex(/^[A-Z0-9]{2,10}$/),
    network: z.string().regex(NETWORK_PATTERN).optional(),
    /** A token's contract address (EVM, Tron), mint (Solana) or jetton master (TON); absent for a network's native coin. */
    contract: z.string().min(1).optional(),
    currency_type: z.enum(['fiat', 'crypto']),
    precision: z.number().int().min(0).max(18),
    name: z.string().min(1),
    icon_url: z.url(),
  })
  .refine((c) => (c.currency_type === 'crypto') === (c.network !== undefined), {
    message: 'crypto currencies carry a network, fiat currencies do not',
    path: ['network'],
  })
  .refine((c) => c.contract === undefined || c.currency_type === 'crypto', {
    message: 'only crypto tokens carry a contract',
    path: ['contract'],
  });

export type Currency = z.infer<typeof CurrencySchema>;
export type FiatCurrency = Currency & { currency_type: 'fiat' };
export type CryptoCurrency = Currency & { currency_type: 'crypto'; network: string };

export const CurrencyFileSchema = z.object({ currencies: z.array(CurrencySchema).min(1) });

/** The broker's currency dictionary: integer IDs that never change and are never reused. */
export class CurrencyDictionary {
  private readonly byId = new Map<number, Currency>();

  constructor(readonly currencies: readonly Currency[]) {
    const keys = new Set<string>();
    for (const currency of currencies) {
      if (this.byId.has(currency.id)) throw new Error(`duplicate currency id ${currency.id}`);
      const key = `${currency.ticker}/${currency.network ?? 'fiat'}`;
      if (keys.has(key)) throw new Error(`duplicate currency ${key}`);
      keys.add(key);
      this.byId.set(currency.id, currency);
    }
  }

  static fromJson(json: unknown): CurrencyDictionary {
    return new CurrencyDictionary(CurrencyFileSchema.parse(json).currencies);
  }

  get(id: number): Currency | undefined {
    return this.byId.get(id);
  }

  fiat(id: number): FiatCurrency | undefined {
    const currency = this.byId.get(id);
    return currency?.currency_type === 'fiat' ? (currency as FiatCurrency) : undefined;
  }

  crypto(id: number): CryptoCurrency | undefined {
    const currency = this.byId.get(id);
    return currency?.currency_type === 'crypto' ? (currency as CryptoCurrency) : undefined;
  }
}
