import { decimal } from '../../domain/money';
import { formQuery } from '../kit/url';

/** What the one-click-buy URL presets: everything but the wallet, which the session token carries. */
export interface OnrampUrlParams {
  sessionToken: string;
  /** The asset's symbol or UUID from the buy options. */
  defaultAsset: string;
  defaultNetwork: string;
  /** Fees included, as the quote's `paymentAmount`. */
  presetFiatAmount: string;
  fiatCurrency: string;
  defaultPaymentMethod: string;
  /** Links the transactions of the session to this id (the broker's order id): the status API looks them up by it. */
  partnerUserRef: string;
  redirectUrl?: string;
}

/**
 * The one-click-buy URL: `<payUrl>/buy/select-asset?` with the parameters sorted by name and
 * form-encoded, numbers written as numbers (`presetFiatAmount=100.5`), as Coinbase's own
 * `generateOnRampURL` (@coinbase/cbpay-js) writes them.
 */
export function onrampUrl(payUrl: string, params: OnrampUrlParams): string {
  const values: Record<string, string> = {
    sessionToken: params.sessionToken,
    defaultAsset: params.defaultAsset,
    defaultNetwork: params.defaultNetwork,
    presetFiatAmount: decimal(params.presetFiatAmount).toFixed(),
    fiatCurrency: params.fiatCurrency,
    defaultPaymentMethod: params.defaultPaymentMethod,
    partnerUserRef: params.partnerUserRef,
    ...(params.redirectUrl === undefined ? {} : { redirectUrl: params.redirectUrl }),
  };
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(values).sort()) sorted[key] = values[key]!;
  return `${payUrl}/buy/select-asset?${formQuery(sorted)}`;
}
