import { CHAIN_IDS, COIN_IDS, FIAT_TYPES, PAYMENT_TYPES } from './profile';
import type { SimTransaction } from './transactions';

const num = (text: string | undefined) => (text === undefined ? 0 : Number(text));

/**
 * One transaction as merchantHistory lists it and the webhook carries it: numbers for amounts and
 * ids, ISO times, the merchant's merchantRecognitionId.
 */
export function transactionRecord(tx: SimTransaction): Record<string, unknown> {
  return {
    orderId: tx.orderId,
    walletAddress: tx.walletAddress,
    coinId: COIN_IDS[tx.coinCode] ?? null,
    fiatType: FIAT_TYPES[tx.fiatCurrency] ?? null,
    paymentType: PAYMENT_TYPES[tx.paymentMethod] ?? 2,
    expectedPrice: num(tx.expectedPrice),
    fiatAmount: num(tx.fiatAmount),
    expectedCryptoAmount: num(tx.expectedCryptoAmount),
    actualPrice: tx.actualCryptoAmount ? num(tx.expectedPrice) : 0,
    actualCryptoAmount: num(tx.actualCryptoAmount),
    kycNeeded: 0,
    createdAt: tx.createdAt.toISOString(),
    updatedAt: tx.updatedAt.toISOString(),
    status: tx.status,
    transactionHash: tx.transactionHash ?? '',
    referenceId: tx.referenceId ?? null,
    chainId: CHAIN_IDS[tx.network] ?? null,
    onRampFee: num(tx.onrampFee),
    gasFee: num(tx.gasFee),
    clientFee: 0,
    gatewayFee: 0,
    merchantRecognitionId: tx.merchantRecognitionId,
  };
}

/** The webhook's data: the same record, with the count of delivery attempts. */
export const webhookData = (tx: SimTransaction): Record<string, unknown> => ({ ...transactionRecord(tx), webhookTrials: tx.webhookTrials });
