import { randomUUID } from 'node:crypto';
import { mercuryoId, type SimOperation } from './purchase';

/** One sell started in the widget: the `sell` operation (made at the start), and the `deposit` once crypto is on its way. */
export interface SimSale {
  merchantTransactionId: string;
  /** The widget URL's terms the sale was opened with: a later open must name the same. */
  widgetTerms: string;
  currency: string;
  network: string;
  /** The crypto amount sold: the widget's, or what arrived instead. */
  amount: string;
  fiatCurrency: string;
  /** The payout, the fee taken off. */
  fiatAmount: string;
  fee: string;
  refundAddress: string;
  /** Mercuryo's own address the customer is shown; in the lookup's and callbacks' deposit leg only. */
  depositAddress: string;
  userUuid: string;
  sell: SimOperation;
  deposit?: SimOperation & { hash?: string };
}

/** One step of an action: the legs' new statuses, applied together (one callback each). */
export interface SaleStep {
  deposit?: string;
  sell?: string;
  /** The crypto that arrives is a tenth less than the widget's amount. */
  short?: boolean;
}

export function newSale(fields: Omit<SimSale, 'userUuid' | 'sell' | 'deposit'>): SimSale {
  const now = new Date();
  return { ...fields, userUuid: randomUUID(), sell: { id: mercuryoId(), status: 'new', createdAt: now, updatedAt: now } };
}

export const SELL_ACTIONS = ['pay', 'fail', 'expire', 'refund', 'wrong_amount'] as const;
export type SellAction = (typeof SELL_ACTIONS)[number];

const arrival = (short = false): SaleStep[] => [{ deposit: 'new', short }, { deposit: 'pending' }, { deposit: 'completed' }];

/**
 * The steps each customer action plays, in Mercuryo's order: the deposit leg (new → pending →
 * completed) once crypto is sent, then the sell leg (pending → succeeded) exchanging it and paying
 * the card. `fail`: the deposit fails; `expire`: no crypto in 6 hours, the sell fails with no deposit;
 * `refund`: the crypto arrived, the payout failed and the sell fails ("crypto is refunded to
 * refund_address"); `wrong_amount`: a tenth less arrives and is sold. A sale past its start takes
 * `refund` only while the payout is under way.
 */
export function saleSteps(sale: SimSale, action: string): SaleStep[] | undefined {
  if (sale.sell.status === 'new' && sale.deposit === undefined) {
    switch (action) {
      case 'pay':
        return [...arrival(), { sell: 'pending' }, { sell: 'succeeded' }];
      case 'wrong_amount':
        return [...arrival(true), { sell: 'pending' }, { sell: 'succeeded' }];
      case 'fail':
        return [{ deposit: 'new' }, { deposit: 'failed' }];
      case 'expire':
        return [{ sell: 'failed' }];
      case 'refund':
        return [...arrival(), { sell: 'pending' }, { sell: 'failed' }];
      default:
        return undefined;
    }
  }
  if (sale.sell.status === 'pending' && action === 'refund') return [{ sell: 'failed' }];
  return undefined;
}

export const saleActions = (sale: SimSale): string[] => SELL_ACTIONS.filter((a) => saleSteps(sale, a) !== undefined);
