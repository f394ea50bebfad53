import { createHash } from 'node:crypto';
import { z } from 'zod';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { eventDigest, parseJson, parseSigned, parseSignedJson, webhookReport } from '../../../../src/providers/kit/webhook';
import { ProviderUnavailableError, WebhookVerificationError } from '../../../../src/providers/types';

const EventSchema = z.object({ id: z.string(), status: z.string() });

function refusal(read: () => unknown): Error {
  try {
    read();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a refusal');
}

describe('parseJson', () => {
  test('reads a body as JSON, from bytes or text', () => {
    expect(parseJson(Buffer.from('{"a":1}'))).toEqual({ a: 1 });
    expect(parseJson('[1,2]')).toEqual([1, 2]);
  });

  test('refuses a body that is not JSON like a bad signature', () => {
    const error = refusal(() => parseJson(Buffer.from('not json {')));
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error.message).toBe('signed body is not JSON');
    expect(refusal(() => parseJson('', 'body is not JSON')).message).toBe('body is not JSON');
  });
});

describe('parseSigned and parseSignedJson', () => {
  test('a body of the event shape is its parsed event', () => {
    expect(parseSigned({ id: 'e1', status: 'PAID', extra: true }, EventSchema, 'not an event')).toEqual({ id: 'e1', status: 'PAID' });
    expect(parseSignedJson(Buffer.from('{"id":"e1","status":"PAID"}'), EventSchema, 'not an event')).toEqual({ id: 'e1', status: 'PAID' });
  });

  test('another shape is refused with the given reason', () => {
    const error = refusal(() => parseSignedJson('{"id":1}', EventSchema, 'signed body is not an example event'));
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error.message).toBe('signed body is not an example event');
    expect(refusal(() => parseSignedJson('nope', EventSchema, 'x')).message).toBe('signed body is not JSON');
  });
});

describe('webhookReport', () => {
  test('returns what the report reads', () => {
    expect(webhookReport(() => ({ status: 'complete' }))).toEqual({ status: 'complete' });
  });

  test('a status the provider does not document refuses the webhook like a bad signature, naming it', () => {
    const error = refusal(() =>
      webhookReport(() => {
        throw new UnknownProviderStatusError('Example', 'SOMETHING_NEW');
      }),
    );
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error.message).toBe('signed body reports a status Example does not document (SOMETHING_NEW)');
  });

  test('any other error passes through unchanged', () => {
    const outage = new ProviderUnavailableError('down');
    expect(
      refusal(() =>
        webhookReport(() => {
          throw outage;
        }),
      ),
    ).toBe(outage);
  });
});

describe('eventDigest', () => {
  test('is the SHA-256 of the content in hex, the same for bytes and their text', () => {
    const body = '{"id":"e1","status":"PAID"}';
    expect(eventDigest(Buffer.from(body))).toBe(createHash('sha256').update(body).digest('hex'));
    expect(eventDigest(body)).toBe(eventDigest(Buffer.from(body)));
    expect(eventDigest(body)).toMatch(/^[0-9a-f]{64}$/);
    expect(eventDigest(`${body} `)).not.toBe(eventDigest(body));
  });
});
