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
      <dt>Order</dt><dd>${escapeHtml(view.reference)}</dd>
      <dt>You pay</dt><dd>${escapeHtml(view.fiatAmount)} ${escapeHtml(view.fiatCurrency)} by ${escapeHtml(view.paymentMethod)}</dd>
      <dt>You receive</dt><dd>${escapeHtml(view.cryptoAmount)} ${escapeHtml(view.cryptoCurrency)} (${escapeHtml(view.network)})</dd>
      <dt>Wallet</dt><dd>${escapeHtml(view.walletAddress)}</dd>
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
