/**
 * One sell (off-ramp) order, from the refund address's check and the provider's sell order to a final
 * status: provider webhooks arrive as signals, a timer polls the provider when they do not and
 * expires an order whose deposit never came. Its rules are in SellOrderState; its integrator webhooks
 * go through the buy's WebhookOutbox, its flags to its review through the ReviewOutbox. A workflow
 * type of its own (no buy history to replay): its changes from the first release on are patched.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  log,
  makeContinueAsNewFunc,
  proxyActivities,
  proxyLocalActivities,
  proxySinks,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { OrderActivities } from '../activities';
import type { ReportedDeposit } from '../src/domain/sell-integrity';
import { AWAITING_DEPOSIT, isSellTerminal } from '../src/domain/sell-order-status';
import { webhookDeliveriesQuery, type OrderRejectionType } from '../src/temporal/order-contract';
import type { QueueReason, ReviewSubject } from '../src/temporal/review-contract';
import {
  confirmSellDepositUpdate,
  createSellOrderUpdate,
  getSellOrderQuery,
  sellProviderEventSignal,
  type SellOrderMemo,
  type SellOrderWorkflowInput,
  type SellProviderEvent,
} from '../src/temporal/sell-order-contract';
import type { OrderSinks } from './order';
import { ReviewOutbox } from './review-outbox';
import { SellOrderState, type DepositCheck, type SellOrderResumeState } from './sell-order-state';
import { WebhookOutbox } from './webhook-outbox';

const { orderMetrics } = proxySinks<OrderSinks>();

/** Address checks are pure, and a provider sell order is made under our order id: both safe to run again locally. */
const { validateWalletAddress, checkDepositAddress } = proxyLocalActivities<OrderActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 5 },
});
const { createSellProviderOrder } = proxyLocalActivities<OrderActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '20 seconds',
    maximumAttempts: 6,
    nonRetryableErrorTypes: ['provider_rejected'],
  },
});
const { getSellProviderOrderStatus } = proxyActivities<OrderActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 3 },
});

/** The customer's transaction passed on: a provider refusal is final, an unreachable provider tried for about a minute. */
const { confirmSellDeposit } = proxyActivities<OrderActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '20 seconds', maximumAttempts: 4, nonRetryableErrorTypes: ['provider_rejected'] },
});

const HISTORY_EVENTS_BEFORE_CONTINUE = 5_000;

export async function sellOrderWorkflow(input: SellOrderWorkflowInput, resume?: SellOrderResumeState): Promise<SellOrderMemo> {
  const { timings } = input;
  let rejection: { type: OrderRejectionType; message: string } | undefined;
  const inbox: SellProviderEvent[] = [];
  let pollDelayMs = resume?.pollDelayMs ?? timings.pollInitialMs;
  const subject: ReviewSubject = {
    kind: 'order',
    orderId: input.orderId,
    providerCode: input.providerCode,
    integratorId: input.integratorId,
  };
  const reviews = new ReviewOutbox(resume?.reviews ?? []);
  const nowIso = () => new Date(Date.now()).toISOString();
  const raiseReview = (reason: QueueReason, key: string, detail: string) =>
    reviews.add({ subject, notice: { reason, key, detail, raisedAt: nowIso(), source: 'order' } });
  const state = new SellOrderState({
    input,
    resume,
    effects: {
      now: () => Date.now(),
      upsertMemo: (memo) => upsertMemo({ ...memo }),
      upsertSearchAttributes,
      log,
      metrics: orderMetrics,
      raiseReview,
    },
  });
  const webhooks = new WebhookOutbox({ state, timings, metrics: orderMetrics });

  setHandler(
    createSellOrderUpdate,
    async () => {
      await condition(() => state.memo !== null || rejection !== undefined);
      if (state.memo) return state.memo.order;
      throw ApplicationFailure.nonRetryable(rejection!.message, rejection!.type);
    },
    {
      validator: ({ requestHash }) => {
        if (requestHash !== input.requestHash) {
          throw ApplicationFailure.nonRetryable('this external_order_id was already used with a different request', 'idempotency_conflict');
        }
      },
    },
  );
  setHandler(sellProviderEventSignal, (event) => {
    // Anyone with Temporal access can signal: a malformed event is dropped, never fails the task.
    if (isSellProviderEvent(event)) inbox.push(event);
    else log.warn('sell provider event malformed: dropped', { event: JSON.stringify(event)?.slice(0, 200) });
  });
  // The transaction being passed on to the provider: one at a time, and only ever one per order.
  let confirming: string | undefined;
  let pollNow = false;
  setHandler(
    confirmSellDepositUpdate,
    async ({ transactionHash }) => {
      if (state.memo!.order.deposit_confirmation || confirming !== undefined) {
        await condition(() => confirming === undefined);
        if (state.memo!.order.deposit_confirmation?.transaction_hash === transactionHash) return state.memo!.order;
      }
      const refusal = state.depositConfirmationRefusal(transactionHash, undefined);
      if (refusal) throw ApplicationFailure.nonRetryable(refusal.message, refusal.type);
      confirming = transactionHash;
      try {
        await confirmSellDeposit({
          orderId: input.orderId,
          providerCode: input.providerCode,
          providerOrderId: state.pollTarget(),
          transactionHash,
        });
      } catch (err) {
        const cause = err instanceof ActivityFailure ? err.cause : err;
        if (cause instanceof ApplicationFailure && cause.type === 'provider_rejected') {
          throw ApplicationFailure.nonRetryable(cause.message, 'provider_rejected');
        }
        throw ApplicationFailure.nonRetryable(
          `provider ${input.providerCode} could not be reached; send the confirmation again`,
          'provider_unavailable',
        );
      } finally {
        confirming = undefined;
      }
      state.depositConfirmed(transactionHash);
      // The provider now knows of the transaction: ask it soon rather than at the poll's backed-off pace.
      pollNow = true;
      return state.memo!.order;
    },
    {
      // Refused here, a confirmation that cannot be taken leaves nothing in the order's history.
      validator: ({ transactionHash }) => {
        if (typeof transactionHash !== 'string' || transactionHash === '' || transactionHash.length > 128) {
          throw ApplicationFailure.nonRetryable(
            'a transaction hash is a non-empty string of at most 128 characters',
            'deposit_not_awaited',
          );
        }
        if (!state.memo) throw ApplicationFailure.nonRetryable('the order is not created yet', 'deposit_not_awaited');
        const refusal = state.depositConfirmationRefusal(transactionHash, confirming);
        if (refusal) throw ApplicationFailure.nonRetryable(refusal.message, refusal.type);
      },
    },
  );
  setHandler(getSellOrderQuery, () => state.memo);
  setHandler(webhookDeliveriesQuery, () => state.deliveries.map((record) => ({ ...record })));
  void webhooks.deliver();
  void reviews.deliver();

  async function reject(type: OrderRejectionType, message: string): Promise<never> {
    rejection = { type, message };
    orderMetrics.rejected(input.providerCode, type);
    await condition(allHandlersFinished);
    throw ApplicationFailure.nonRetryable(message, type);
  }

  /** The network rules' answer for a deposit the order has not pinned; undefined when the report names none new. */
  async function depositCheckFor(deposit: ReportedDeposit | undefined): Promise<DepositCheck | undefined> {
    if (deposit === undefined) return undefined;
    try {
      return await checkDepositAddress({ currencyId: input.request.from_currency, deposit });
    } catch (err) {
      return { valid: false, reason: `the check failed: ${(err as Error).message}` };
    }
  }

  /** Applies a report, its new deposit checked first. */
  async function applyReport(event: SellProviderEvent, afterWait = false): Promise<boolean> {
    const depositCheck = await depositCheckFor(state.depositToCheck(event));
    return state.apply(event, { afterWait, depositCheck });
  }

  if (!state.memo) {
    const { orderId, providerCode, request } = input;
    const refund = await validateWalletAddress({
      currencyId: request.from_currency,
      walletAddress: request.refund_wallet_address,
      providerCode,
    });
    if (!refund.valid) return reject('invalid_wallet_address', refund.reason ?? 'invalid refund wallet address');
    try {
      const created = await createSellProviderOrder({ orderId, providerCode, request });
      const { orderId: _named, ...report } = created;
      const depositCheck = await depositCheckFor(report.deposit);
      state.created(report, depositCheck);
    } catch (err) {
      const cause = err instanceof ActivityFailure ? err.cause : err;
      if (cause instanceof ApplicationFailure && cause.type === 'provider_rejected') return reject('provider_rejected', cause.message);
      return reject('provider_unavailable', `provider ${providerCode} could not create the order`);
    }
  }

  const historyLimit = timings.historyEventsBeforeContinue ?? HISTORY_EVENTS_BEFORE_CONTINUE;
  const historyFull = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > historyLimit;

  async function continueRun(applyInbox: boolean): Promise<never> {
    webhooks.close();
    reviews.close();
    await condition(() => webhooks.idle && reviews.idle && allHandlersFinished());
    if (applyInbox) for (const event of inbox.splice(0)) await applyReport(event);
    const memo = { ...workflowInfo().memo, ...state.memo };
    const resumed: SellOrderResumeState = { ...state.resumeState(pollDelayMs), ...(reviews.empty ? {} : { reviews: reviews.carried }) };
    return makeContinueAsNewFunc<typeof sellOrderWorkflow>({ memo })(input, resumed);
  }

  async function poll(): Promise<boolean> {
    try {
      const { orderId: _named, ...snapshot } = await getSellProviderOrderStatus({
        orderId: input.orderId,
        providerCode: input.providerCode,
        providerOrderId: state.pollTarget(),
        orderCreatedAt: state.memo!.order.created_at,
      });
      return await applyReport({ ...snapshot, providerCode: input.providerCode });
    } catch (err) {
      log.warn('status poll failed; will try again', { error: (err as Error).message });
      return false;
    }
  }

  while (!isSellTerminal(state.memo!.order.status)) {
    const now = Date.now();
    const status = state.memo!.order.status;
    const depositDeadline = AWAITING_DEPOSIT.includes(status) ? state.depositDeadline() : Infinity;
    const graceEnd = state.graceEnd(timings.settledGraceMs);
    if (now >= graceEnd) break;
    const reviewAt = state.reviewDue();
    if (now >= reviewAt) state.flagForReview();

    const wakeAt = Math.min(now + pollDelayMs, depositDeadline, graceEnd, now >= reviewAt ? Infinity : reviewAt);
    const waitedFrom = workflowInfo().historyLength;
    const signalled = await condition(() => inbox.length > 0 || pollNow, Math.max(wakeAt - now, 1));
    const polledNow = pollNow && inbox.length === 0;
    pollNow = false;
    if (polledNow) {
      if (await poll()) pollDelayMs = timings.pollInitialMs;
    } else if (signalled || inbox.length > 0) {
      const afterWait = workflowInfo().historyLength > waitedFrom;
      let changed = false;
      for (const event of inbox.splice(0)) changed = (await applyReport(event, afterWait)) || changed;
      if (changed) pollDelayMs = timings.pollInitialMs;
    } else if (Date.now() < graceEnd) {
      const changed = await poll();
      pollDelayMs = changed ? timings.pollInitialMs : Math.min(pollDelayMs * 2, timings.pollMaxMs);
      state.expireIfNoDeposit();
    }
    if (historyFull()) return continueRun(true);
  }

  const delivered = () => webhooks.empty && reviews.empty && allHandlersFinished();
  await condition(() => delivered() || historyFull());
  return delivered() ? state.memo! : continueRun(false);
}

/** A well-formed sell report (the API sends only these; anyone with Temporal access could send another). */
function isSellProviderEvent(event: unknown): event is SellProviderEvent {
  const e = event as Partial<SellProviderEvent> | null;
  return (
    !!e &&
    typeof e === 'object' &&
    typeof e.providerCode === 'string' &&
    typeof e.providerStatus === 'string' &&
    typeof e.status === 'string'
  );
}
