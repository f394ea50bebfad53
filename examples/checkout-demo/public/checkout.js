// The Buy tab: dictionaries, ranked offers, the wallet address check and the order, all
// through the demo server (which holds the API key). Text from the server goes in with textContent.

import { $, call, currencyLabel, fill, guard, option, setLink, tickerOf, uuid } from './common.js';

const state = { countries: [], currencies: { fiat: [], crypto: [] }, offer: null, query: null, checkoutRef: null, validated: null };

function placeQuery() {
  const q = new URLSearchParams({ country: $('country').value });
  if (!$('state-label').hidden && $('state').value) q.set('state', $('state').value);
  return q;
}

async function onCountry() {
  const country = state.countries.find((c) => c.code === $('country').value);
  const states = country?.states ?? [];
  $('state-label').hidden = states.length === 0;
  fill(
    $('state'),
    states.map((s) => option(s.code, s.name)),
    'CA',
  );
  await onPlace();
}

async function onPlace() {
  state.currencies = await call(`/api/currencies?${placeQuery()}`);
  fill(
    $('fiat'),
    state.currencies.fiat.map((c) => option(c.id, currencyLabel(c))),
    String(state.currencies.fiat.find((c) => c.ticker === 'GBP')?.id ?? ''),
  );
  fill(
    $('crypto'),
    state.currencies.crypto.map((c) => option(c.id, currencyLabel(c))),
    String(state.currencies.crypto.find((c) => c.ticker === 'BTC')?.id ?? ''),
  );
  await onFiat();
}

async function onFiat() {
  const q = placeQuery();
  q.set('fiat', $('fiat').value);
  const { payment_methods } = await call(`/api/payment-methods?${q}`);
  fill(
    $('payment-method'),
    payment_methods.map((m) => option(m.code, m.name)),
    'card',
  );
}

async function getOffers() {
  const q = placeQuery();
  for (const [key, id] of [
    ['fiat', 'fiat'],
    ['crypto', 'crypto'],
    ['payment_method', 'payment-method'],
    ['amount', 'amount'],
  ])
    q.set(key, $(id).value.trim());
  $('get-offers').disabled = true;
  try {
    const { offers, left_out } = await call(`/api/offers?${q}`);
    state.query = Object.fromEntries(q);
    renderOffers(offers, left_out);
  } finally {
    $('get-offers').disabled = false;
  }
}

function renderOffers(offers, leftOut) {
  const fiat = tickerOf(state.currencies.fiat, state.query.fiat);
  const crypto = tickerOf(state.currencies.crypto, state.query.crypto);
  $('offers').replaceChildren(
    ...offers.map((offer, i) => {
      const li = document.createElement('li');
      li.dataset.provider = offer.provider_code;
      li.dataset.amount = offer.amount_expected_to;
      if (i === 0) li.classList.add('best');
      const head = document.createElement('div');
      head.className = 'offer-head';
      const amount = document.createElement('span');
      amount.className = 'offer-amount';
      amount.textContent = `${offer.amount_expected_to} ${crypto} from ${offer.provider_code}${i === 0 ? ' (best)' : ''}`;
      const choose = document.createElement('button');
      choose.type = 'button';
      choose.className = 'choose';
      choose.textContent = 'Choose';
      choose.addEventListener('click', () => chooseOffer(offer));
      head.append(amount, choose);
      const meta = document.createElement('div');
      meta.className = 'offer-meta';
      const methods = offer.payment_methods.map((m) => `${m.payment_method_code} ${m.fee} ${fiat}`).join(', ');
      meta.textContent = `You pay ${offer.amount_from} ${fiat}, fees ${offer.total_fee_amount} ${fiat} included; 1 ${crypto} = ${offer.inverted_rate} ${fiat}; fees by method: ${methods}; valid until ${new Date(offer.expires_at).toLocaleTimeString()}`;
      li.append(head, meta);
      if (offer.rank !== undefined) li.dataset.rank = String(offer.rank);
      if (offer.reasons?.length) {
        const reasons = document.createElement('div');
        reasons.className = 'offer-reasons';
        reasons.textContent = offer.reasons.join('; ');
        li.append(reasons);
      }
      return li;
    }),
  );
  if (offers.length === 0)
    $('offers').replaceChildren(Object.assign(document.createElement('li'), { textContent: 'No provider has an offer for this.' }));
  $('left-out').replaceChildren(
    ...leftOut.map((p) => {
      const li = document.createElement('li');
      li.dataset.provider = p.provider_code;
      li.textContent = `${p.provider_code}: ${p.message} (${p.code})`;
      return li;
    }),
  );
  $('left-out-count').textContent = String(leftOut.length);
  $('offers-section').hidden = false;
  $('wallet-section').hidden = true;
  $('order-section').hidden = true;
}

function chooseOffer(offer) {
  state.offer = offer;
  state.checkoutRef = uuid(); // one order per checkout, however often "Create order" is pressed
  state.validated = null;
  $('chosen-crypto').textContent = tickerOf(state.currencies.crypto, state.query.crypto);
  $('chosen-offer').textContent =
    `${offer.amount_expected_to} ${tickerOf(state.currencies.crypto, state.query.crypto)} from ${offer.provider_code}`;
  $('address-result').textContent = '';
  $('create-order').disabled = true;
  $('wallet-section').hidden = false;
  $('order-section').hidden = true;
  $('wallet').focus();
}

function addressBody() {
  const memo = $('memo').value.trim();
  return {
    provider_code: state.offer.provider_code,
    crypto: state.query.crypto,
    wallet_address: $('wallet').value.trim(),
    ...(memo ? { memo } : {}),
  };
}

async function validate() {
  const body = addressBody();
  const result = await call('/api/validate-address', { method: 'POST', body: JSON.stringify(body) });
  $('address-result').className = result.result ? 'ok' : 'error';
  $('address-result').textContent = result.result ? 'The address is valid.' : `Not a valid address: ${result.reason ?? 'unknown reason'}`;
  state.validated = result.result ? JSON.stringify(body) : null;
  $('create-order').disabled = !result.result;
}

async function createOrder() {
  const address = addressBody();
  if (state.validated !== JSON.stringify(address)) {
    $('create-order').disabled = true;
    throw new Error('The address changed: check it again.');
  }
  $('create-order').disabled = true;
  try {
    const order = await call('/api/orders', {
      method: 'POST',
      body: JSON.stringify({
        ...address,
        checkout_ref: state.checkoutRef,
        fiat: state.query.fiat,
        amount: state.query.amount,
        payment_method: state.query.payment_method,
        country: state.query.country,
        ...(state.query.state ? { state: state.query.state } : {}),
      }),
    });
    $('order-id').textContent = order.id;
    $('order-status').textContent = order.status;
    setLink($('checkout-link'), order.redirect_url);
    $('status-link').href = order.status_url;
    $('order-section').hidden = false;
  } finally {
    $('create-order').disabled = false;
  }
}

async function start() {
  const { countries } = await call('/api/countries');
  state.countries = countries;
  fill(
    $('country'),
    countries.map((c) => option(c.code, c.name)),
    'GB',
  );
  await onCountry();
  document.body.dataset.ready = 'true';
}

$('country').addEventListener('change', guard(onCountry, 'form-error'));
$('state').addEventListener('change', guard(onPlace, 'form-error'));
$('fiat').addEventListener('change', guard(onFiat, 'form-error'));
$('offers-form').addEventListener('submit', guard(getOffers, 'form-error'));
$('validate').addEventListener('click', guard(validate, 'order-error'));
$('wallet').addEventListener('input', () => ($('create-order').disabled = true));
$('memo').addEventListener('input', () => ($('create-order').disabled = true));
$('create-order').addEventListener('click', guard(createOrder, 'order-error'));
guard(start, 'form-error')();
