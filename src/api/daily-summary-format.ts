/**
 * The answers of GET /api/operator/summaries/daily: the summary (src/operators/daily-summary.ts) as
 * JSON, or as CSV with one record per integrator, provider and fiat currency. Pure functions.
 */
import type { SummaryFigures, SummaryRow } from '../domain/daily-summary';
import type { CurrencyDictionary } from '../domain/currency';
import type { DailySummary } from '../operators/daily-summary';
import { csvField } from './order-export-format';
import type { DailySummaryBody, DailySummaryFiguresBody } from './schemas';

export const SUMMARY_FORMATS = ['json', 'csv'] as const;
export type SummaryFormat = (typeof SUMMARY_FORMATS)[number];

export const SUMMARY_CSV_CONTENT_TYPE = 'text/csv; charset=utf-8; header=present';

/** The CSV columns, in order: the row's keys, then its counts, then its amounts. */
export const SUMMARY_CSV_COLUMNS = [
  'date',
  'integrator_id',
  'provider_code',
  'fiat_currency',
  'fiat_currency_code',
  'orders',
  'completed',
  'failed',
  'expired',
  'refunded',
  'open',
  'completed_volume',
  'quoted_fees',
  'completed_with_discrepancies',
  'completed_without_quoted_fee',
  'crypto_delivered',
] as const;

/** A currency as the summary names it: its ticker, with the network for a crypto currency (USDT on two networks is two). */
function tickerOf(currencies: CurrencyDictionary, id: number): { code: string | null; network: string | null } {
  const currency = currencies.get(id);
  return { code: currency?.ticker ?? null, network: currency?.network ?? null };
}

function figuresBody(figures: SummaryFigures, currencies: CurrencyDictionary): DailySummaryFiguresBody {
  return {
    fiat_currency: figures.fiatCurrency,
    fiat_currency_code: tickerOf(currencies, figures.fiatCurrency).code,
    orders: figures.orders,
    completed: figures.completed,
    failed: figures.failed,
    expired: figures.expired,
    refunded: figures.refunded,
    open: figures.open,
    completed_volume: figures.completedVolume,
    quoted_fees: figures.quotedFees,
    completed_with_discrepancies: figures.completedWithDiscrepancies,
    completed_without_quoted_fee: figures.completedWithoutQuotedFee,
    crypto_delivered: figures.cryptoDelivered.map(({ currency, amount }) => {
      const { code, network } = tickerOf(currencies, currency);
      return { currency, currency_code: code, network, amount };
    }),
  };
}

/** The JSON answer: the summary's window, when it was read, its filters, its rows and its totals per fiat currency. */
export function summaryBody(summary: DailySummary, integratorId: string | undefined, currencies: CurrencyDictionary): DailySummaryBody {
  return {
    date: summary.date,
    from: new Date(summary.fromMs).toISOString(),
    to: new Date(summary.toMs).toISOString(),
    generated_at: new Date(summary.generatedAtMs).toISOString(),
    integrator_id: integratorId ?? null,
    provider_codes: summary.providerCodes,
    rows: summary.rows.map((row: SummaryRow) => ({
      integrator_id: row.integratorId,
      provider_code: row.providerCode,
      ...figuresBody(row, currencies),
    })),
    totals: summary.totals.map((total) => figuresBody(total, currencies)),
  };
}

const csvRecord = (fields: readonly string[]) => `${fields.map(csvField).join(',')}\r\n`;

/**
 * The CSV answer (RFC 4180, CRLF, a header record): one record per row of the summary, currencies
 * by ticker (and id), amounts as decimal strings, the crypto delivered as `TICKER/network amount`
 * pairs separated by `; ` (`#id amount` for a currency the dictionary does not have). Every cell goes through the export's guard: a cell a spreadsheet would
 * take for a formula is written as text.
 */
export function summaryCsv(summary: DailySummary, currencies: CurrencyDictionary): string {
  const lines = [csvRecord(SUMMARY_CSV_COLUMNS)];
  for (const row of summary.rows) {
    const body = figuresBody(row, currencies);
    const fields: Record<(typeof SUMMARY_CSV_COLUMNS)[number], string> = {
      date: summary.date,
      integrator_id: row.integratorId,
      provider_code: row.providerCode,
      fiat_currency: String(body.fiat_currency),
      fiat_currency_code: body.fiat_currency_code ?? '',
      orders: String(body.orders),
      completed: String(body.completed),
      failed: String(body.failed),
      expired: String(body.expired),
      refunded: String(body.refunded),
      open: String(body.open),
      completed_volume: body.completed_volume,
      quoted_fees: body.quoted_fees,
      completed_with_discrepancies: String(body.completed_with_discrepancies),
      completed_without_quoted_fee: String(body.completed_without_quoted_fee),
      crypto_delivered: body.crypto_delivered
        .map(
          (c) =>
            `${c.currency_code === null ? `#${c.currency}` : c.network === null ? c.currency_code : `${c.currency_code}/${c.network}`} ${c.amount}`,
        )
        .join('; '),
    };
    lines.push(csvRecord(SUMMARY_CSV_COLUMNS.map((column) => fields[column])));
  }
  return lines.join('');
}
