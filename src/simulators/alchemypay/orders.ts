/** The simulated Alchemy Pay's on-ramp orders: statuses, the customer's actions and their JSON form. */
export type AlchemypaySimStatus =
  | 'PENDING'
  | 'INTERIM_PAY_FAIL'
  | 'PAY_SUCCESS'
  | 'TRANSFER'
  | 'FINISHED'
  | 'PAY_FAIL'
  | 'CANCEL'
  | 'RISK_CONTROL'
  | 'REFUNDED'
  | 'INVALID_ADDRESS';
export type AlchemypaySimAction = 'pay' | 'hold' | 'fail' | 'expire' | 'refund' | 'retry' | 'reject_address';

/** The statuses Alchemy Pay sends a webhook for; the others are seen only by the order query. */
export const WEBHOOK_STATUSES: ReadonlySet<AlchemypaySimStatus> = new Set(['PAY_SUCCESS', 'PAY_FAIL', 'FINISHED']);

export interface SimOrder {
  orderNo: string;
  merchantOrderNo: string | null;
  /** The signed ramp query that opened it: the same URL opens the same order. */
  session: string;
  status: AlchemypaySimStatus;
  crypto: string;
  network: string;
  address: string;
  fiat: string;
  /** What the customer pays, fees included. */
  amount: string;
  cryptoQuantity: string;
  cryptoPrice: string;
  rampFee: string;
  networkFee: string;
  payWayCode: string;
  createTime: string;
  payTime: string;
  txHash: string;
  txTime: string;
}

export const ALLOWED_ACTIONS: Readonly<Record<AlchemypaySimStatus, readonly AlchemypaySimAction[]>> = {
  PENDING: ['pay', 'hold', 'fail', 'retry', 'expire', 'reject_address'],
  INTERIM_PAY_FAIL: ['pay', 'fail', 'expire'],
  RISK_CONTROL: ['pay', 'fail', 'refund'],
  PAY_SUCCESS: ['refund'],
  TRANSFER: ['refund'],
  FINISHED: [],
  PAY_FAIL: [],
  CANCEL: [],
  REFUNDED: [],
  INVALID_ADDRESS: [],
};

const ACTIONS = ['pay', 'hold', 'fail', 'expire', 'refund', 'retry', 'reject_address'];
export const isAction = (value: unknown): value is AlchemypaySimAction => typeof value === 'string' && ACTIONS.includes(value);

/** Alchemy Pay's own sequence for each action. */
export function plan(action: AlchemypaySimAction): AlchemypaySimStatus[] {
  switch (action) {
    case 'pay':
      return ['PAY_SUCCESS', 'TRANSFER', 'FINISHED'];
    case 'hold':
      return ['RISK_CONTROL'];
    case 'fail':
      return ['PAY_FAIL'];
    case 'retry':
      return ['INTERIM_PAY_FAIL'];
    case 'expire':
      return ['CANCEL'];
    case 'refund':
      return ['REFUNDED'];
    case 'reject_address':
      return ['INVALID_ADDRESS'];
  }
}

const dateTime = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/** An order as the order query and the webhooks show it: amounts as strings, empty strings for what is not known yet. */
export function orderJson(order: SimOrder, appId: string): Record<string, string> {
  const finished = order.status === 'FINISHED';
  return {
    appId,
    orderNo: order.orderNo,
    merchantOrderNo: order.merchantOrderNo ?? '',
    side: 'BUY',
    status: order.status,
    crypto: order.crypto,
    network: order.network,
    address: order.address,
    fiat: order.fiat,
    amount: order.amount,
    cryptoPrice: order.cryptoPrice,
    cryptoQuantity: finished ? order.cryptoQuantity : '',
    rampFee: order.rampFee,
    rampFeeUnit: order.fiat,
    networkFee: order.networkFee,
    payType: 'CREDIT_CARD',
    payTime: order.payTime,
    txHash: finished ? order.txHash : '',
    txTime: order.txTime,
    createTime: dateTime(order.createTime),
    message: order.status === 'PAY_FAIL' ? 'Declined by 3-D Secure' : '',
  };
}
