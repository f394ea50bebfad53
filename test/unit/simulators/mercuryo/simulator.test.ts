import { createHmac } from 'node:crypto';
import { widgetSignature } from '../../../../src/providers/mercuryo/widget';
import { allowedActions, newPurchase, stepsFor, type SimPurchase } from '../../../../src/simulators/mercuryo/purchase';
import { clientIpForms, signCallback, signWidget } from '../../../../src/simulators/mercuryo/signing';

function purchase(payment: string, withdraw?: string): SimPurchase {
  const p = newPurchase({
    merchantTransactionId: 'm-1',
    widgetTerms: '[]',
    paymentMethod: 'card',
    address: 'addr',
    currency: 'BTC',
    network: 'BITCOIN',
    fiatCurrency: 'USD',
    fiatAmount: '100',
    cryptoAmount: '0.001',
  });
  p.payment.status = payment;
  if (withdraw) p.withdraw = { ...p.payment, id: 'w', status: withdraw };
  return p;
}

describe('Mercuryo simulator purchase states', () => {
  test.each([
    ['new', undefined, ['pay', 'hold', 'fail', 'expire']],
    ['pending', undefined, ['pay', 'hold', 'fail', 'expire']],
    ['order_scheduled', undefined, ['pay', 'fail', 'expire']],
    ['order_failed', undefined, []],
    ['cancelled', undefined, []],
    ['paid', 'new', ['fail', 'refund']],
    ['paid', 'pending', ['fail', 'refund']],
    ['paid', 'failed', ['refund']],
    ['paid', 'completed', []],
    ['cancelled', 'failed', []],
  ])('payment %s, withdraw %s allows %j', (payment, withdraw, allowed) => {
    expect(allowedActions(purchase(payment, withdraw))).toEqual(allowed);
  });

  test('pay walks the payment leg, then the withdraw leg Mercuryo opens when paid', () => {
    expect(stepsFor(purchase('new'), 'pay')).toEqual([
      { payment: 'pending' },
      { payment: 'paid', withdraw: 'new' },
      { withdraw: 'pending' },
      { withdraw: 'completed' },
    ]);
    expect(stepsFor(purchase('order_scheduled'), 'pay')?.[0]).toEqual({ payment: 'paid', withdraw: 'new' });
    expect(stepsFor(purchase('new'), 'hold')).toEqual([{ payment: 'pending' }, { payment: 'order_scheduled' }]);
    expect(stepsFor(purchase('paid', 'pending'), 'refund')).toEqual([{ withdraw: 'failed' }, { payment: 'cancelled' }]);
  });

  test('card, mobile wallets and invoice methods are the lookup types buy, mobile_pay, buy_acquirer', () => {
    expect(purchase('new').paymentType).toBe('buy');
    expect(newPurchase({ ...purchase('new'), paymentMethod: 'google' }).paymentType).toBe('mobile_pay');
    expect(newPurchase({ ...purchase('new'), paymentMethod: 'revolut_pay' }).paymentType).toBe('buy_acquirer');
  });
});

describe('Mercuryo simulator signing', () => {
  test('checks the same v2 signature the adapter makes', () => {
    expect(signWidget('a', 's', '127.0.0.1', 'm')).toBe(widgetSignature('a', 's', '127.0.0.1', 'm'));
  });

  test('signs callbacks as Mercuryo documents: the HMAC of the body without whitespace', () => {
    const body = '{"data": {"updated_at": "2026-01-16 04:04:21"}}';
    expect(signCallback('key', body)).toBe(
      createHmac('sha256', 'key').update('{"data":{"updated_at":"2026-01-1604:04:21"}}').digest('hex'),
    );
  });

  test('reads IPv4-mapped addresses as IPv4 and treats both loopbacks alike', () => {
    expect(clientIpForms('::ffff:203.0.113.7')).toEqual(['203.0.113.7']);
    expect(clientIpForms('::1')).toEqual(['127.0.0.1', '::1']);
    expect(clientIpForms(undefined)).toEqual([]);
  });
});
