import type { CreateProviderOrderRequest, ProviderOrderSnapshot, ProviderQuote, QuoteRequest } from '../types';
import type { SandboxOrder } from './schemas';
import type { SandboxQuoteSchema } from './schemas';
import type { z } from 'zod';
import { SANDBOX_STATUS_MAP } from './status-map';

/** The sandbox provider names assets by ticker and network exactly as the broker's dictionary does. */
export function toQuoteParams(request: QuoteRequest): Record<string, string> {
  return {
    fiat_currency: request.fiat.ticker,
    crypto_currency: request.crypto.ticker,
    network: request.crypto.network,
    fiat_amount: request.fiatAmount,
    payment_method: request.paymentMethod,
    country: request.country,
  };
}

export function fromQuote(quote: z.infer<typeof SandboxQuoteSchema>): ProviderQuote {
  return {
    fiatAmount: quote.fiat_amount,
    cryptoAmount: quote.crypto_amount,
    processingFee: quote.processing_fee,
    networkFee: quote.network_fee,
    paymentMethod: quote.payment_method,
    providerQuoteId: quote.quote_id,
    expiresAt: new Date(quote.expires_at),
  };
}

export function toOrderBody(request: CreateProviderOrderRequest): Record<string, string> {
  return {
    partner_order_id: request.orderId,
    fiat_currency: request.fiat.ticker,
    crypto_currency: request.crypto.ticker,
    network: request.crypto.network,
    fiat_amount: request.fiatAmount,
    wallet_address: request.walletAddress,
    payment_method: request.paymentMethod,
    country: request.country,
  };
}

export function fromOrder(order: SandboxOrder): ProviderOrderSnapshot {
  return {
    orderId: order.partner_order_id,
    providerOrderId: order.id,
    providerStatus: order.status,
    status: SANDBOX_STATUS_MAP[order.status],
    failureReason: order.status === 'FAILED' ? (order.failure_reason ?? 'failed_at_provider') : undefined,
    cryptoAmount: order.crypto_amount,
    transactionHash: order.tx_hash,
  };
}
