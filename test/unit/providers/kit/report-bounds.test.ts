/**
 * The bounds on every text of a provider's report (src/providers/kit/report-bounds.ts): counted in
 * bytes of JSON (UTF-8), every text a report can carry covered, and the widget URLs the adapters
 * build from the longest customer URL within the redirect URL's bound.
 */
import { currencyDictionary } from '../../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../../src/domain/currency';
import {
  cutDescriptiveTexts,
  cutToBound,
  jsonTextBytes,
  outOfBoundsMessage,
  PROVIDER_TEXT_LIMITS,
  textOutOfBounds,
  type BoundedProviderText,
  type ProviderReport,
} from '../../../../src/providers/kit/report-bounds';
import { CUSTOMER_URL_MAX_BYTES, isCustomerUrl } from '../../../../src/providers/kit/url';
import { toWidgetParams as mercuryoWidgetParams } from '../../../../src/providers/mercuryo/transformers';
import { buildWidgetUrl } from '../../../../src/providers/mercuryo/widget';
import { toWidgetParams as moonpayWidgetParams, type MoonpayTerms } from '../../../../src/providers/moonpay/transformers';
import { signedWidgetUrl } from '../../../../src/providers/moonpay/widget';
import type { RampConfig } from '../../../../src/providers/ramp/config';
import type { RampAsset } from '../../../../src/providers/ramp/schemas';
import { toWidgetUrl as rampWidgetUrl } from '../../../../src/providers/ramp/transformers';
import type { ProviderSellOrder, ReportedDeposit, ReportedSellTerms, SellWebhookEvent } from '../../../../src/providers/sell-types';
import type { CreateProviderOrderRequest, ReportedTerms } from '../../../../src/providers/types';
import { currencyId as idOf } from '../../../helpers/currencies';

/**
 * A report with every text a report can carry. Required<>: a text added to the report types
 * fails to compile here until it is listed, and then must be bounded (the test below).
 */
const reported: Required<ReportedTerms> = {
  walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  cryptoCurrency: 13,
  fiatCurrency: 1,
  fiatAmount: '100.00',
};
const fullReport: Required<ProviderReport> = {
  orderId: '3b0f7c2e-5d6a-5f4b-9c1d-2e8a7b6c5d4f',
  providerOrderId: 'sb_1',
  providerStatus: 'COMPLETED',
  status: 'complete',
  failureReason: 'card_declined',
  cryptoAmount: '0.001',
  transactionHash: `0x${'ab'.repeat(32)}`,
  reported,
  providerOrderCreatedAt: '2026-11-29T10:00:00.000Z',
  eventId: 'evt_1',
  claimKey: 'purchase-1',
  redirectUrl: 'https://checkout.example/p/1',
};

/** A sell report with every text a sell report can carry (Required<>, as above). */
const sellDeposit: Required<ReportedDeposit> = {
  address: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  memo: '12345',
  network: 'ethereum',
  amount: '0.5',
  expiresAt: '2026-11-30T16:00:00.000Z',
};
const sellReported: Required<ReportedSellTerms> = {
  cryptoCurrency: 14,
  cryptoAmount: '0.5',
  fiatCurrency: 2,
  fiatAmount: '1450.00',
  refundWalletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
};
const fullSellReport: Required<SellWebhookEvent & Pick<ProviderSellOrder, 'redirectUrl'>> = {
  orderId: '3b0f7c2e-5d6a-5f4b-9c1d-2e8a7b6c5d4f',
  providerOrderId: 'sb_sell_1',
  providerStatus: 'COMPLETED',
  status: 'complete',
  failureReason: 'payout_failed',
  deposit: sellDeposit,
  transactionHash: `0x${'cd'.repeat(32)}`,
  reported: sellReported,
  providerOrderCreatedAt: '2026-11-29T10:00:00.000Z',
  eventId: 'evt_sell_1',
  claimKey: 'sale-1',
  redirectUrl: 'https://checkout.example/s/1',
};
const withDeposit = (change: Partial<ReportedDeposit>): ProviderReport => ({ ...fullSellReport, deposit: { ...sellDeposit, ...change } });

/** Each bounded text, and the report with it replaced. */
const TEXTS: { field: BoundedProviderText; with: (text: string) => ProviderReport }[] = [
  { field: 'redirectUrl', with: (text) => ({ ...fullReport, redirectUrl: text }) },
  { field: 'providerOrderId', with: (text) => ({ ...fullReport, providerOrderId: text }) },
  { field: 'claimKey', with: (text) => ({ ...fullReport, claimKey: text }) },
  { field: 'eventId', with: (text) => ({ ...fullReport, eventId: text }) },
  { field: 'orderId', with: (text) => ({ ...fullReport, orderId: text }) },
  { field: 'providerStatus', with: (text) => ({ ...fullReport, providerStatus: text }) },
  { field: 'failureReason', with: (text) => ({ ...fullReport, failureReason: text }) },
  { field: 'transactionHash', with: (text) => ({ ...fullReport, transactionHash: text }) },
  { field: 'cryptoAmount', with: (text) => ({ ...fullReport, cryptoAmount: text }) },
  { field: 'fiatAmount', with: (text) => ({ ...fullReport, reported: { ...reported, fiatAmount: text } }) },
  { field: 'providerOrderCreatedAt', with: (text) => ({ ...fullReport, providerOrderCreatedAt: text }) },
  { field: 'walletAddress', with: (text) => ({ ...fullReport, reported: { ...reported, walletAddress: text } }) },
  { field: 'cryptoAmount', with: (text) => ({ ...fullSellReport, reported: { ...sellReported, cryptoAmount: text } }) },
  { field: 'walletAddress', with: (text) => ({ ...fullSellReport, reported: { ...sellReported, refundWalletAddress: text } }) },
  { field: 'fiatAmount', with: (text) => ({ ...fullSellReport, reported: { ...sellReported, fiatAmount: text } }) },
  { field: 'depositAddress', with: (text) => withDeposit({ address: text }) },
  { field: 'depositMemo', with: (text) => withDeposit({ memo: text }) },
  { field: 'depositNetwork', with: (text) => withDeposit({ network: text }) },
  { field: 'depositAmount', with: (text) => withDeposit({ amount: text }) },
  { field: 'depositExpiresAt', with: (text) => withDeposit({ expiresAt: text }) },
];

test('every limit has its text in a report, and a report of ordinary texts is within them all', () => {
  expect([...new Set(TEXTS.map((t) => t.field))].sort()).toEqual(Object.keys(PROVIDER_TEXT_LIMITS).sort());
  expect(textOutOfBounds(fullReport)).toBeUndefined();
  expect(textOutOfBounds(fullSellReport)).toBeUndefined();
  expect(textOutOfBounds({})).toBeUndefined();
});

test('every string of a report is bounded', () => {
  const strings = [
    ...Object.entries(fullReport).filter(([, v]) => typeof v === 'string'),
    ...Object.entries(reported).filter(([, v]) => typeof v === 'string'),
  ].map(([key]) => key);
  // A sell report's texts, by the name of their bound (its refund address is a wallet address).
  const sellNames: Record<string, string> = { refundWalletAddress: 'walletAddress', address: 'depositAddress', memo: 'depositMemo' };
  const depositNames: Record<string, string> = { network: 'depositNetwork', amount: 'depositAmount', expiresAt: 'depositExpiresAt' };
  const sellStrings = [
    ...Object.entries(fullSellReport).filter(([, v]) => typeof v === 'string'),
    ...Object.entries(sellReported).filter(([, v]) => typeof v === 'string'),
  ].map(([key]) => sellNames[key] ?? key);
  const depositStrings = Object.keys(sellDeposit).map((key) => sellNames[key] ?? depositNames[key] ?? key);
  // `status` is one of the broker's statuses, set by the adapter's table, not the provider's text.
  expect([...new Set([...strings, ...sellStrings, ...depositStrings])].filter((key) => key !== 'status').sort()).toEqual(
    Object.keys(PROVIDER_TEXT_LIMITS).sort(),
  );
});

describe.each(TEXTS)('$field', ({ field, with: report }) => {
  const limit = PROVIDER_TEXT_LIMITS[field];

  test('at its limit it passes; one byte over, it is refused, named with its size', () => {
    expect(textOutOfBounds(report('a'.repeat(limit)))).toBeUndefined();
    expect(textOutOfBounds(report('a'.repeat(limit + 1)))).toEqual({ field, bytes: limit + 1, limit });
  });

  test('counted in bytes of JSON: multi-byte characters and escapes count in full', () => {
    // é is two bytes of UTF-8, a double quote two (\"), a control character six (\u0001).
    expect(textOutOfBounds(report('é'.repeat(Math.floor(limit / 2) + 1)))?.field).toBe(field);
    expect(textOutOfBounds(report('"'.repeat(Math.floor(limit / 2) + 1)))?.field).toBe(field);
    expect(textOutOfBounds(report('\u0001'.repeat(Math.floor(limit / 6) + 1)))?.field).toBe(field);
  });
});

describe('descriptive texts are cut to their bound, naming texts are not', () => {
  const limit = PROVIDER_TEXT_LIMITS.failureReason;

  test('a failure reason over its bound is cut, whole characters, ending with …; the report is then within bounds', () => {
    for (const reason of [
      'x'.repeat(2_090_000),
      'é'.repeat(limit),
      '😀'.repeat(limit),
      '"\u0001'.repeat(limit),
      `a${'\ud800'.repeat(limit)}`,
    ]) {
      const cut = cutDescriptiveTexts({ ...fullReport, failureReason: reason });
      expect(cut.failureReason.endsWith('…')).toBe(true);
      expect(reason.startsWith(cut.failureReason.slice(0, -1))).toBe(true);
      expect(jsonTextBytes(cut.failureReason)).toBeLessThanOrEqual(limit);
      // As long as fits: one more character of the reason would not.
      const kept = cut.failureReason.slice(0, -1);
      const next = [...reason.slice(kept.length)][0]!;
      expect(jsonTextBytes(`${kept}${next}…`)).toBeGreaterThan(limit);
      expect(textOutOfBounds(cut)).toBeUndefined();
      expect(cut).toEqual({ ...fullReport, failureReason: cut.failureReason });
    }
  });

  test('a failure reason within its bound, or none, is left as it is (the same report)', () => {
    const atLimit = { ...fullReport, failureReason: 'a'.repeat(limit) };
    expect(cutDescriptiveTexts(atLimit)).toBe(atLimit);
    const without = { providerOrderId: 'p' };
    expect(cutDescriptiveTexts(without)).toBe(without);
    expect(cutToBound('short', limit)).toBe('short');
  });

  test.each(TEXTS.filter((t) => t.field !== 'failureReason'))(
    '$field over its bound is still refused, not cut',
    ({ field, with: report }) => {
      const over = report('a'.repeat(PROVIDER_TEXT_LIMITS[field] + 1));
      expect(cutDescriptiveTexts(over)).toBe(over);
      expect(textOutOfBounds(cutDescriptiveTexts(over))?.field).toBe(field);
    },
  );
});

test('the message names the text and its size, never its content', () => {
  const out = textOutOfBounds({ ...fullReport, failureReason: 'secret '.repeat(1000) })!;
  expect(outOfBoundsMessage(out)).toBe(`failureReason is 7000 bytes, over its limit of ${PROVIDER_TEXT_LIMITS.failureReason}`);
});

test('jsonTextBytes is what the text adds to a JSON document', () => {
  for (const text of ['', 'abc', 'é€😀', '"\\\n\u0001', '\ud800']) {
    expect(jsonTextBytes(text)).toBe(Buffer.byteLength(JSON.stringify({ a: text })) - Buffer.byteLength(JSON.stringify({ a: '' })));
  }
});

describe('widget URLs built with the longest customer URL stay within the redirect URL bound', () => {
  // Three bytes of UTF-8 a character, each written %XX once percent-encoded: nine characters.
  const head = 'https://wallet.example/';
  const room = CUSTOMER_URL_MAX_BYTES - head.length;
  const longest = `${head}${'€'.repeat(Math.floor(room / 3))}${'a'.repeat(room % 3)}`;
  const order = (extras: Record<string, unknown>): CreateProviderOrderRequest => ({
    orderId: '3b0f7c2e-5d6a-5f4b-9c1d-2e8a7b6c5d4f',
    fiat: currencyDictionary.fiat(idOf('EUR')) as FiatCurrency,
    crypto: currencyDictionary.crypto(idOf('BTC', 'bitcoin')) as CryptoCurrency,
    fiatAmount: '999999999999999999.99',
    // The API's longest wallet address, in characters that percent-encode.
    walletAddress: '/'.repeat(256),
    paymentMethod: 'card',
    country: 'DE',
    externalUserId: 'u'.repeat(128),
    ip: '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
    extras,
  });

  test('the customer URL is the longest the rule takes', () => {
    expect(Buffer.byteLength(longest)).toBe(CUSTOMER_URL_MAX_BYTES);
    expect(isCustomerUrl(longest, { loopbackHttp: false })).toBe(true);
  });

  test('Mercuryo (return_url)', () => {
    const url = buildWidgetUrl(
      'https://exchange.mercuryo.io',
      mercuryoWidgetParams(order({ return_url: longest }), { widgetId: 'w', secret: 's' }),
    );
    expect(url).toContain('return_url=');
    expect(textOutOfBounds({ redirectUrl: url })).toBeUndefined();
  });

  test('MoonPay (redirect_url)', () => {
    const terms = { crypto: { code: 'btc' }, fiat: { code: 'eur' }, method: { id: 'credit_debit_card' } } as MoonpayTerms;
    const url = signedWidgetUrl(
      'https://buy.moonpay.com',
      'sk_test_x',
      moonpayWidgetParams('pk_test_x', terms, order({ redirect_url: longest })),
    );
    expect(url).toContain('redirectURL=');
    expect(textOutOfBounds({ redirectUrl: url })).toBeUndefined();
  });

  test('Ramp (return_url as finalUrl)', () => {
    const config = {
      widgetUrl: 'https://app.ramp.network',
      hostApiKey: 'k'.repeat(64),
      hostAppName: 'An integrator with a long name',
      brokerPublicUrl: 'https://payments.broker.example.com',
      webhookUrlSecret: 's'.repeat(64),
    } as RampConfig;
    const asset = { symbol: 'BTC', chain: 'BTC', decimals: 8 } as RampAsset;
    const url = rampWidgetUrl(config, { ...order({ return_url: longest }), paymentMethod: 'card' }, asset);
    expect(url).toContain('finalUrl=');
    expect(textOutOfBounds({ redirectUrl: url })).toBeUndefined();
  });
});
