/** One onramp transaction, created when the customer goes through the widget. */
export interface SimTransaction {
  orderId: number;
  merchantRecognitionId: string;
  /** The widget URL's terms it was opened with: a later open must name the same. */
  widgetTerms: string;
  /** Onramp.money's payment-method name (fetchAllCountryConfig). */
  paymentMethod: string;
  walletAddress: string;
  coinCode: string;
  network: string;
  /** The fiat currency code (its fiatType is looked up when the transaction is shown). */
  fiatCurrency: string;
  fiatAmount: string;
  expectedPrice: string;
  expectedCryptoAmount: string;
  actualCryptoAmount?: string;
  onrampFee: string;
  gasFee: string;
  status: number;
  transactionHash?: string;
  referenceId?: string;
  webhookTrials: number;
  createdAt: Date;
  updatedAt: Date;
}

/** One step of an action: the transaction's next status; `webhook` when Onramp.money sends its webhook at it. */
export interface Step {
  status: number;
  webhook?: boolean;
}

/**
 * The documented onramp sequence after the customer's fiat transfer: referenceId claimed, deposit
 * secured, order placement, purchasing, crypto purchased, withdrawal initiated, withdrawal complete
 * (where the webhook goes out), webhook sent. Onramp.money sends no webhook before completion.
 */
const PAY: readonly Step[] = [
  { status: 1 },
  { status: 2 },
  { status: 11 },
  { status: 12 },
  { status: 13 },
  { status: 14 },
  { status: 15, webhook: true },
  { status: 16 },
];

const UNPAID = [0, 1];

/** Every onramp status code Onramp.money documents (Order status codes). */
const ONRAMP_STATUSES: ReadonlySet<number> = new Set([-4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 11, 12, 13, 14, 15, 16]);

export const isOnrampStatus = (code: number): boolean => ONRAMP_STATUSES.has(code);

/** Timed out (-1) or abandoned (-2): no money moved, and the widget URL opens a new transaction. */
export const endedUnpaid = (tx: SimTransaction): boolean => tx.status === -1 || tx.status === -2;

/** The newest transaction under a merchantRecognitionId: the one its widget URL shows. */
export function latestOf(transactions: Iterable<SimTransaction>, merchantRecognitionId: string): SimTransaction | undefined {
  let latest: SimTransaction | undefined;
  for (const tx of transactions) {
    if (tx.merchantRecognitionId === merchantRecognitionId && (!latest || tx.orderId > latest.orderId)) latest = tx;
  }
  return latest;
}

/**
 * The customer actions possible in each state and the steps each plays. Onramp.money documents no
 * hold and no refund status: those actions are not offered. `fail` is the bank account's name not
 * matching the KYC name (-3), `mismatch` a transfer of another amount (-4), `expire` the payment
 * window ending (-1), `abandon` the customer leaving (-2).
 */
export function stepsFor(tx: SimTransaction, action: string): Step[] | undefined {
  if (!UNPAID.includes(tx.status)) return undefined;
  const claimed = tx.status === 1 ? [] : [{ status: 1 }];
  switch (action) {
    case 'pay':
      return PAY.filter((step) => step.status !== 1 || tx.status === 0);
    case 'fail':
      return [...claimed, { status: -3 }];
    case 'mismatch':
      return [...claimed, { status: -4 }];
    case 'expire':
      return [{ status: -1 }];
    case 'abandon':
      return tx.status === 0 ? [{ status: -2 }] : undefined;
    default:
      return undefined;
  }
}

export const ACTIONS = ['pay', 'fail', 'mismatch', 'expire', 'abandon'] as const;

export const allowedActions = (tx: SimTransaction): string[] => ACTIONS.filter((a) => stepsFor(tx, a) !== undefined);

let lastOrderId = 100_000;
/** Onramp.money's order ids are integers. */
export const nextOrderId = (): number => ++lastOrderId;
