import fc from 'fast-check';
import { literal, orderSearchQuery, UnsafeQueryValueError } from '../../../src/orders/visibility-query';

const TENANT = "WorkflowType = 'orderWorkflow' AND IntegratorId = 'dev' AND ExecutionStatus != 'ContinuedAsNew'";

test('the tenant and workflow type lead every query; filters follow as equalities', () => {
  expect(orderSearchQuery('dev', {})).toBe(TENANT);
  expect(
    orderSearchQuery('dev', { externalUserIds: ['h1', 'h2'], externalOrderId: 'o-1', status: 'complete', providerCode: 'sandbox' }),
  ).toBe(
    `${TENANT} AND ExternalUserId IN ('h1', 'h2') AND ExternalOrderId = 'o-1' AND OrderStatus = 'complete' AND ProviderCode = 'sandbox'`,
  );
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
