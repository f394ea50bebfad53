/**
 * Banxa's sell (off-ramp) request bodies (Hosted Checkout "Create Sell Order", "Confirm a sell
 * order"). Answers share the buy side's schemas (schemas.ts): the quote, the order (with
 * `orderType` SELL, and Banxa's deposit address in `walletAddress`/`walletAddressTag`).
 */
import { z } from 'zod';
import { PROVIDER_DECIMAL_TEXT } from '../kit/decimal-text';

/** `POST /{partnerRef}/v2/sell` body. `walletAddress` is the customer's sending wallet, which is also the refund address. */
export const BanxaSellOrderRequestSchema = z.object({
  crypto: z.string(),
  blockchain: z.string(),
  fiat: z.string(),
  cryptoAmount: z.string().regex(PROVIDER_DECIMAL_TEXT),
  walletAddress: z.string().min(1),
  walletAddressTag: z.string().optional(),
  redirectUrl: z.url(),
  paymentMethodId: z.string(),
  externalCustomerId: z.string(),
  externalOrderId: z.string(),
  /** Returned as-is by Banxa: the broker keeps the refund address here, for the confirm call's `sourceAddress`. */
  metadata: z.object({ refundWalletAddress: z.string() }),
});
export type BanxaSellOrderRequest = z.infer<typeof BanxaSellOrderRequestSchema>;

/** `POST /{partnerRef}/v2/orders/{orderId}/confirm` body. */
export interface BanxaConfirmSellRequest {
  transactionHash: string;
  /** Must equal the `walletAddress` given at creation. */
  sourceAddress: string;
  sourceAddressTag?: string;
  /** Banxa's deposit address (the order lookup's `walletAddress`). */
  targetAddress: string;
  targetAddressTag?: string;
}
