import type { OperatorAction, ReviewNotice } from '../../src/temporal/review-contract';

/** A reconciliation's notice to a review, raised now; `overrides` replace any field. */
export const reviewNotice = (key: string, overrides: Partial<ReviewNotice> = {}): ReviewNotice => ({
  reason: 'reconciliation_mismatch',
  key,
  detail: `mismatch ${key}`,
  raisedAt: new Date().toISOString(),
  source: 'reconciliation',
  ...overrides,
});

/** An operator's action on a review (an acknowledgement unless `overrides` say otherwise), taken now. */
export const operatorAction = (requestId: string, overrides: Partial<OperatorAction> = {}): OperatorAction => ({
  requestId,
  action: 'acknowledge',
  operatorId: 'op-1',
  at: new Date().toISOString(),
  ...overrides,
});
