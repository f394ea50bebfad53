import fc from 'fast-check';
import { ANY_ORDER_STATUSES, kindsWith } from '../../../src/domain/order-kind';
import {
  kindOfWorkflowType,
  literal,
  NoSuchKindOfStatusError,
  orderSearchQuery,
  providerOrdersQuery,
  requestedBetween,
  UnsafeQueryValueError,
} from '../../../src/orders/visibility-query';

const TENANT = "WorkflowType IN ('orderWorkflow', 'sellOrderWorkflow') AND IntegratorId = 'dev' AND ExecutionStatus != 'ContinuedAsNew'";
const OWNER = "IntegratorId = 'dev' AND ExecutionStatus != 'ContinuedAsNew'";

test('the tenant and workflow types lead every query; filters follow as equalities', () => {
  expect(orderSearchQuery('dev', {})).toBe(TENANT);
  expect(
    orderSearchQuery('dev', { externalUserIds: ['h1', 'h2'], externalOrderId: 'o-1', status: 'complete', providerCode: 'sandbox' }),
  ).toBe(
    `${TENANT} AND ExternalUserId IN ('h1', 'h2') AND ExternalOrderId = 'o-1' AND OrderStatus = 'complete' AND ProviderCode = 'sandbox'`,
  );
});

test('a kind names its own workflow type; without one, both', () => {
  expect(orderSearchQuery('dev', { kind: 'on_ramp' })).toBe(`WorkflowType = 'orderWorkflow' AND ${OWNER}`);
  expect(orderSearchQuery('dev', { kind: 'off_ramp' })).toBe(`WorkflowType = 'sellOrderWorkflow' AND ${OWNER}`);
  expect(orderSearchQuery('dev', { kind: 'off_ramp', status: 'complete' })).toBe(
    `WorkflowType = 'sellOrderWorkflow' AND ${OWNER} AND OrderStatus = 'complete'`,
  );
});

test("a status of one kind only reads that kind's workflows; one of both kinds reads both", () => {
  expect(orderSearchQuery('dev', { status: 'waiting_for_deposit' })).toBe(
    `WorkflowType = 'sellOrderWorkflow' AND ${OWNER} AND OrderStatus = 'waiting_for_deposit'`,
  );
  expect(orderSearchQuery('dev', { status: 'hold' })).toBe(`WorkflowType = 'orderWorkflow' AND ${OWNER} AND OrderStatus = 'hold'`);
  expect(orderSearchQuery('dev', { status: 'refunded' })).toBe(`${TENANT} AND OrderStatus = 'refunded'`);
});

test('a status no order of the kind can have is refused, never a query without a workflow type', () => {
  expect(() => orderSearchQuery('dev', { kind: 'on_ramp', status: 'deposit_received' })).toThrow(NoSuchKindOfStatusError);
  expect(() => orderSearchQuery('dev', { kind: 'off_ramp', status: 'pending' })).toThrow(NoSuchKindOfStatusError);
  for (const status of ANY_ORDER_STATUSES) expect(kindsWith(status).length).toBeGreaterThan(0);
});

test("the reconciliation's walk stays on buy orders", () => {
  expect(providerOrdersQuery('sandbox')).toBe(
    "WorkflowType = 'orderWorkflow' AND ProviderCode = 'sandbox' AND ExecutionStatus != 'ContinuedAsNew'",
  );
});

test('a workflow type tells its kind; any other workflow is neither', () => {
  expect(kindOfWorkflowType('orderWorkflow')).toBe('on_ramp');
  expect(kindOfWorkflowType('sellOrderWorkflow')).toBe('off_ramp');
  for (const other of ['orderIdReservation', 'providerOrderClaim', '', undefined, null]) expect(kindOfWorkflowType(other)).toBeUndefined();
});

test.each(["o' OR IntegratorId = 'other", 'a"b', 'back\\slash', 'tick`', 'new\nline', 'nul\u0000'])('refuses %j', (value) => {
  expect(() => literal('external_order_id', value)).toThrow(UnsafeQueryValueError);
  expect(() => orderSearchQuery('dev', { externalOrderId: value })).toThrow(UnsafeQueryValueError);
});

test('any value is either refused or stays inside its quotes', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (value) => {
      let query: string;
      try {
        query = orderSearchQuery('dev', { externalOrderId: value });
      } catch (err) {
        return err instanceof UnsafeQueryValueError;
      }
      return query === `${TENANT} AND ExternalOrderId = '${value}'` && !/['"`\\]/.test(value);
    }),
    { numRuns: 2000 },
  );
});

test('a keyset position holds the workflow id inside its millisecond, for OrderRequestedAt and for StartTime', () => {
  const ms = Date.parse('2026-11-28T09:00:00.123Z');
  const range = requestedBetween({ ms: ms - 5 }, { ms, workflowId: 'onramp-order-c5c30c5c-d555-5c48-8af3-e44a5ad8bbc8' });
  const olderThan = (name: string) =>
    `(${name} < '2026-11-28T09:00:00.123Z' OR (${name} >= '2026-11-28T09:00:00.123Z' AND ${name} < '2026-11-28T09:00:00.124Z' AND WorkflowId < 'onramp-order-c5c30c5c-d555-5c48-8af3-e44a5ad8bbc8'))`;
  expect(range).toBe(
    `((OrderRequestedAt >= '2026-11-28T09:00:00.118Z' AND ${olderThan('OrderRequestedAt')}) OR ` +
      `(OrderRequestedAt IS NULL AND StartTime >= '2026-11-28T09:00:00.118Z' AND ${olderThan('StartTime')}))`,
  );
  expect(requestedBetween({ ms, workflowId: 'onramp-order-8' }, undefined)).toBe(
    `(((OrderRequestedAt >= '2026-11-28T09:00:00.124Z' OR (OrderRequestedAt >= '2026-11-28T09:00:00.123Z' AND OrderRequestedAt < '2026-11-28T09:00:00.124Z' AND WorkflowId >= 'onramp-order-8'))) OR ` +
      `(OrderRequestedAt IS NULL AND (StartTime >= '2026-11-28T09:00:00.124Z' OR (StartTime >= '2026-11-28T09:00:00.123Z' AND StartTime < '2026-11-28T09:00:00.124Z' AND WorkflowId >= 'onramp-order-8'))))`,
  );
  expect(requestedBetween(undefined, undefined)).toBeUndefined();
  expect(() => requestedBetween(undefined, { ms, workflowId: "x' OR '1'='1" })).toThrow(UnsafeQueryValueError);
});
