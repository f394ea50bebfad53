/**
 * The Temporal visibility query of an order search. Every value is quoted by `literal`, which refuses
 * anything that could end the string it stands in (quotes, backslashes, control characters), so that
 * no filter can change the query's shape: the integrator and workflow-type conditions always hold.
 */
import { kindsWith, type AnyOrderStatus, type OrderKind } from '../domain/order-kind';
import { SELL_ORDER_WORKFLOW_TYPE } from '../temporal/sell-order-contract';

export const ORDER_WORKFLOW_TYPE = 'orderWorkflow';

/** The workflow type of each kind of order. */
export const WORKFLOW_TYPE_OF: Record<OrderKind, string> = { on_ramp: ORDER_WORKFLOW_TYPE, off_ramp: SELL_ORDER_WORKFLOW_TYPE };

/** The kind of order a workflow type runs; undefined for any other workflow. */
export function kindOfWorkflowType(type: string | null | undefined): OrderKind | undefined {
  return type === ORDER_WORKFLOW_TYPE ? 'on_ramp' : type === SELL_ORDER_WORKFLOW_TYPE ? 'off_ramp' : undefined;
}

/** A kind and status no order can have together (a sell status with kind on_ramp, or the reverse). */
export class NoSuchKindOfStatusError extends Error {
  constructor(readonly status: string) {
    super(`no order of the kind asked for has status ${status}`);
    this.name = 'NoSuchKindOfStatusError';
  }
}

/** Characters a visibility string literal may not carry: quotes of every kind, backslash, control characters. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
export const UNSAFE_QUERY_CHARACTERS = /['"`\\\u0000-\u001f\u007f]/;

export class UnsafeQueryValueError extends Error {
  constructor(readonly field: string) {
    super(`${field} holds a character that visibility queries cannot take`);
    this.name = 'UnsafeQueryValueError';
  }
}

/** `'value'`, or a throw for a value that could break out of its quotes. */
export function literal(field: string, value: string): string {
  if (UNSAFE_QUERY_CHARACTERS.test(value)) throw new UnsafeQueryValueError(field);
  return `'${value}'`;
}

export interface VisibilityFilters {
  /** The ExternalUserId values to match (the hash under every encryption key, or the id in clear). */
  externalUserIds?: readonly string[];
  externalOrderId?: string;
  status?: AnyOrderStatus;
  providerCode?: string;
  /** Buys or sells only; both without it. */
  kind?: OrderKind;
}

/** `WorkflowType = …` for one kind, `WorkflowType IN (…)` for both: the kinds whose orders can have the status. */
function workflowTypeClause(filters: VisibilityFilters): string {
  const kinds = kindsWith(filters.status, filters.kind);
  if (kinds.length === 0) throw new NoSuchKindOfStatusError(String(filters.status));
  const types = kinds.map((kind) => literal('workflow_type', WORKFLOW_TYPE_OF[kind]));
  return types.length === 1 ? `WorkflowType = ${types[0]}` : `WorkflowType IN (${types.join(', ')})`;
}

/**
 * The integrator's order workflows, buys and sells (or the one kind asked for), matching the
 * filters. Runs closed by continue-as-new are left out: the order's latest run stands for it.
 */
export function orderSearchQuery(integratorId: string, filters: VisibilityFilters): string {
  const clauses = [
    workflowTypeClause(filters),
    `IntegratorId = ${literal('integrator_id', integratorId)}`,
    `ExecutionStatus != 'ContinuedAsNew'`,
  ];
  if (filters.externalUserIds !== undefined) {
    clauses.push(`ExternalUserId IN (${filters.externalUserIds.map((id) => literal('external_user_id', id)).join(', ')})`);
  }
  if (filters.externalOrderId !== undefined) clauses.push(`ExternalOrderId = ${literal('external_order_id', filters.externalOrderId)}`);
  if (filters.status !== undefined) clauses.push(`OrderStatus = ${literal('status', filters.status)}`);
  if (filters.providerCode !== undefined) clauses.push(`ProviderCode = ${literal('provider_code', filters.providerCode)}`);
  return clauses.join(' AND ');
}

/** One provider's buy orders of every integrator (the reconciliation's walk); runs closed by continue-as-new left out. */
export function providerOrdersQuery(providerCode: string): string {
  return [
    `WorkflowType = ${literal('workflow_type', ORDER_WORKFLOW_TYPE)}`,
    `ProviderCode = ${literal('provider_code', providerCode)}`,
    `ExecutionStatus != 'ContinuedAsNew'`,
  ].join(' AND ');
}

const instant = (ms: number) => `'${new Date(ms).toISOString()}'`;

/**
 * A place in the newest-first order of orders: a millisecond of request time and, inside it, a
 * workflow id (orders of one millisecond come by workflow id, greatest first). Without an id: the
 * millisecond's edge.
 */
export interface KeysetPosition {
  ms: number;
  workflowId?: string;
}

/** `name` (a Datetime) inside millisecond `ms`: StartTime has finer digits than the millisecond a position holds. */
const inMs = (name: string, ms: number) => `${name} >= ${instant(ms)} AND ${name} < ${instant(ms + 1)}`;

/** `from` or newer: a later millisecond, or in `from`'s a workflow id from its id up. */
function fromOn(name: string, from: KeysetPosition): string {
  if (from.workflowId === undefined) return `${name} >= ${instant(from.ms)}`;
  return `(${name} >= ${instant(from.ms + 1)} OR (${inMs(name, from.ms)} AND WorkflowId >= ${literal('workflow_id', from.workflowId)}))`;
}

/** Older than `to`: an earlier millisecond, or in `to`'s a lesser workflow id. */
function olderThan(name: string, to: KeysetPosition): string {
  if (to.workflowId === undefined) return `${name} < ${instant(to.ms)}`;
  return `(${name} < ${instant(to.ms)} OR (${inMs(name, to.ms)} AND WorkflowId < ${literal('workflow_id', to.workflowId)}))`;
}

/**
 * Orders older than position `to` (a cursor: excluded) and not older than position `from`
 * (included), by OrderRequestedAt and workflow id; orders from before that search attribute
 * existed, by their run's StartTime. Undefined when neither end bounds anything.
 */
export function requestedBetween(from: KeysetPosition | undefined, to: KeysetPosition | undefined): string | undefined {
  if (from === undefined && to === undefined) return undefined;
  const range = (name: string) =>
    [...(from === undefined ? [] : [fromOn(name, from)]), ...(to === undefined ? [] : [olderThan(name, to)])].join(' AND ');
  return `((${range('OrderRequestedAt')}) OR (OrderRequestedAt IS NULL AND ${range('StartTime')}))`;
}
