import type { z } from 'zod';
import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import type { CreateProviderOrderRequest, ProviderCatalogue, ProviderOrderSnapshot, ProviderQuote, QuoteRequest } from '../types';
import type { SandboxCountriesSchema, SandboxCurrenciesSchema, SandboxOrder, SandboxPaymentMethodsSchema, SandboxQuote } from './schemas';
import { createdAtText } from '../kit/created-at';
import { formQuery, isFormSafe } from '../kit/url';
import { reportedTerms } from './reported';
import { mapSandboxStatus } from './status-map';

/** The sandbox provider names assets by ticker and network exactly as the broker's dictionary does. */
export function toQuoteParams(request: QuoteRequest): Record<string, string> {
  return {
    fiat_currency: request.fiat.ticker,
    crypto_currency: request.crypto.ticker,
    network: request.crypto.network,
    fiat_amount: request.fiatAmount,
    payment_method: request.paymentMethod,
    country: request.country,
    ...(request.state ? { state: request.state } : {}),
  };
}

/**
 * `formQuery(toQuoteParams(request))`, written in one template when every value is form-safe (they
 * are: tickers, networks, amounts, codes), which costs a third of building the params and encoding them.
 */
export function toQuoteQuery(request: QuoteRequest): string {
  const { fiat, crypto, fiatAmount, paymentMethod, country, state } = request;
  const safe =
    isFormSafe(fiat.ticker) &&
    isFormSafe(crypto.ticker) &&
    isFormSafe(crypto.network) &&
    isFormSafe(fiatAmount) &&
    isFormSafe(paymentMethod) &&
    isFormSafe(country) &&
    (!state || isFormSafe(state));
  if (!safe) return formQuery(toQuoteParams(request));
  const query = `fiat_currency=${fiat.ticker}&crypto_currency=${crypto.ticker}&network=${crypto.network}&fiat_amount=${fiatAmount}&payment_method=${paymentMethod}&country=${country}`;
  return state ? `${query}&state=${state}` : query;
}

/**
 * The provider's catalogue in the broker's terms. Assets and fiat the broker's dictionary does not
 * know are dropped: they cannot be offered.
 */
export function fromCatalogue(
  dictionary: CurrencyDictionary,
  currencies: z.infer<typeof SandboxCurrenciesSchema>,
  countries: z.infer<typeof SandboxCountriesSchema>,
  methods: z.infer<typeof SandboxPaymentMethodsSchema>,
): ProviderCatalogue {
  const fiatIds = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c.id]));
  const cryptoIds = new Map(
    dictionary.currencies.filter((c) => c.currency_type === 'crypto').map((c) => [`${c.ticker}/${c.network}`, c.id]),
  );
  const known = <T>(values: (T | undefined)[]) => values.filter((v): v is T => v !== undefined);
  return {
    fiat: known(currencies.fiat.map((f) => fiatIds.get(f.code))),
    crypto: known(currencies.crypto.map((c) => cryptoIds.get(`${c.ticker}/${c.network}`))),
    countries: countries.countries.map((c) => (c.states ? { code: c.code, states: [...c.states] } : { code: c.code })),
    paymentMethods: methods.payment_methods.map((m) => ({
      code: m.code,
      name: m.name,
      icon_url: null,
      fee: `${decimal(m.fee_rate).times(100).toFixed()}%`,
      limits: Object.fromEntries(
        Object.entries(m.limits).flatMap(([ticker, limit]) => {
          const id = fiatIds.get(ticker);
          return id === undefined ? [] : [[id, { min: limit.min, max: limit.max }]];
        }),
      ),
    })),
  };
}

export function fromQuote(quote: SandboxQuote): ProviderQuote {
  return {
    fiatAmount: quote.fiat_amount,
    cryptoAmount: quote.crypto_amount,
    processingFee: quote.processing_fee,
    networkFee: quote.network_fee,
    paymentMethod: quote.payment_method,
    providerQuoteId: quote.quote_id,
    expiresAt: new Date(quote.expires_at),
  };
}

export function toOrderBody(request: CreateProviderOrderRequest): Record<string, string> {
  return {
    partner_order_id: request.orderId,
    fiat_currency: request.fiat.ticker,
    crypto_currency: request.crypto.ticker,
    network: request.crypto.network,
    fiat_amount: request.fiatAmount,
    wallet_address: request.walletAddress,
    payment_method: request.paymentMethod,
    country: request.country,
    ...(request.state ? { state: request.state } : {}),
  };
}

export function fromOrder(order: SandboxOrder, dictionary: CurrencyDictionary): ProviderOrderSnapshot {
  const reported = reportedTerms(dictionary, order);
  return {
    orderId: order.partner_order_id,
    providerOrderId: order.id,
    providerStatus: order.status,
    status: mapSandboxStatus(order.status).status,
    failureReason: order.status === 'FAILED' ? (order.failure_reason ?? 'failed_at_provider') : undefined,
    cryptoAmount: order.crypto_amount,
    transactionHash: order.tx_hash,
    ...(reported ? { reported } : {}),
    ...createdAtText(order.created_at),
  };
}
