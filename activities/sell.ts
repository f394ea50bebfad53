/**
 * Activities of the sell (off-ramp) order workflow: the provider's sell order made, asked about, and
 * a deposit instruction checked against the network's address rules. Built from their dependencies
 * (createSellActivities) like the buy's; the integrator webhooks are the buy's activities.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { validateWalletAddress } from '../src/addresses/validate';
import type { CurrencyDictionary } from '../src/domain/currency';
import { loggableProviderOrderId } from '../src/domain/provider-order-id';
import type { ReportedDeposit } from '../src/domain/sell-integrity';
import { cutDescriptiveTexts, outOfBoundsMessage, textOutOfBounds } from '../src/providers/kit/report-bounds';
import type { ProviderRegistry } from '../src/providers/registry';
import type { ProviderSellOrder, SellAdapter, SellOrderSnapshot } from '../src/providers/sell-types';
import { ProviderRejectedError } from '../src/providers/types';
import type { SellOrderRequest } from '../src/temporal/sell-order-contract';

export interface SellActivityDependencies {
  providers: ProviderRegistry;
  currencies: CurrencyDictionary;
}

export interface DepositCheckResult {
  valid: boolean;
  reason?: string;
}

export function createSellActivities({ providers, currencies }: SellActivityDependencies) {
  function sellAdapter(code: string): SellAdapter {
    const found = providers.get(code)?.sell;
    if (!found) throw ApplicationFailure.nonRetryable(`provider ${code} does not buy crypto on this worker`, 'provider_unavailable');
    return found;
  }

  /** A report's texts within their bounds (a failure reason cut), or the report refused: `type` names the refusal. */
  function bounded<R extends SellOrderSnapshot | ProviderSellOrder>(providerCode: string, report: R, type: string): R {
    const cut = cutDescriptiveTexts(report);
    const outOfBounds = textOutOfBounds(cut);
    if (outOfBounds)
      throw ApplicationFailure.nonRetryable(`${providerCode} answered out of bounds: ${outOfBoundsMessage(outOfBounds)}`, type);
    return cut;
  }

  return {
    /**
     * Makes the provider's sell order under the broker's order id (a retried call finds the first
     * one where the provider takes a partner reference). The provider's refusal is final
     * (`provider_rejected`); an answer about another order is unusable (`provider_unavailable`).
     */
    async createSellProviderOrder(input: { orderId: string; providerCode: string; request: SellOrderRequest }): Promise<ProviderSellOrder> {
      const crypto = currencies.crypto(input.request.from_currency);
      const fiat = currencies.fiat(input.request.to_currency);
      if (!fiat || !crypto) throw ApplicationFailure.nonRetryable('unknown currency pair', 'provider_rejected');
      let order: ProviderSellOrder;
      try {
        order = await sellAdapter(input.providerCode).createOrder({
          orderId: input.orderId,
          crypto,
          fiat,
          cryptoAmount: input.request.from_amount,
          refundWalletAddress: input.request.refund_wallet_address,
          payoutMethod: input.request.payout_method,
          country: input.request.country_code,
          state: input.request.state_code,
          externalUserId: input.request.external_user_id,
          returnUrl: input.request.return_url,
          ip: input.request.ip,
          userAgent: input.request.user_agent,
          extras: input.request.extras,
        });
      } catch (err) {
        if (err instanceof ProviderRejectedError) {
          throw ApplicationFailure.nonRetryable(err.message, 'provider_rejected', { code: err.code, ...err.details });
        }
        throw err;
      }
      order = bounded(input.providerCode, order, 'provider_unavailable');
      if (order.orderId !== input.orderId) {
        throw ApplicationFailure.nonRetryable(`${input.providerCode} answered the creation about another order`, 'provider_unavailable');
      }
      return order;
    },

    /** The provider's word on the sell order; an answer out of bounds or about another order is refused. */
    async getSellProviderOrderStatus(input: {
      orderId: string;
      providerCode: string;
      providerOrderId?: string;
      orderCreatedAt?: string;
    }): Promise<SellOrderSnapshot> {
      const context = input.orderCreatedAt === undefined ? undefined : { orderCreatedAt: input.orderCreatedAt };
      const snapshot = bounded(
        input.providerCode,
        await sellAdapter(input.providerCode).getOrder(input.orderId, input.providerOrderId, context),
        'snapshot_out_of_bounds',
      );
      if (snapshot.orderId !== input.orderId) {
        throw ApplicationFailure.nonRetryable(
          `${input.providerCode} answered about order ${JSON.stringify(snapshot.orderId)}`,
          'snapshot_mismatch',
        );
      }
      if (
        input.providerOrderId !== undefined &&
        snapshot.providerOrderId !== undefined &&
        snapshot.providerOrderId !== input.providerOrderId
      ) {
        throw ApplicationFailure.nonRetryable(
          `${input.providerCode} answered about provider order ${loggableProviderOrderId(snapshot.providerOrderId)}`,
          'snapshot_mismatch',
        );
      }
      return snapshot;
    },

    /**
     * Passes the customer's deposit transaction to the provider (Banxa's sell confirmation). A
     * provider without such a call, or its refusal, is final (`provider_rejected`); anything else is
     * retried, the provider's call taking the same transaction again.
     */
    async confirmSellDeposit(input: {
      orderId: string;
      providerCode: string;
      providerOrderId?: string;
      transactionHash: string;
    }): Promise<void> {
      const adapter = sellAdapter(input.providerCode);
      if (!adapter.confirmDeposit) {
        throw ApplicationFailure.nonRetryable(`provider ${input.providerCode} takes no deposit confirmation`, 'provider_rejected');
      }
      try {
        await adapter.confirmDeposit(input.orderId, input.providerOrderId, input.transactionHash);
      } catch (err) {
        if (err instanceof ProviderRejectedError) {
          throw ApplicationFailure.nonRetryable(err.message, 'provider_rejected', { code: err.code, ...err.details });
        }
        throw err;
      }
    },

    /**
     * Whether a deposit instruction can receive the order's crypto: on the crypto currency's network,
     * an address the network's rules accept, with a memo of the format the network takes.
     */
    // eslint-disable-next-line @typescript-eslint/require-await
    async checkDepositAddress(input: { currencyId: number; deposit: ReportedDeposit }): Promise<DepositCheckResult> {
      const crypto = currencies.crypto(input.currencyId);
      if (!crypto) return { valid: false, reason: `currency ${input.currencyId} is not a crypto currency` };
      const { deposit } = input;
      if (deposit.network !== crypto.network) return { valid: false, reason: `network ${deposit.network}, not ${crypto.network}` };
      const { valid, reason } = validateWalletAddress(
        crypto.network,
        deposit.address,
        deposit.memo === undefined ? {} : { tag: deposit.memo },
      );
      return reason === undefined ? { valid } : { valid, reason };
    },
  };
}

export type SellActivities = ReturnType<typeof createSellActivities>;
