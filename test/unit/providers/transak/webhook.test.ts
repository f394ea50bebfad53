import { SignJWT } from 'jose';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { parseTransakWebhook, TRANSAK_WEBHOOK_MAX_AGE_SECONDS } from '../../../../src/providers/transak/webhook';
import { WebhookVerificationError } from '../../../../src/providers/types';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';
import { rejectionOf } from '../../../helpers/rejection';
import accessTokenResponse from './fixtures/refresh-token.json';
import claims from './fixtures/webhook-order-completed.claims.json';

const ACCESS_TOKEN = accessTokenResponse.data.accessToken;
const NOW = new Date('2024-10-15T14:30:00Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);

/** Signs as the docs describe: HS256 over the claims, keyed with the partner access token's text. */
function sign(payload: Record<string, unknown>, key = ACCESS_TOKEN, header: Record<string, unknown> = { alg: 'HS256' }) {
  return new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(new TextEncoder().encode(key));
}

const incoming = (body: unknown) => ({
  headers: {},
  query: {},
  rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});

const refusal = (promise: Promise<unknown>) => rejectionOf(promise, WebhookVerificationError);

describe('Transak webhook verification', () => {
  it('refuses a genuinely signed order in a status Transak does not document (docs/decisions.md, Unknown provider statuses)', async () => {
    const unknown = { ...claims, webhookData: { ...claims.webhookData, status: 'SOMETHING_NEW' } };
    const error = await refusal(parseTransakWebhook(incoming({ data: await sign(unknown) }), [ACCESS_TOKEN], currencyDictionary, NOW));
    expect(error.message).toBe('signed body reports a status Transak does not document (SOMETHING_NEW)');
  });

  it('accepts the documented payload signed with the access token and parses the order', async () => {
    const event = await parseTransakWebhook(incoming({ data: await sign(claims) }), [ACCESS_TOKEN], currencyDictionary, NOW);
    expect(event).toEqual({
      orderId: '6f1c2b7e-3d4a-4e8f-9a0b-1c2d3e4f5a6b',
      providerOrderId: '322dc79c-fad2-4df1-bf50-b292191fc953',
      providerStatus: 'COMPLETED',
      status: 'complete',
      cryptoAmount: '0.01788752',
      transactionHash: claims.webhookData.transactionHash,
      reported: {
        walletAddress: '0xD902d7eBF7bc5eCa9EEA22a6Ee9F1A30EBeBEFeE',
        cryptoCurrency: crypto('ETH', 'ethereum').id,
        fiatCurrency: fiat('EUR').id,
        fiatAmount: '45',
      },
      providerOrderCreatedAt: '2024-10-15T14:29:11.104Z',
      eventId: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it("names the order by the webhook's own partnerOrderId, or by Transak's id where it has none", async () => {
    const { partnerOrderId, ...anonymous } = claims.webhookData;
    const other = await parseTransakWebhook(
      incoming({ data: await sign({ ...claims, webhookData: { ...claims.webhookData, partnerOrderId: 'another-order' } }) }),
      [ACCESS_TOKEN],
      currencyDictionary,
      NOW,
    );
    expect(other.orderId).toBe('another-order');
    const none = await parseTransakWebhook(
      incoming({ data: await sign({ ...claims, webhookData: anonymous }) }),
      [ACCESS_TOKEN],
      currencyDictionary,
      NOW,
    );
    expect(none.orderId).not.toBe(partnerOrderId);
    expect(none.orderId).toBe(claims.webhookData.id);
  });

  it("reports a token whose contract is not the dictionary's, or an unknown chain or fiat, as null", async () => {
    const webhookData = {
      ...claims.webhookData,
      cryptoCurrency: 'USDT',
      network: 'ethereum',
      tokenContractAddress: '0x1111111111111111111111111111111111111111',
      fiatCurrency: 'XAF',
    };
    const event = await parseTransakWebhook(
      incoming({ data: await sign({ ...claims, webhookData }) }),
      [ACCESS_TOKEN],
      currencyDictionary,
      NOW,
    );
    expect(event.reported).toMatchObject({ cryptoCurrency: null, fiatCurrency: null });
    const moonbeam = { ...claims.webhookData, cryptoCurrency: 'GLMR', network: 'moonbeam' };
    const unknownChain = await parseTransakWebhook(
      incoming({ data: await sign({ ...claims, webhookData: moonbeam }) }),
      [ACCESS_TOKEN],
      currencyDictionary,
      NOW,
    );
    expect(unknownChain.reported?.cryptoCurrency).toBeNull();
  });

  it('gives the same event the same id however often it is delivered', async () => {
    const first = await parseTransakWebhook(
      incoming({ data: await sign({ ...claims, iat: nowSeconds - 5 }) }),
      [ACCESS_TOKEN],
      currencyDictionary,
      NOW,
    );
    const again = await parseTransakWebhook(
      incoming({ data: await sign({ ...claims, iat: nowSeconds }) }),
      [ACCESS_TOKEN],
      currencyDictionary,
      NOW,
    );
    const other = await parseTransakWebhook(
      incoming({
        data: await sign({ ...claims, eventID: 'ORDER_PROCESSING', webhookData: { ...claims.webhookData, status: 'PROCESSING' } }),
      }),
      [ACCESS_TOKEN],
      currencyDictionary,
      NOW,
    );
    expect(again.eventId).toBe(first.eventId);
    expect(other.eventId).not.toBe(first.eventId);
  });

  it('accepts a token signed with the previous access token it still knows', async () => {
    const event = await parseTransakWebhook(
      incoming({ data: await sign(claims, 'old-token') }),
      ['new-token', 'old-token'],
      currencyDictionary,
      NOW,
    );
    expect(event.status).toBe('complete');
  });

  it('refuses a wrong key', async () => {
    await refusal(parseTransakWebhook(incoming({ data: await sign(claims, 'someone-else') }), [ACCESS_TOKEN], currencyDictionary, NOW));
  });

  it('refuses a tampered token', async () => {
    const [header, , signature] = (await sign(claims)).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, webhookData: { ...claims.webhookData, status: 'REFUNDED' } })).toString(
      'base64url',
    );
    await refusal(parseTransakWebhook(incoming({ data: `${header}.${forged}.${signature}` }), [ACCESS_TOKEN], currencyDictionary, NOW));
  });

  it('refuses an unsigned token (alg none) and other algorithms', async () => {
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    await refusal(parseTransakWebhook(incoming({ data: none }), [ACCESS_TOKEN], currencyDictionary, NOW));
    await refusal(
      parseTransakWebhook(incoming({ data: await sign(claims, ACCESS_TOKEN, { alg: 'HS512' }) }), [ACCESS_TOKEN], currencyDictionary, NOW),
    );
  });

  it('refuses an expired token and one issued too long ago', async () => {
    const expired = await sign({ ...claims, exp: nowSeconds - 3600 });
    expect((await refusal(parseTransakWebhook(incoming({ data: expired }), [ACCESS_TOKEN], currencyDictionary, NOW))).message).toMatch(
      /expired|too old/,
    );
    const stale = await sign({ ...claims, iat: nowSeconds - TRANSAK_WEBHOOK_MAX_AGE_SECONDS - 3600 });
    await refusal(parseTransakWebhook(incoming({ data: stale }), [ACCESS_TOKEN], currencyDictionary, NOW));
    const fresh = await sign({ ...claims, iat: nowSeconds - 60, exp: nowSeconds + 60 });
    await expect(parseTransakWebhook(incoming({ data: fresh }), [ACCESS_TOKEN], currencyDictionary, NOW)).resolves.toMatchObject({
      status: 'complete',
    });
  });

  it('asks for the access tokens only once the token has the expected shape', async () => {
    const tokens = jest.fn(() => Promise.resolve([ACCESS_TOKEN]));
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    for (const data of ['a.b.c', none, await sign(claims, ACCESS_TOKEN, { alg: 'HS512' }), await sign({ eventID: 'ORDER_COMPLETED' })])
      await refusal(parseTransakWebhook(incoming({ data }), tokens, currencyDictionary, NOW));
    expect(tokens).not.toHaveBeenCalled();
    await expect(parseTransakWebhook(incoming({ data: await sign(claims) }), tokens, currencyDictionary, NOW)).resolves.toMatchObject({
      status: 'complete',
    });
    expect(tokens).toHaveBeenCalledTimes(1);
  });

  it('refuses bodies that are not the documented envelope', async () => {
    await refusal(parseTransakWebhook(incoming('not json'), [ACCESS_TOKEN], currencyDictionary, NOW));
    await refusal(parseTransakWebhook(incoming(claims), [ACCESS_TOKEN], currencyDictionary, NOW));
    await refusal(parseTransakWebhook(incoming({ data: 'not-a-jwt' }), [ACCESS_TOKEN], currencyDictionary, NOW));
    await refusal(
      parseTransakWebhook(incoming({ data: await sign({ eventID: 'ORDER_COMPLETED' }) }), [ACCESS_TOKEN], currencyDictionary, NOW),
    );
  });
});
