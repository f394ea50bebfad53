import { refusalError } from '../../../../src/providers/transak/errors';
import { ProviderRejectedError, ProviderUnavailableError } from '../../../../src/providers/types';
import { TransakErrorSchema } from '../../../../src/providers/transak/schemas';
import invalidSecret from './fixtures/error-invalid-api-secret.json';
import orderNotFound from './fixtures/error-order-not-found.json';
import unauthorized from './fixtures/error-unauthorized.json';

const body = (message: string) => ({ error: { statusCode: 400, name: 'Bad Request', message } });

describe('Transak refusals', () => {
  it('reads the documented "Order not found" as not_found', () => {
    expect(refusalError('/partners/api/v2/order/x', 400, orderNotFound)).toEqual(new ProviderRejectedError('not_found', 'Order not found'));
  });

  it.each([
    ['Order amount out of range: minimum 30.00 EUR, maximum 3000.00 EUR', 'limits'],
    ['Payment method apple_pay is not supported for INR', 'payment_method'],
    ['Country KP is not supported', 'country'],
    ['Fiat currency XAF is not supported', 'currency'],
    ['ETH on network linea is not supported', 'currency'],
    ['Something else went wrong', 'rejected'],
  ])('%s -> %s', (message, code) => {
    const error = refusalError('/api/v1/pricing/public/quotes', 400, body(message));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).code).toBe(code);
  });

  it('carries the limits it can read', () => {
    expect(
      (refusalError('/q', 400, body('Order amount out of range: minimum 30.00 EUR, maximum 3000.00 EUR')) as ProviderRejectedError).details,
    ).toEqual({
      minAmount: '30.00',
      maxAmount: '3000.00',
    });
    expect((refusalError('/q', 400, body('Minimum order amount is 25 GBP')) as ProviderRejectedError).details).toEqual({ minAmount: '25' });
  });

  it('reads the documented error bodies', () => {
    expect(TransakErrorSchema.parse(unauthorized).error).toEqual({
      statusCode: 401,
      name: 'Unauthorized',
      message: 'Authorization Required',
    });
    expect(TransakErrorSchema.parse(invalidSecret).error.message).toMatch(/^Invalid api-secret/);
  });

  it('treats an unreadable body or a 403 as the provider being unavailable', () => {
    expect(refusalError('/q', 400, 'oops')).toBeInstanceOf(ProviderUnavailableError);
    expect(refusalError('/q', 403, body('IP not whitelisted'))).toBeInstanceOf(ProviderUnavailableError);
  });
});
