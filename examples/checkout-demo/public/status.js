// The status page the customer comes back to: server-sent events from the demo server, one per
// status change the broker's webhooks report (the first is the order as it is now).

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const provider = params.get('provider') ?? '';
const ref = params.get('ref') ?? '';
const side = params.get('side') === 'sell' ? 'sell' : 'buy';
let shownUpdatedAt = '';

function detail(term, value, id) {
  if (value === undefined || value === null || value === '') return [];
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.textContent = String(value);
  if (id) dd.id = id;
  return [dt, dd];
}

/** A buy order's details: what the customer pays and the wallet the crypto goes to. */
function buyDetails(order) {
  return [
    ...detail('You pay', `${order.from_amount} ${order.from_currency}`),
    ...detail('You receive', `${order.to_amount} ${order.to_currency}`),
    ...detail('Wallet', order.wallet_address),
  ];
}

/** A sell order's details: what the customer sends, the payout, and where the crypto goes back. */
function sellDetails(order) {
  return [
    ...detail('You send', `${order.from_amount} ${order.from_currency}`),
    ...detail('You receive', `${order.to_amount} ${order.to_currency} by ${order.payout_method}`),
    ...detail('Refund address', order.refund_wallet_address),
  ];
}

/** Where the customer sends the crypto, once the provider has said (it never changes afterwards). */
function showDeposit(deposit) {
  $('deposit').hidden = !deposit;
  if (!deposit) return;
  $('deposit-details').replaceChildren(
    ...detail('Address', deposit.address, 'deposit-address'),
    ...detail('Memo / tag', deposit.memo, 'deposit-memo'),
    ...detail('Network', deposit.network, 'deposit-network'),
    ...detail('Amount', deposit.amount, 'deposit-amount'),
    ...detail('Send before', deposit.expires_at && new Date(deposit.expires_at).toLocaleString(), 'deposit-expires'),
  );
}

function show(order) {
  const li = document.createElement('li');
  li.dataset.status = order.status;
  li.dataset.source = order.source;
  const how = order.source === 'webhook' ? `webhook #${order.sequence}` : 'status when the page connected';
  li.textContent = `${new Date().toLocaleTimeString()}: ${order.status} (${how})`;
  $('history').append(li);
  // Events can cross (a reconnect's snapshot and a webhook): the newest state of the order wins.
  if (order.updated_at < shownUpdatedAt) return;
  shownUpdatedAt = order.updated_at;
  $('status').textContent = order.status;
  $('status').dataset.status = order.status;
  $('status').dataset.source = order.source;
  $('details').replaceChildren(
    ...detail('Order', order.id),
    ...detail('Provider', order.provider_code),
    ...(order.side === 'sell' ? sellDetails(order) : buyDetails(order)),
    ...detail('Transaction', order.transaction_hash, 'transaction-hash'),
    ...detail('Why it failed', order.failure_reason),
  );
  showDeposit(order.deposit);
  $('live').textContent = order.final ? '(final)' : '(live)';
}

if (!/^[a-z0-9_]{1,32}$/.test(provider) || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(ref)) {
  $('status').textContent = 'unknown order';
  $('status-error').textContent = 'This link does not name an order.';
} else {
  if (side === 'sell') {
    $('again').textContent = 'Sell more';
    $('again').href = '/#sell';
  }
  const query = new URLSearchParams({ ref, ...(side === 'sell' ? { side } : {}) });
  const events = new EventSource(`/api/orders/${encodeURIComponent(provider)}/events?${query}`);
  events.addEventListener('status', (event) => {
    $('status-error').textContent = '';
    show(JSON.parse(event.data));
  });
  events.addEventListener('problem', (event) => {
    $('status-error').textContent = JSON.parse(event.data).detail;
  });
  events.addEventListener('error', () => {
    if (events.readyState === EventSource.CLOSED)
      $('status-error').textContent = 'This order cannot be followed (unknown order, or too many pages open).';
    else $('live').textContent = '(reconnecting…)';
  });
}
