import { randomUUID } from 'node:crypto';
import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  QueryNotRegisteredError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { growingLru } from '../lru';
import type { Order } from '../domain/order';
import { depositConfirmationRefusal } from '../domain/deposit-confirmation';
import type { SellOrder } from '../domain/sell-order';
import { temporalClientErrors } from '../metrics/metrics';
import type { ProviderWebhookEvent } from '../providers/types';
import {
  createOrderUpdate,
  EXTERNAL_ORDER_ID_KEY,
  EXTERNAL_USER_ID_KEY,
  INTEGRATOR_ID_KEY,
  ORDER_REJECTION_TYPES,
  ORDER_REQUESTED_AT_KEY,
  orderIdReservationId,
  orderWorkflowId,
  PROVIDER_CODE_KEY,
  providerEventSignal,
  type ProviderOrderClaim,
  type OrderMemo,
  type OrderRejectionType,
  type OrderWorkflowInput,
  webhookDeliveriesQuery,
  type WebhookDeliveryRecord,
  ORDER_QUOTE_MEMO_KEY,
} from '../temporal/order-contract';
import type { CreationResult } from '../ranking/provider-breaker';
import type { OrderAdmission, ProviderBreakers } from '../ranking/provider-breakers';
import { searchableHash, type EncryptionKey } from '../temporal/codec';
import { temporalOrderRecords } from '../temporal/order-records';
import type { providerOrderClaim } from '../../workflows';
import {
  confirmSellDepositUpdate,
  createSellOrderUpdate,
  DEPOSIT_CONFIRMATION_REFUSALS,
  isSellOrderMemo,
  SELL_ORDER_WORKFLOW_TYPE,
  sellProviderEventSignal,
  type DepositConfirmationRefusal,
  type SellOrderMemo,
  type SellOrderWorkflowInput,
} from '../temporal/sell-order-contract';
import type { SellWebhookEvent } from '../providers/sell-types';
import type { UpdateDefinition } from '@temporalio/common';
import { CLAIM_MIN_RETENTION_MS, CLAIM_WORKFLOW_TYPE, providerOrderClaimId } from './claims';
import { startOrderIdReservation } from './order-id-reservation';
import {
  DepositConfirmationRefusedError,
  isTemporalUnreachable,
  isUndecodablePayload,
  OrderRejectedError,
  OrderUnavailableError,
  OrderUnreadableError,
  ProviderOutOfServiceError,
} from './errors';
import { ORDER_MARKET_MEMO_KEY, refusedAttemptId, type OrderMarket } from '../ranking/order-outcome';
import type { OutcomeRecorder } from '../ranking/outcome-recorder';

export interface OrderServiceOptions {
  client: Client;
  taskQueue: string;
  /** How long an API request waits for the provider order to be created. */
  createTimeoutMs: number;
  /** Deadline of a read or a signal (default 5 s): the caller gets a 503 rather than a hang. */
  rpcTimeoutMs?: number;
  /** Where creations the provider refused are recorded for the offers' ranking (src/ranking). */
  outcomes?: OutcomeRecorder;
  /** Stores the ExternalUserId search attribute as a keyed hash under this key (src/temporal/codec.ts); in clear without one. */
  searchHashKey?: EncryptionKey;
  /** How long a provider order claim stays open (claimLifetimeMs in src/orders/claims.ts). */
  claimLifetimeMs: number;
  /**
   * How long an order id stays reserved once its order is created, and how young a reservation
   * whose order is not found may be before that order counts as deleted (default
   * CLAIM_MIN_RETENTION_MS: no closed order is deleted sooner after its reservation started).
   */
  orderIdReservation: { holdMs: number; checkEveryMs?: number; graceMs?: number };
  /** The providers' circuit breakers: each creation's outcome is reported, and an open provider's orders are refused. Absent: none. */
  breakers?: ProviderBreakers;
}

/**
 * What became of a verified provider webhook: signalled to its order; the order is unknown (or has
 * closed); the order is another provider's; or the provider order it is about belongs to another
 * broker order. Only `delivered` reaches the workflow.
 */
export type SignalOutcome = 'delivered' | 'unknown_order' | 'other_provider' | 'claimed_elsewhere';

/** The API's door to order workflows: start-and-create, read, and forward provider events. */
export class OrderService {
  /** Each order's provider, which never changes: read once per order. */
  private readonly providerOfOrder = growingLru<string, string>(100_000);
  /** Each claimed provider order's broker order, which never changes either. */
  private readonly claimHolders = growingLru<string, string>(100_000);
  /** The describes of orders' providers in flight, by order id. */
  private readonly describingProvider = new Map<string, Promise<string | undefined>>();
  /** Rejected runs (or orders) this process has seen, when no statistics store says whether a rejection is the first. */
  private readonly rejectedRuns = growingLru<string, true>(10_000);

  constructor(private readonly options: OrderServiceOptions) {}

  /**
   * The order, once its provider order exists. A provider whose breaker is open is refused before
   * anything starts (ProviderOutOfServiceError); each creation's outcome goes to its breaker: the
   * provider could not create the order (`provider_unavailable`) is a failure, a created order a
   * success, and anything else (the customer's address, the provider's refusal of this customer,
   * an idempotency conflict, a repeat that joined an order, Temporal's errors) says nothing of the
   * provider.
   */
  async create(input: OrderWorkflowInput): Promise<Order> {
    const { breakers } = this.options;
    const admission = breakers ? await breakers.admit(input.providerCode) : undefined;
    if (admission && !admission.admitted) throw outOfService(input.providerCode, admission);
    let settled = false;
    const settle = (result: CreationResult) => {
      if (settled) return;
      settled = true;
      if (breakers && admission) void breakers.settle(input.providerCode, admission, result);
    };
    try {
      return await this.start(input, settle);
    } catch (err) {
      // A rejection is settled once its run is known, and a creation the answer outran once it ends
      // (start does both, in the background); anything else says nothing of the provider.
      if (err instanceof SettledLater) throw err.answer;
      settle('ignored');
      throw err;
    }
  }

  /**
   * The sell order, once its provider sell order exists: started, reserved and joined as a buy is.
   * Sells take no part in the providers' breakers or the offers' ranking (they learn from buys).
   */
  async createSell(input: SellOrderWorkflowInput): Promise<SellOrder> {
    return this.start(input, () => undefined);
  }

  /** Starts the order's workflow and waits for its creation, or joins the order the request already made. */
  private async start(input: OrderWorkflowInput, settle: (result: CreationResult) => void): Promise<Order>;
  private async start(input: SellOrderWorkflowInput, settle: (result: CreationResult) => void): Promise<SellOrder>;
  private async start(input: AnyOrderInput, settle: (result: CreationResult) => void): Promise<Order | SellOrder> {
    const { client, taskQueue } = this.options;
    const workflowId = orderWorkflowId(input.orderId);
    const sell = isSellInput(input);
    await this.reserveOrderId(input.orderId);
    const startWorkflowOperation = new WithStartWorkflowOperation(sell ? SELL_ORDER_WORKFLOW_TYPE : 'orderWorkflow', {
      workflowId,
      taskQueue,
      args: [input],
      // A repeated request joins the running order; a closed order is never started again,
      // unless its creation failed (nothing exists at the provider then).
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      typedSearchAttributes: [
        { key: PROVIDER_CODE_KEY, value: input.providerCode },
        { key: INTEGRATOR_ID_KEY, value: input.integratorId },
        { key: EXTERNAL_ORDER_ID_KEY, value: input.request.external_order_id },
        { key: EXTERNAL_USER_ID_KEY, value: this.searchableUserId(input.request.external_user_id) },
        { key: ORDER_REQUESTED_AT_KEY, value: new Date() },
      ],
      // What the ranking's rebuild reads of an order whose creation fails: it has no order memo.
      memo: {
        ...(sell
          ? {}
          : {
              [ORDER_MARKET_MEMO_KEY]: {
                providerCode: input.providerCode,
                country: input.request.country_code,
                paymentMethod: input.request.payment_method,
              } satisfies OrderMarket,
            }),
        // Kept beside the workflow's own memo keys: exports read the quoted fee from visibility.
        ...(input.quote ? { [ORDER_QUOTE_MEMO_KEY]: input.quote } : {}),
      },
      staticSummary: `${input.providerCode} ${sell ? 'sell order' : 'order'} ${input.request.external_order_id} (${input.integratorId})`,
    });
    const update = createUpdateOf(input);
    try {
      const order = await client.withDeadline(Date.now() + this.options.createTimeoutMs, () =>
        client.workflow.executeUpdateWithStart(update, {
          args: [{ requestHash: input.requestHash }],
          // One update per call, never the request's hash alone: Temporal answers an update id that a
          // closed run already completed with that run's outcome instead of starting a new run, so a
          // creation the provider could not make would answer provider_unavailable for ever.
          updateId: `create-${input.requestHash.slice(0, 16)}-${randomUUID()}`,
          startWorkflowOperation,
        }),
      );
      // The workflow that answered has this request's hash (its update validator), which covers the
      // provider: the provider's webhooks for the order need no describe call in this process.
      this.providerOfOrder.set(input.orderId, input.providerCode);
      settle('success');
      return order;
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) {
        settle('ignored');
        return await this.existing(input);
      }
      const rejection = rejectionOf(err);
      if (rejection) {
        void this.settleRejection(input, rejection.type, settle);
        throw new SettledLater(new OrderRejectedError(rejection.type, rejection.message));
      }
      const answer = unavailable(err, 'create', workflowId);
      if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
        void this.followCreation(input, settle);
        throw new SettledLater(answer);
      }
      throw answer;
    }
  }

  /**
   * A creation the API's answer did not wait for, followed to its end (its workflow retries a
   * failing provider for longer than an integrator waits): the breaker and the statistics learn
   * how it ended. Never throws.
   */
  private async followCreation(input: AnyOrderInput, settle: (result: CreationResult) => void): Promise<void> {
    const { client } = this.options;
    const handle = client.workflow.getHandle(orderWorkflowId(input.orderId));
    try {
      await client.withDeadline(Date.now() + CREATION_FOLLOW_MS, () =>
        handle.executeUpdate(createUpdateOf(input), {
          args: [{ requestHash: input.requestHash }],
          updateId: `follow-${input.requestHash.slice(0, 16)}-${randomUUID()}`,
        }),
      );
      settle('success');
    } catch (err) {
      const rejection = rejectionOf(err) ?? (await this.closedRunRejection(handle));
      if (rejection) await this.settleRejection(input, rejection.type, settle);
      else settle('ignored');
    }
  }

  /** The rejection a closed order run failed with, if it failed with one. */
  private async closedRunRejection(handle: ReturnType<Client['workflow']['getHandle']>): Promise<{ type: string } | undefined> {
    try {
      await this.withRpcDeadline(() => handle.result());
      return undefined;
    } catch (err) {
      const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
      return cause instanceof ApplicationFailure && cause.type && isOrderRejection(cause.type) ? { type: cause.type } : undefined;
    }
  }

  /**
   * A rejected creation: recorded for the ranking's statistics under its run's id (the one a
   * rebuild from Temporal gives it), and a failure of the provider's breaker only when it is the
   * provider's (`provider_unavailable`) and this is the first record of that run in any process:
   * repeats of the request that joined the same run answer the same rejection, and count once.
   * Never throws.
   */
  private async settleRejection(input: AnyOrderInput, type: string, settle: (result: CreationResult) => void): Promise<void> {
    if (isSellInput(input)) return settle('ignored');
    const { outcomes } = this.options;
    const runId = await this.failedRunId(input.orderId);
    const market = { providerCode: input.providerCode, country: input.request.country_code, paymentMethod: input.request.payment_method };
    const recorded =
      outcomes && runId ? await outcomes.refused(refusedAttemptId(runId), market, type, { integratorId: input.integratorId }) : 'failed';
    // A store that could not say is no reason to forget the failure: this process's own memory decides then.
    const first = recorded === 'folded' || (recorded === 'failed' && this.firstRejection(input.orderId, runId));
    settle(type === 'provider_unavailable' && first ? 'failure' : 'ignored');
  }

  /** Without a statistics store that answers, or without the run's id: the first rejection of this order seen by this process. */
  private firstRejection(orderId: string, runId: string | undefined): boolean {
    const key = runId ?? orderId;
    if (this.rejectedRuns.has(key)) return false;
    this.rejectedRuns.set(key, true);
    return true;
  }

  /** The id of the order's latest run when it has failed (the rejected creation); undefined otherwise or unknown. */
  private async failedRunId(orderId: string): Promise<string | undefined> {
    const handle = this.options.client.workflow.getHandle(orderWorkflowId(orderId));
    try {
      // A rejected creation answers its update just before its run fails: waited for, not raced.
      await this.withRpcDeadline(() => handle.result()).catch(() => undefined);
      const description = await this.withRpcDeadline(() => handle.describe());
      return description.status.name === 'FAILED' ? description.runId : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Reserves the order id before its order starts, or finds it reserved. Retention deletes a closed
   * order after a few days, and providers look orders up by our id for ever: a new order under an
   * old id would be handed the old order's purchase. So an id whose reservation is open and whose
   * order is gone is refused (`external_order_id_retired`). A reservation younger than the grace
   * without its order is a creation that never started (a crash, a timeout, a concurrent first
   * request): retention cannot have deleted an order that young, so the creation goes on.
   */
  private async reserveOrderId(orderId: string): Promise<void> {
    // Not skipped for an order this process remembers: it may have been deleted since.
    const workflowId = orderIdReservationId(orderId);
    const { holdMs, checkEveryMs, graceMs = CLAIM_MIN_RETENTION_MS } = this.options.orderIdReservation;
    let started: boolean;
    try {
      started = await this.withRpcDeadline(() =>
        startOrderIdReservation(this.options.client, this.options.taskQueue, {
          orderId,
          holdForMs: holdMs,
          ...(checkEveryMs === undefined ? {} : { checkEveryMs }),
        }),
      );
    } catch (err) {
      throw unavailable(err, 'reserve', workflowId);
    }
    if (started || (await this.orderExists(orderId))) return;
    let reservedAt: Date;
    try {
      reservedAt = (await this.withRpcDeadline(() => this.options.client.workflow.getHandle(workflowId).describe())).startTime;
    } catch (err) {
      // Deleted in between (a closed reservation that retention removed): the id was free.
      if (err instanceof WorkflowNotFoundError) return;
      throw unavailable(err, 'reserve', workflowId);
    }
    if (Date.now() - reservedAt.getTime() < graceMs) return;
    throw new OrderRejectedError(
      'external_order_id_retired',
      'This external_order_id was reserved for an order more than a day ago and that order is no longer kept; the id is retired, since providers may still know an order by it. Send a new external_order_id.',
    );
  }

  /** Whether Temporal still keeps the order's workflow, read as the reservation reads it (nothing decoded). */
  private async orderExists(orderId: string): Promise<boolean> {
    const { client } = this.options;
    try {
      return await this.withRpcDeadline(() => temporalOrderRecords(client.connection, client.options.namespace).kept(orderId));
    } catch (err) {
      throw unavailable(err, 'describe', orderWorkflowId(orderId));
    }
  }

  private searchableUserId(externalUserId: string): string {
    const key = this.options.searchHashKey;
    return key ? searchableHash(key, externalUserId) : externalUserId;
  }

  /** The buy order as its workflow memo records it (a sell order is not one); works with no worker running and after the workflow closed. */
  async get(orderId: string): Promise<OrderMemo | undefined> {
    const memo = await this.memoOf(orderId);
    return memo && !isSellOrderMemo(memo) ? (memo as OrderMemo) : undefined;
  }

  /** The sell order as its workflow memo records it (a buy order is not one). */
  async getSell(orderId: string): Promise<SellOrderMemo | undefined> {
    const memo = await this.memoOf(orderId);
    return isSellOrderMemo(memo) ? memo : undefined;
  }

  /**
   * Passes the integrator's report of the customer's deposit transaction to the order's provider,
   * through the order's workflow (one transaction per order, taken while it waits for its deposit).
   * Answers the order as it then is; an unreachable provider or engine may be tried again.
   */
  async confirmSellDeposit(orderId: string, transactionHash: string): Promise<SellOrder> {
    const { client } = this.options;
    const workflowId = orderWorkflowId(orderId);
    try {
      return await client.withDeadline(Date.now() + this.options.createTimeoutMs, () =>
        client.workflow.getHandle(workflowId).executeUpdate(confirmSellDepositUpdate, {
          args: [{ transactionHash }],
          // Never the hash alone: Temporal answers a repeated update id with its first outcome, and
          // a provider unreachable once would then answer for ever.
          updateId: `confirm-deposit-${randomUUID()}`,
        }),
      );
    } catch (err) {
      if (
        err instanceof WorkflowUpdateFailedError &&
        err.cause instanceof ApplicationFailure &&
        isDepositConfirmationRefusal(err.cause.type)
      ) {
        throw new DepositConfirmationRefusedError(err.cause.type, err.cause.message);
      }
      if (err instanceof WorkflowNotFoundError) return this.confirmedOnEndedOrder(orderId, transactionHash);
      if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
        temporalClientErrors.inc({ operation: 'update' });
        // The confirmation goes on in the order's workflow; the same request later answers its outcome.
        throw new OrderUnavailableError('The provider has not answered the confirmation yet; repeat the same request shortly.', 5);
      }
      throw unavailable(err, 'update', workflowId);
    }
  }

  /**
   * The answer to a confirmation of an order whose workflow has closed (it ended between the
   * route's read and the update): the same rule the workflow applies, on the order it left, so the
   * confirmed transaction repeated still answers the order and another one is still a conflict.
   */
  private async confirmedOnEndedOrder(orderId: string, transactionHash: string): Promise<SellOrder> {
    const order = (await this.getSell(orderId))?.order;
    if (order?.deposit_confirmation?.transaction_hash === transactionHash) return order;
    const refusal = order && depositConfirmationRefusal(order, transactionHash, undefined);
    // A closed workflow takes nothing, even one whose order still showed it waiting (terminated).
    if (refusal?.type === 'deposit_already_confirmed') throw new DepositConfirmationRefusedError(refusal.type, refusal.message);
    throw new DepositConfirmationRefusedError('deposit_not_awaited', 'The order has ended: it waits for no deposit.');
  }

  /** An order workflow's memo, once it holds an order. */
  private async memoOf(orderId: string): Promise<(Partial<OrderMemo> & { kind?: unknown }) | undefined> {
    const workflowId = orderWorkflowId(orderId);
    try {
      const description = await this.withRpcDeadline(() => this.options.client.workflow.getHandle(workflowId).describe());
      const memo = description.memo as (Partial<OrderMemo> & { kind?: unknown }) | undefined;
      return memo?.order ? memo : undefined;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw unavailable(err, 'describe', workflowId);
    }
  }

  /**
   * The order's integrator webhook attempts, from its workflow's webhookDeliveries query (a closed
   * workflow is replayed on a worker to answer); undefined when there is no such workflow.
   */
  async webhookDeliveries(orderId: string): Promise<WebhookDeliveryRecord[] | undefined> {
    const workflowId = orderWorkflowId(orderId);
    try {
      return await this.withRpcDeadline(() => this.options.client.workflow.getHandle(workflowId).query(webhookDeliveriesQuery));
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      if (err instanceof QueryNotRegisteredError) {
        // A worker of a release without this query answered (a rolling upgrade): a newer one will.
        throw new OrderUnavailableError('The order engine cannot answer this yet; try again shortly.', 5);
      }
      throw unavailable(err, 'query', workflowId);
    }
  }

  /**
   * Forwards a verified webhook of `providerCode` to the order it names, if that order is this
   * provider's and, where the provider's webhooks do not name the order (`claimProviderOrder`), the
   * provider order is this order's. The workflow checks both again; checking here first keeps
   * events that it would refuse out of its history.
   */
  async signalProviderEvent(providerCode: string, event: ProviderWebhookEvent, claimProviderOrder = false): Promise<SignalOutcome> {
    const refused = await this.refusalOf(providerCode, event, claimProviderOrder);
    if (refused) return refused;
    const workflowId = orderWorkflowId(event.orderId);
    try {
      await this.withRpcDeadline(() =>
        this.options.client.workflow.getHandle(workflowId).signal(providerEventSignal, {
          eventId: event.eventId,
          providerCode,
          providerStatus: event.providerStatus,
          status: event.status,
          providerOrderId: event.providerOrderId,
          failureReason: event.failureReason,
          cryptoAmount: event.cryptoAmount,
          transactionHash: event.transactionHash,
          reported: event.reported,
          providerOrderCreatedAt: event.providerOrderCreatedAt,
          receivedAt: new Date().toISOString(),
        }),
      );
      return 'delivered';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'unknown_order';
      throw unavailable(err, 'signal', workflowId);
    }
  }

  /**
   * Forwards a verified sell webhook to the sell order it names, with the same checks as a buy's. Its
   * own signal: a buy order's workflow has no handler for it, so it never moves a buy order (and the
   * buy signal never reaches a sell order).
   */
  async signalSellEvent(providerCode: string, event: SellWebhookEvent, claimProviderOrder = false): Promise<SignalOutcome> {
    const refused = await this.refusalOf(providerCode, event, claimProviderOrder);
    if (refused) return refused;
    const workflowId = orderWorkflowId(event.orderId);
    try {
      await this.withRpcDeadline(() =>
        this.options.client.workflow.getHandle(workflowId).signal(sellProviderEventSignal, {
          eventId: event.eventId,
          providerCode,
          providerStatus: event.providerStatus,
          status: event.status,
          providerOrderId: event.providerOrderId,
          failureReason: event.failureReason,
          deposit: event.deposit,
          transactionHash: event.transactionHash,
          reported: event.reported,
          providerOrderCreatedAt: event.providerOrderCreatedAt,
          receivedAt: new Date().toISOString(),
        }),
      );
      return 'delivered';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'unknown_order';
      throw unavailable(err, 'signal', workflowId);
    }
  }

  /** Why a verified webhook is not signalled to the order it names (not this provider's, claimed by another); undefined when it is. */
  private async refusalOf(
    providerCode: string,
    event: { orderId: string; providerOrderId?: string; claimKey?: string },
    claimProviderOrder: boolean,
  ): Promise<Exclude<SignalOutcome, 'delivered'> | undefined> {
    // What this process remembers can be stale: an order whose creation failed may have been created
    // again, with another provider, through another API process. So only a match is taken on trust.
    const remembered = this.providerOfOrder.get(event.orderId);
    const owner = remembered === providerCode ? remembered : await this.providerOf(event.orderId);
    if (owner === undefined) return 'unknown_order';
    if (owner !== providerCode) return 'other_provider';
    if (claimProviderOrder && event.providerOrderId !== undefined) {
      const holder = await this.claim(providerCode, event.claimKey ?? event.providerOrderId, event.orderId);
      if (holder !== event.orderId) return 'claimed_elsewhere';
    }
    return undefined;
  }

  /**
   * The order's provider, from the search attribute its workflow starts with, remembered for the
   * order's next webhooks; undefined for no such order. Webhooks of one order that arrive together
   * share one describe: fewer calls, and no older answer landing after a newer one.
   */
  private providerOf(orderId: string): Promise<string | undefined> {
    const inFlight = this.describingProvider.get(orderId);
    if (inFlight) return inFlight;
    const lookup = this.describeProvider(orderId).finally(() => this.describingProvider.delete(orderId));
    this.describingProvider.set(orderId, lookup);
    return lookup;
  }

  private async describeProvider(orderId: string): Promise<string | undefined> {
    const workflowId = orderWorkflowId(orderId);
    try {
      const description = await this.withRpcDeadline(() => this.options.client.workflow.getHandle(workflowId).describe());
      const code = description.typedSearchAttributes.get(PROVIDER_CODE_KEY);
      if (code !== undefined) this.providerOfOrder.set(orderId, code);
      else this.providerOfOrder.delete(orderId);
      return code;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) {
        this.providerOfOrder.delete(orderId);
        return undefined;
      }
      throw unavailable(err, 'describe', workflowId);
    }
  }

  /**
   * Claims the provider order, named by its claim key, for the order (workflows/claim.ts); returns
   * the order that holds it, which is this one when it was free or already this one's. The claim
   * stays open for the claim lifetime, and its id can never be started again while Temporal keeps
   * it, open or closed.
   */
  private async claim(providerCode: string, claimKey: string, orderId: string): Promise<string> {
    const workflowId = providerOrderClaimId(providerCode, claimKey);
    const known = this.claimHolders.get(workflowId);
    if (known !== undefined) return known;
    let holder: string | undefined;
    for (let attempt = 0; holder === undefined; attempt++) {
      if (
        await this.startClaim(workflowId, { orderId, providerCode, providerOrderId: claimKey, holdForMs: this.options.claimLifetimeMs })
      ) {
        holder = orderId;
      } else {
        holder = await this.holderOf(workflowId);
        // Gone between the start and the describe (retention deleted it): start again, once.
        if (holder === undefined && attempt > 0)
          throw new OrderUnavailableError('The provider order claim could not be read; try again.', 5);
      }
    }
    this.claimHolders.set(workflowId, holder);
    return holder;
  }

  /** Starts the claim; false when its id is taken (a claim open, or closed and still kept). */
  private async startClaim(workflowId: string, claim: ProviderOrderClaim): Promise<boolean> {
    try {
      await this.withRpcDeadline(() =>
        this.options.client.workflow.start<typeof providerOrderClaim>(CLAIM_WORKFLOW_TYPE, {
          workflowId,
          taskQueue: this.options.taskQueue,
          args: [claim],
          memo: { orderId: claim.orderId },
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          workflowIdConflictPolicy: 'FAIL',
          staticSummary: `${claim.providerCode} provider order claimed by order ${claim.orderId}`,
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
      throw unavailable(err, 'claim', workflowId);
    }
  }

  /** The order a claim names ('' for a claim without one); undefined when there is no such claim. */
  private async holderOf(workflowId: string): Promise<string | undefined> {
    try {
      const description = await this.withRpcDeadline(() => this.options.client.workflow.getHandle(workflowId).describe());
      const orderId = (description.memo as { orderId?: unknown } | undefined)?.orderId;
      return typeof orderId === 'string' ? orderId : '';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw unavailable(err, 'claim', workflowId);
    }
  }

  private withRpcDeadline<T>(fn: () => Promise<T>): Promise<T> {
    return this.options.client.withDeadline(Date.now() + (this.options.rpcTimeoutMs ?? 5000), fn);
  }

  private async existing(input: AnyOrderInput): Promise<Order | SellOrder> {
    const memo = isSellInput(input) ? await this.getSell(input.orderId) : await this.get(input.orderId);
    if (!memo || memo.integratorId !== input.integratorId) {
      throw new OrderUnavailableError('The order exists but could not be read; try again.');
    }
    if (memo.requestHash !== input.requestHash) {
      throw new OrderRejectedError('idempotency_conflict', 'this external_order_id was already used with a different request');
    }
    return memo.order;
  }
}

/** The refusal of an order whose provider's breaker is open, or half-open with every probe place taken. */
function outOfService(providerCode: string, admission: Extract<OrderAdmission, { admitted: false }>): ProviderOutOfServiceError {
  const seconds = Math.max(1, Math.ceil((admission.retryAt - Date.now()) / 1000));
  return new ProviderOutOfServiceError(
    admission.state === 'open'
      ? `Provider ${providerCode} is out of service: its recent order creations failed. It is tried again in ${seconds} s; choose another offer, or retry after that.`
      : `Provider ${providerCode} is being tried again with another order; choose another offer, or retry in ${seconds} s.`,
    seconds,
  );
}

function isOrderRejection(type: string | undefined | null): type is OrderRejectionType {
  return (ORDER_REJECTION_TYPES as readonly unknown[]).includes(type);
}

/** The `operation` label of onramp_temporal_client_errors_total: the API's Temporal calls. */
const TEMPORAL_OPERATIONS = ['create', 'reserve', 'describe', 'signal', 'claim', 'query', 'update'] as const;

/**
 * Exports onramp_temporal_client_errors_total at 0 for every operation, as the API starts:
 * prom-client shows a labelled series only from its first inc(), and Prometheus's rate() (the
 * OnrampTemporalUnreachable rule) does not count a series' first value. Keeps any count so far.
 */
export function zeroTemporalClientErrors(): void {
  for (const operation of TEMPORAL_OPERATIONS) temporalClientErrors.inc({ operation }, 0);
}

/**
 * The error an API caller gets for a failed Temporal call on `workflowId`; one for want of Temporal is
 * counted under `operation`. A payload the API cannot decode is the order's, not the caller's: never a 500.
 */
function unavailable(err: unknown, operation: (typeof TEMPORAL_OPERATIONS)[number], workflowId: string): unknown {
  if (err instanceof OrderRejectedError || err instanceof OrderUnavailableError) return err;
  if (isUndecodablePayload(err)) return new OrderUnreadableError(workflowId, err);
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
    temporalClientErrors.inc({ operation });
    // The workflow exists and keeps going; the same request later returns the order.
    return new OrderUnavailableError('The order is not created yet; repeat the same request shortly.', 5);
  }
  if (isTemporalUnreachable(err)) {
    temporalClientErrors.inc({ operation });
    return new OrderUnavailableError('The order engine cannot be reached; try again shortly.', 5);
  }
  return err;
}

/** How long a creation the API's answer did not wait for is followed: past the workflow's creation attempts (about 3.5 min against a provider that hangs). */
const CREATION_FOLLOW_MS = 5 * 60_000;

/** The answer of a request whose creation's outcome is settled in the background (its run looked up, or the creation followed). */
class SettledLater extends Error {
  constructor(readonly answer: unknown) {
    super('the creation is settled after the answer');
  }
}

/** The order rejection an update failed with, if it did. */
function rejectionOf(err: unknown): { type: OrderRejectionType; message: string } | undefined {
  if (!(err instanceof WorkflowUpdateFailedError) || !(err.cause instanceof ApplicationFailure)) return undefined;
  const type = err.cause.type;
  return type && isOrderRejection(type) ? { type, message: err.cause.message } : undefined;
}

function isDepositConfirmationRefusal(type: string | undefined | null): type is DepositConfirmationRefusal {
  return typeof type === 'string' && (DEPOSIT_CONFIRMATION_REFUSALS as readonly string[]).includes(type);
}

type AnyOrderInput = OrderWorkflowInput | SellOrderWorkflowInput;

function isSellInput(input: AnyOrderInput): input is SellOrderWorkflowInput {
  return 'kind' in input && input.kind === 'off_ramp';
}

/** The update that creates the input's order. One definition type for both: each answers its own order type, which `start`'s overloads carry. */
function createUpdateOf(input: AnyOrderInput): UpdateDefinition<Order | SellOrder, [{ requestHash: string }]> {
  return isSellInput(input) ? createSellOrderUpdate : createOrderUpdate;
}
