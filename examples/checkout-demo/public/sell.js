// The Sell tab (the off-ramp): the customer sells crypto and is paid out in fiat. Dictionaries,
// sell offers (the highest payout first), the refund address and the sell order, all through the
// demo server; the order is then followed on the status page, with the deposit the provider gave.

import { $, call, currencyLabel, fill, guard, option, setLink, tickerOf, uuid } from './common.js';

const state = { countries: [], currencies: { fiat: [], crypto: [] }, offer: null, query: null, checkoutRef: null, loaded: false };

function placeQuery() {
  const q = new URLSearchParams({ country: $('sell-country').value });
  if (!$('sell-state-label').hidden && $('sell-state').value) q.set('state', $('sell-state').value);
  return q;
}

async function onCountry() {
  const country = state.countries.find((c) => c.code === $('sell-country').value);
  const states = country?.states ?? [];
  $('sell-state-label').hidden = states.length === 0;
  fill(
    $('sell-state'),
    states.map((s) => option(s.code, s.name)),
    'CA',
  );
  await onPlace();
}

async function onPlace() {
  state.currencies = await call(`/api/sell/currencies?${placeQuery()}`);
  fill(
    $('sell-crypto'),
    state.currencies.crypto.map((c) => option(c.id, currencyLabel(c))),
    String(state.currencies.crypto.find((c) => c.ticker === 'ETH')?.id ?? ''),
  );
  fill(
    $('sell-fiat'),
    state.currencies.fiat.map((c) => option(c.id, currencyLabel(c))),
    String(state.currencies.fiat.find((c) => c.ticker === 'EUR')?.id ?? ''),
  );
  await onFiat();
}

async function onFiat() {
  const q = placeQuery();
  q.set('fiat', $('sell-fiat').value);
  const { payout_methods } = await call(`/api/sell/payout-methods?${q}`);
  fill(
    $('sell-payout-method'),
    payout_methods.map((m) => option(m.code, m.name)),
    'sepa',
  );
}

async function getOffers() {
  const q = placeQuery();
  for (const [key, id] of [
    ['crypto', 'sell-crypto'],
    ['fiat', 'sell-fiat'],
    ['payout_method', 'sell-payout-method'],
    ['amount', 'sell-amount'],
  ])
    q.set(key, $(id).value.trim());
  $('get-sell-offers').disabled = true;
  try {
    const { offers, left_out } = await call(`/api/sell/offers?${q}`);
    state.query = Object.fromEntries(q);
    renderOffers(offers, left_out);
  } finally {
    $('get-sell-offers').disabled = false;
  }
}

function renderOffers(offers, leftOut) {
  const fiat = tickerOf(state.currencies.fiat, state.query.fiat);
  const crypto = tickerOf(state.currencies.crypto, state.query.crypto);
  $('sell-offers').replaceChildren(
    ...offers.map((offer, i) => {
      const li = document.createElement('li');
      li.dataset.provider = offer.provider_code;
      li.dataset.amount = offer.amount_expected_to;
      if (i === 0) li.classList.add('best');
      const head = document.createElement('div');
      head.className = 'offer-head';
      const amount = document.createElement('span');
      amount.className = 'offer-amount';
      amount.textContent = `${offer.amount_expected_to} ${fiat} from ${offer.provider_code}${i === 0 ? ' (best)' : ''}`;
      const choose = document.createElement('button');
      choose.type = 'button';
      choose.className = 'choose';
      choose.textContent = 'Choose';
      choose.addEventListener('click', () => chooseOffer(offer));
      head.append(amount, choose);
      const meta = document.createElement('div');
      meta.className = 'offer-meta';
      const methods = offer.payout_methods.map((m) => `${m.payout_method_code} ${m.fee} ${fiat}`).join(', ');
      meta.textContent = `You send ${offer.amount_from} ${crypto}; fees ${offer.total_fee_amount} ${fiat} taken off (network ${offer.fees.network}); 1 ${crypto} = ${offer.rate} ${fiat} before fees; fees by payout method: ${methods}; valid until ${new Date(offer.expires_at).toLocaleTimeString()}`;
      li.append(head, meta);
      return li;
    }),
  );
  if (offers.length === 0)
    $('sell-offers').replaceChildren(Object.assign(document.createElement('li'), { textContent: 'No provider has an offer for this.' }));
  $('sell-left-out').replaceChildren(
    ...leftOut.map((p) => {
      const li = document.createElement('li');
      li.dataset.provider = p.provider_code;
      li.textContent = `${p.provider_code}: ${p.message} (${p.code})`;
      return li;
    }),
  );
  $('sell-left-out-count').textContent = String(leftOut.length);
  $('sell-offers-section').hidden = false;
  $('sell-refund-section').hidden = true;
  $('sell-order-section').hidden = true;
}

function chooseOffer(offer) {
  state.offer = offer;
  state.checkoutRef = uuid(); // one order per checkout, however often "Create sell order" is pressed
  const crypto = tickerOf(state.currencies.crypto, state.query.crypto);
  $('sell-chosen-crypto').textContent = crypto;
  $('sell-chosen-offer').textContent =
    `${offer.amount_expected_to} ${tickerOf(state.currencies.fiat, state.query.fiat)} for ${offer.amount_from} ${crypto} from ${offer.provider_code}`;
  $('sell-refund-section').hidden = false;
  $('sell-order-section').hidden = true;
  $('refund-wallet').focus();
}

async function createOrder() {
  $('create-sell-order').disabled = true;
  try {
    const order = await call('/api/sell/orders', {
      method: 'POST',
      body: JSON.stringify({
        checkout_ref: state.checkoutRef,
        provider_code: state.offer.provider_code,
        crypto: state.query.crypto,
        fiat: state.query.fiat,
        amount: state.query.amount,
        payout_method: state.query.payout_method,
        refund_wallet_address: $('refund-wallet').value.trim(),
        country: state.query.country,
        ...(state.query.state ? { state: state.query.state } : {}),
      }),
    });
    $('sell-order-id').textContent = order.id;
    $('sell-order-status').textContent = order.status;
    setLink($('sell-checkout-link'), order.redirect_url);
    $('sell-status-link').href = order.status_url;
    $('sell-order-section').hidden = false;
  } finally {
    $('create-sell-order').disabled = false;
  }
}

/** Loads the Sell tab's dictionaries the first time it is shown. */
async function start() {
  if (state.loaded) return;
  state.loaded = true;
  const { countries } = await call('/api/sell/countries');
  state.countries = countries;
  fill(
    $('sell-country'),
    countries.map((c) => option(c.code, c.name)),
    'DE',
  );
  await onCountry();
  document.body.dataset.sellReady = 'true';
}

$('sell-country').addEventListener('change', guard(onCountry, 'sell-form-error'));
$('sell-state').addEventListener('change', guard(onPlace, 'sell-form-error'));
$('sell-fiat').addEventListener('change', guard(onFiat, 'sell-form-error'));
$('sell-form').addEventListener('submit', guard(getOffers, 'sell-form-error'));
$('create-sell-order').addEventListener('click', guard(createOrder, 'sell-order-error'));
document.addEventListener('tab-shown', (event) => {
  if (event.detail === 'sell')
    guard(async () => {
      try {
        await start();
      } catch (err) {
        state.loaded = false; // shown again, it tries again
        throw err;
      }
    }, 'sell-form-error')();
});
