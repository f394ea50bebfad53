export interface WidgetParams {
  appId: string;
  /** The customer's wallet address. */
  walletAddress: string;
  /** Onramp.money's coin code, e.g. `usdt`. */
  coinCode: string;
  /** Onramp.money's chain symbol, e.g. `matic20`. */
  network: string;
  fiatAmount: string;
  fiatType: number;
  /** `1` instant transfer, `2` bank transfer. */
  paymentMethod: string;
  /** The broker's order id: Onramp.money echoes it in merchantHistory and in the webhook. */
  merchantRecognitionId: string;
  redirectUrl?: string;
}

/**
 * The hosted widget's URL of one purchase, with the query parameters of onramp.gitbook.io "Hosted
 * Mode" (the names the web SDK passes on to its URL generator too). Onramp.money documents no
 * signature of this URL: what the customer could change in it (wallet, amount, currency) is checked
 * against what Onramp.money later reports (ReportedTerms).
 */
export function buildWidgetUrl(widgetUrl: string, params: WidgetParams): string {
  const query = new URLSearchParams({
    appId: params.appId,
    walletAddress: params.walletAddress,
    coinCode: params.coinCode,
    network: params.network,
    fiatAmount: params.fiatAmount,
    fiatType: String(params.fiatType),
    paymentMethod: params.paymentMethod,
    merchantRecognitionId: params.merchantRecognitionId,
    ...(params.redirectUrl ? { redirectUrl: params.redirectUrl } : {}),
  });
  return `${widgetUrl}/?${query.toString()}`;
}
