import { FAILED_AT_PROVIDER, lookupStatus, statusMapper, UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { ProviderUnavailableError } from '../../../../src/providers/types';

const TABLE = { NEW: 'created', PAID: 'processing', DONE: 'complete', DECLINED: 'failed', LOST: 'failed' } as const;
const mapExample = statusMapper('Example', TABLE, { DECLINED: 'payment_declined' });

describe('lookupStatus', () => {
  test('a listed status maps onto its broker status, with no failure reason unless failed', () => {
    expect(lookupStatus(TABLE, 'PAID')).toEqual({ status: 'processing' });
    expect(lookupStatus(TABLE, 'DECLINED', { DECLINED: 'payment_declined' })).toEqual({
      status: 'failed',
      failureReason: 'payment_declined',
    });
  });

  test('a failed status with no listed reason fails at the provider', () => {
    expect(lookupStatus(TABLE, 'LOST', { DECLINED: 'payment_declined' })).toEqual({ status: 'failed', failureReason: FAILED_AT_PROVIDER });
    expect(lookupStatus(TABLE, 'LOST')).toEqual({ status: 'failed', failureReason: 'failed_at_provider' });
  });

  test('an unlisted status, the empty one and inherited names are undefined', () => {
    expect(lookupStatus(TABLE, 'SOMETHING_NEW')).toBeUndefined();
    expect(lookupStatus(TABLE, '')).toBeUndefined();
    expect(lookupStatus(TABLE, 'toString')).toBeUndefined();
    expect(lookupStatus(TABLE, '__proto__')).toBeUndefined();
    expect(lookupStatus(TABLE, 'LOST', { toString: 'x' } as never)).toEqual({ status: 'failed', failureReason: FAILED_AT_PROVIDER });
  });
});

describe('statusMapper', () => {
  test('maps what the table lists', () => {
    expect(mapExample('NEW')).toEqual({ status: 'created' });
    expect(mapExample('DONE')).toEqual({ status: 'complete' });
    expect(mapExample('DECLINED')).toEqual({ status: 'failed', failureReason: 'payment_declined' });
  });

  test('never maps an unknown status: it throws, naming the provider and the status', () => {
    for (const status of ['SOMETHING_NEW', '', 'toString', 'constructor', 'paid']) {
      const error = (() => {
        try {
          mapExample(status);
        } catch (err) {
          return err;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(UnknownProviderStatusError);
      expect(error).toMatchObject({
        provider: 'Example',
        providerStatus: status,
        message: `a status Example does not document (${status})`,
      });
    }
  });

  test('the refusal is a ProviderUnavailableError, so a lookup meeting one is retried like an outage', () => {
    expect(() => mapExample('SOMETHING_NEW')).toThrow(ProviderUnavailableError);
  });
});
