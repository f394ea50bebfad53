/**
 * The rows of GET /api/on_ramp/orders/export: one order per CSV record (RFC 4180) or per JSON line.
 * Pure functions: the route streams what they return.
 */
import type { CurrencyDictionary } from '../domain/currency';
import type { OrderRecord } from '../orders/search';

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  jsonl: 'application/jsonl; charset=utf-8',
};

/** The CSV columns, in order: the order's fields, the currencies' codes, the provider's references and the quoted fee. */
export const CSV_COLUMNS = [
  'id',
  'external_order_id',
  'external_user_id',
  'provider_code',
  'provider_order_id',
  'status',
  'provider_status',
  'failure_reason',
  'requested_at',
  'created_at',
  'updated_at',
  'from_currency',
  'from_currency_code',
  'from_amount',
  'quoted_fee_amount',
  'to_currency',
  'to_currency_code',
  'to_network',
  'to_amount',
  'payment_method',
  'country_code',
  'wallet_address',
  'transaction_hash',
  'discrepancies',
  'extras',
] as const;

type Column = (typeof CSV_COLUMNS)[number];

/**
 * A cell a spreadsheet would read as a formula starts with one of these (OWASP, "CSV Injection"):
 * such a cell is written with a leading apostrophe, which spreadsheets show as text. The ids and
 * extras come from integrators and their customers, the references from providers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: quoted when it holds a comma, quote or line break (quotes doubled), defused when it could be a formula. */
export function csvField(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvRecord = (fields: readonly string[]) => `${fields.map(csvField).join(',')}\r\n`;

export const csvHeader = (): string => csvRecord(CSV_COLUMNS);

const text = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);

/** The order's fields in the export's names, each as text (absent: empty). */
function fieldsOf(record: OrderRecord, currencies: CurrencyDictionary): Record<Column, string> {
  const { order } = record;
  const from = currencies.get(order.from_currency);
  const to = currencies.get(order.to_currency);
  const { provider_order_id, provider_status, transaction_hash, ...integratorExtras } = order.extras;
  return {
    id: order.id,
    external_order_id: order.external_order_id,
    external_user_id: order.external_user_id,
    provider_code: record.providerCode,
    provider_order_id: text(record.providerOrderId ?? provider_order_id),
    status: order.status,
    provider_status: text(provider_status),
    failure_reason: text(order.failure_reason),
    requested_at: record.requestedAt,
    created_at: order.created_at,
    updated_at: order.updated_at,
    from_currency: String(order.from_currency),
    from_currency_code: from?.ticker ?? '',
    from_amount: order.from_amount,
    quoted_fee_amount: text(record.quote?.total_fee_amount),
    to_currency: String(order.to_currency),
    to_currency_code: to?.ticker ?? '',
    to_network: to?.network ?? '',
    to_amount: order.to_amount,
    payment_method: order.payment_method,
    country_code: order.country_code,
    wallet_address: order.wallet_address,
    transaction_hash: text(transaction_hash),
    discrepancies: (order.discrepancies ?? []).map((d) => `${d.field}: ordered ${d.ordered}, reported ${d.reported}`).join('; '),
    extras: Object.keys(integratorExtras).length === 0 ? '' : JSON.stringify(integratorExtras),
  };
}

/** One order as a CSV record (CSV_COLUMNS). */
export function csvRow(record: OrderRecord, currencies: CurrencyDictionary): string {
  const fields = fieldsOf(record, currencies);
  return csvRecord(CSV_COLUMNS.map((column) => fields[column]));
}

/**
 * One order as a JSON line: the order as GET /api/on_ramp/orders/{provider_code} returns it, with
 * `provider_code`, `requested_at` and, when the order's offer was kept, `quoted_fee_amount`.
 */
export function jsonLine(record: OrderRecord): string {
  const quoted = record.quote?.total_fee_amount;
  const line = {
    ...record.order,
    provider_code: record.providerCode,
    requested_at: record.requestedAt,
    ...(quoted === undefined ? {} : { quoted_fee_amount: quoted }),
  };
  return `${JSON.stringify(line)}\n`;
}
