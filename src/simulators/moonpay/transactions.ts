/** The simulated MoonPay's buy transactions: their statuses, stages, the customer's actions and their JSON form. */
import type { SimulatorProfile } from '../kit/profile';
import { cryptoCurrency, currencyId, fiatCurrency } from './catalogue';
import type { SimulatedAsset } from './profile';

export type MoonpaySimStatus = 'waitingPayment' | 'waitingAuthorization' | 'pending' | 'completed' | 'failed';
export type MoonpaySimAction = 'pay' | 'hold' | 'fail' | 'expire' | 'refund';

export interface SimTransaction {
  id: string;
  /** The signed widget query that opened it: the same URL opens the same transaction. */
  session: string;
  createdAt: string;
  updatedAt: string;
  status: MoonpaySimStatus;
  /** Where and why a failed transaction failed. */
  failure?: { stage: number; reason: string };
  externalTransactionId: string | null;
  externalCustomerId: string | null;
  customerId: string;
  walletAddress: string;
  asset: SimulatedAsset;
  fiat: string;
  /** What the customer pays, fees included. */
  totalAmount: string;
  /** The part of it that buys crypto. */
  baseCurrencyAmount: string;
  quoteCurrencyAmount: string;
  feeAmount: string;
  networkFeeAmount: string;
  paymentMethod: string;
  widgetRedirectUrl: string | null;
  cryptoTransactionId: string | null;
}

/** One status change an action makes. */
export interface Step {
  status: MoonpaySimStatus;
  failure?: { stage: number; reason: string };
}

export const ALLOWED_ACTIONS: Readonly<Record<MoonpaySimStatus, readonly MoonpaySimAction[]>> = {
  waitingPayment: ['pay', 'hold', 'fail', 'expire'],
  waitingAuthorization: ['pay', 'fail', 'refund'],
  pending: ['fail', 'refund'],
  completed: [],
  failed: [],
};

export const isSimStatus = (value: string): value is MoonpaySimStatus => Object.hasOwn(ALLOWED_ACTIONS, value);

export const isAction = (value: unknown): value is MoonpaySimAction =>
  typeof value === 'string' && ['pay', 'hold', 'fail', 'expire', 'refund'].includes(value);

const STAGES = ['stage_one_ordering', 'stage_two_verification', 'stage_three_processing', 'stage_four_delivery'] as const;
/** The stage each open status is at. */
const CURRENT_STAGE: Readonly<Record<Exclude<MoonpaySimStatus, 'failed'>, number>> = {
  waitingPayment: 0,
  waitingAuthorization: 1,
  pending: 2,
  completed: STAGES.length,
};

/** The stage an action fails the transaction at: where the transaction is now. */
const stageOf = (status: MoonpaySimStatus) => (status === 'failed' || status === 'completed' ? 0 : CURRENT_STAGE[status]);

/** MoonPay's own sequence for each action, from where the transaction stands. */
export function plan(action: MoonpaySimAction, from: MoonpaySimStatus): Step[] {
  switch (action) {
    case 'pay':
      return [{ status: 'pending' }, { status: 'completed' }];
    case 'hold':
      return [{ status: 'waitingAuthorization' }];
    case 'fail': {
      const reason =
        from === 'pending' ? 'rejected_other' : from === 'waitingAuthorization' ? 'rejected_card' : 'payment_authorization_declined';
      return [{ status: 'failed', failure: { stage: stageOf(from), reason } }];
    }
    case 'expire':
      return [{ status: 'failed', failure: { stage: stageOf(from), reason: 'timeout_bank_transfer' } }];
    case 'refund':
      return [{ status: 'failed', failure: { stage: stageOf(from), reason: 'refund' } }];
  }
}

function stages(tx: SimTransaction) {
  const current = tx.status === 'failed' ? (tx.failure?.stage ?? 0) : CURRENT_STAGE[tx.status];
  return STAGES.map((stage, i) => {
    const failedHere = tx.status === 'failed' && i === current;
    return {
      stage,
      status: i < current ? 'success' : failedHere ? 'failed' : i === current ? 'in_progress' : 'not_started',
      failureReason: failedHere ? (tx.failure?.reason ?? 'error') : null,
      actions: [],
    };
  });
}

/** The legacy top-level reason is a sentence: "payment_authorization_declined" → "Payment authorization declined". */
const sentence = (code: string) => code.charAt(0).toUpperCase() + code.slice(1).replaceAll('_', ' ');

/** A transaction as MoonPay's API and webhooks show it: amounts are JSON numbers. */
export function transactionJson(tx: SimTransaction, profile: SimulatorProfile) {
  return {
    id: tx.id,
    createdAt: tx.createdAt,
    updatedAt: tx.updatedAt,
    baseCurrencyAmount: Number(tx.baseCurrencyAmount),
    quoteCurrencyAmount: tx.status === 'completed' ? Number(tx.quoteCurrencyAmount) : null,
    feeAmount: Number(tx.feeAmount),
    extraFeeAmount: 0,
    networkFeeAmount: Number(tx.networkFeeAmount),
    areFeesIncluded: true,
    flow: 'principal',
    status: tx.status,
    failureReason: tx.failure ? sentence(tx.failure.reason) : null,
    walletAddress: tx.walletAddress,
    walletAddressTag: null,
    cryptoTransactionId: tx.cryptoTransactionId,
    redirectUrl: null,
    widgetRedirectUrl: tx.widgetRedirectUrl,
    baseCurrencyId: currencyId(tx.fiat.toLowerCase()),
    currencyId: currencyId(tx.asset.code),
    customerId: tx.customerId,
    externalTransactionId: tx.externalTransactionId,
    externalCustomerId: tx.externalCustomerId,
    paymentMethod: tx.paymentMethod,
    isFromQuote: false,
    isRecurring: false,
    baseCurrency: fiatCurrency(profile, tx.fiat),
    currency: cryptoCurrency(tx.asset),
    stages: stages(tx),
  };
}
