/**
 * The rows of GET /api/on_ramp/orders/export: one order, buy or sell, per CSV record (RFC 4180) or
 * per JSON line. Pure functions: the route streams what they return.
 */
import type { CurrencyDictionary } from '../domain/currency';
import type { OrderKind } from '../domain/order-kind';
import { isSellOrderRecord, type AnyOrderRecord, type OrderRecord, type SellOrderRecord } from '../orders/search';

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  jsonl: 'application/jsonl; charset=utf-8',
};

/**
 * The CSV columns, in order: the order's fields, the currencies' codes, the provider's references and
 * the quoted fee; then the order's kind and a sell's own fields (empty for a buy), after the columns
 * exports had before sells, so that a reader by position still finds those. A sell's from_* are the
 * crypto sent, its to_* the fiat payout, its transaction_hash the customer's deposit.
 */
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
  'kind',
  'payout_method',
  'refund_wallet_address',
  'deposit_address',
  'deposit_memo',
  'deposit_network',
  'deposit_amount',
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

/** The fields both kinds have, in the export's names, each as text (absent: empty). */
function sharedFieldsOf(record: AnyOrderRecord, currencies: CurrencyDictionary) {
  const { order } = record;
  const from = currencies.get(order.from_currency);
  const to = currencies.get(order.to_currency);
  const { provider_order_id, provider_status, transaction_hash, ...integratorExtras } = order.extras;
  return {
    fields: {
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
      country_code: order.country_code,
      discrepancies: (order.discrepancies ?? []).map((d) => `${d.field}: ordered ${d.ordered}, reported ${d.reported}`).join('; '),
      extras: Object.keys(integratorExtras).length === 0 ? '' : JSON.stringify(integratorExtras),
    },
    transactionHashInExtras: transaction_hash,
  };
}

/** A buy order's fields in the export's names, each as text (absent: empty). */
function buyFieldsOf(record: OrderRecord, currencies: CurrencyDictionary): Record<Column, string> {
  const { order } = record;
  const { fields, transactionHashInExtras } = sharedFieldsOf(record, currencies);
  return {
    ...fields,
    payment_method: order.payment_method,
    wallet_address: order.wallet_address,
    transaction_hash: text(transactionHashInExtras),
    kind: 'on_ramp',
    payout_method: '',
    refund_wallet_address: '',
    deposit_address: '',
    deposit_memo: '',
    deposit_network: '',
    deposit_amount: '',
  };
}

/** A sell order's fields in the export's names: the deposit as the provider gave it, the customer's deposit transaction. */
function sellFieldsOf(record: SellOrderRecord, currencies: CurrencyDictionary): Record<Column, string> {
  const { order } = record;
  const { fields } = sharedFieldsOf(record, currencies);
  return {
    ...fields,
    payment_method: '',
    wallet_address: '',
    transaction_hash: text(order.transaction_hash),
    kind: 'off_ramp',
    payout_method: order.payout_method,
    refund_wallet_address: order.refund_wallet_address,
    deposit_address: text(order.deposit?.address),
    deposit_memo: text(order.deposit?.memo),
    deposit_network: text(order.deposit?.network),
    deposit_amount: text(order.deposit?.amount),
  };
}

/** The order's kind: a sell's memo says `off_ramp`; a buy's says none. */
export const kindOf = (record: AnyOrderRecord): OrderKind => (isSellOrderRecord(record) ? 'off_ramp' : 'on_ramp');

const fieldsOf = (record: AnyOrderRecord, currencies: CurrencyDictionary): Record<Column, string> =>
  isSellOrderRecord(record) ? sellFieldsOf(record, currencies) : buyFieldsOf(record, currencies);

/** One order as a CSV record (CSV_COLUMNS). */
export function csvRow(record: AnyOrderRecord, currencies: CurrencyDictionary): string {
  const fields = fieldsOf(record, currencies);
  return csvRecord(CSV_COLUMNS.map((column) => fields[column]));
}

/**
 * One order as a JSON line: the order as GET /api/on_ramp/orders/{provider_code} (a buy) or GET
 * /api/off_ramp/orders/{provider_code} (a sell) returns it, with `kind` (a buy's `on_ramp` too),
 * `provider_code`, `requested_at` and, when the order's offer was kept, `quoted_fee_amount`.
 */
export function jsonLine(record: AnyOrderRecord): string {
  const quoted = record.quote?.total_fee_amount;
  const line = {
    kind: kindOf(record),
    ...record.order,
    provider_code: record.providerCode,
    requested_at: record.requestedAt,
    ...(quoted === undefined ? {} : { quoted_fee_amount: quoted }),
  };
  return `${JSON.stringify(line)}\n`;
}
