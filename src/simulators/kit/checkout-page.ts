export interface CheckoutView {
  /** The provider's reference for the order, shown to the customer. */
  reference: string;
  providerName: string;
  status: string;
  fiatAmount: string;
  fiatCurrency: string;
  cryptoAmount: string;
  cryptoCurrency: string;
  network: string;
  walletAddress: string;
  paymentMethod: string;
  actions: readonly string[];
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * A simulated provider's checkout page. Every button is the JSON call an automated test can make:
 * `POST` to the page's own URL (query string included) with `{"action": ...}`.
 */
export function renderCheckoutPage(view: CheckoutView): string {
  return renderActionPage(view, [
    ['Order', view.reference],
    ['You pay', `${view.fiatAmount} ${view.fiatCurrency} by ${view.paymentMethod}`],
    ['You receive', `${view.cryptoAmount} ${view.cryptoCurrency} (${view.network})`],
    ['Wallet', view.walletAddress],
  ]);
}

/** What a sell (off-ramp) checkout page shows: where to send the crypto, and what is paid out. */
export interface SellCheckoutView {
  reference: string;
  providerName: string;
  status: string;
  cryptoAmount: string;
  cryptoCurrency: string;
  network: string;
  depositAddress: string;
  /** The destination tag or memo the transfer must carry, where there is one. */
  depositMemo?: string;
  depositExpiresAt: string;
  fiatAmount: string;
  fiatCurrency: string;
  payoutMethod: string;
  refundAddress: string;
  actions: readonly string[];
}

/** A simulated provider's sell checkout page: the deposit instruction, and buttons that play the customer's deposit. */
export function renderSellCheckoutPage(view: SellCheckoutView): string {
  return renderActionPage(view, [
    ['Order', view.reference],
    ['You send', `${view.cryptoAmount} ${view.cryptoCurrency} (${view.network})`],
    ['Send to', view.depositAddress, 'deposit-address'],
    ...(view.depositMemo === undefined ? [] : [['Destination tag', view.depositMemo, 'deposit-memo'] as const]),
    ['Send before', view.depositExpiresAt],
    ['You receive', `${view.fiatAmount} ${view.fiatCurrency} by ${view.payoutMethod}`],
    ['Refund address', view.refundAddress],
  ]);
}

/** One line of a checkout page: its label, its value and, where a test reads it, the value's element id. */
type Row = readonly [label: string, value: string, id?: string];

function renderActionPage(view: { providerName: string; status: string; actions: readonly string[] }, lines: readonly Row[]): string {
  const rows = lines
    .map(([label, value, id]) => `<dt>${escapeHtml(label)}</dt><dd${id ? ` id="${escapeHtml(id)}"` : ''}>${escapeHtml(value)}</dd>`)
    .join('\n      ');
  const buttons = view.actions
    .map((a) => `<button type="button" data-action="${escapeHtml(a)}" id="action-${escapeHtml(a)}">${escapeHtml(a)}</button>`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${escapeHtml(view.providerName)} checkout (simulator)</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 34rem; margin: 3rem auto; color: #1d2330; }
    .card { border: 1px solid #d6dae3; border-radius: 12px; padding: 1.5rem; }
    dl { display: grid; grid-template-columns: 9rem 1fr; gap: .4rem; }
    dt { color: #5b6475; } dd { margin: 0; word-break: break-all; }
    button { margin: .3rem .3rem 0 0; padding: .6rem 1rem; border-radius: 8px; border: 1px solid #8a93a6; background: #fff; cursor: pointer; }
    button[data-action="pay"] { background: #1f6feb; color: #fff; border-color: #1f6feb; }
    .banner { background: #fff4ce; padding: .5rem .8rem; border-radius: 8px; font-size: .9rem; }
  </style>
</head>
<body>
  <p class="banner">Simulated provider: no real money moves. Choose what the customer does.</p>
  <div class="card">
    <h1>${escapeHtml(view.providerName)}</h1>
    <dl>
      ${rows}
      <dt>Status</dt><dd id="status">${escapeHtml(view.status)}</dd>
    </dl>
    <div>
      ${buttons}
    </div>
    <p id="result" role="status"></p>
  </div>
  <script>
    for (const button of document.querySelectorAll('button[data-action]')) {
      button.addEventListener('click', async () => {
        const response = await fetch(location.href, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ action: button.dataset.action }),
        });
        const body = await response.json();
        document.getElementById('status').textContent = body.status || document.getElementById('status').textContent;
        document.getElementById('result').textContent = response.ok ? 'Done: ' + body.status : 'Refused: ' + (body.error && body.error.message);
      });
    }
  </script>
</body>
</html>`;
}
