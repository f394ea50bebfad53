import { onrampMoneySignature, signedRequestHeaders } from '../../../../src/providers/onramp_money/signing';
import { encodePayload, signPayload, webhookHeaders } from '../../../../src/simulators/onramp_money/signing';
import { allowedActions, stepsFor, type SimTransaction } from '../../../../src/simulators/onramp_money/transactions';

function transaction(status: number): SimTransaction {
  const now = new Date();
  return {
    orderId: 1,
    merchantRecognitionId: 'm-1',
    widgetTerms: '[]',
    paymentMethod: 'SEPA_BANK_TRANSFER',
    walletAddress: 'addr',
    coinCode: 'btc',
    network: 'btc',
    fiatCurrency: 'EUR',
    fiatAmount: '100',
    expectedPrice: '90000',
    expectedCryptoAmount: '0.001',
    onrampFee: '1.49',
    gasFee: '0.33',
    status,
    webhookTrials: 0,
    createdAt: now,
    updatedAt: now,
  };
}

describe('Onramp.money simulator transaction states', () => {
  test.each([
    [0, ['pay', 'fail', 'mismatch', 'expire', 'abandon']],
    [1, ['pay', 'fail', 'mismatch', 'expire']],
    [2, []],
    [14, []],
    [16, []],
    [-1, []],
    [-3, []],
  ])('status %i allows %j', (status, allowed) => {
    expect(allowedActions(transaction(status))).toEqual(allowed);
  });

  test('pay walks the documented onramp codes, with the one webhook at withdrawal complete', () => {
    expect(stepsFor(transaction(0), 'pay')).toEqual([
      { status: 1 },
      { status: 2 },
      { status: 11 },
      { status: 12 },
      { status: 13 },
      { status: 14 },
      { status: 15, webhook: true },
      { status: 16 },
    ]);
    expect(stepsFor(transaction(1), 'pay')?.[0]).toEqual({ status: 2 });
    expect(stepsFor(transaction(0), 'fail')).toEqual([{ status: 1 }, { status: -3 }]);
    expect(stepsFor(transaction(1), 'mismatch')).toEqual([{ status: -4 }]);
    expect(stepsFor(transaction(0), 'hold')).toBeUndefined();
    expect(stepsFor(transaction(0), 'refund')).toBeUndefined();
  });
});

describe('Onramp.money simulator signing', () => {
  test("the simulator's reading and the adapter's agree on payload and signature", () => {
    const body = { page: 1, pageSize: 500, order: 'DESC', type: 1 };
    const headers = signedRequestHeaders('key', 'secret', body, 1_700_000_000_000);
    expect(headers['x-onramp-payload']).toBe(encodePayload(body, 1_700_000_000_000));
    expect(headers['x-onramp-signature']).toBe(signPayload('secret', headers['x-onramp-payload']));
    expect(JSON.parse(Buffer.from(headers['x-onramp-payload'], 'base64').toString('utf8'))).toEqual({ timestamp: 1_700_000_000_000, body });
  });

  test('webhook headers sign the payload that carries the data', () => {
    const headers = webhookHeaders('secret', { orderId: 9, status: 15 });
    expect(headers['x-onramp-signature']).toBe(onrampMoneySignature('secret', headers['x-onramp-payload']!));
    expect(JSON.parse(Buffer.from(headers['x-onramp-payload']!, 'base64').toString('utf8')).body).toEqual({ orderId: 9, status: 15 });
  });
});
