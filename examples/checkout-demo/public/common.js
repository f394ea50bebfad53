// What the buy and sell pages share: calls to the demo server (which holds the API key), the
// selects they fill, and the error line each step shows. Text from the server goes in with textContent.

export const $ = (id) => document.getElementById(id);

/** A random UUID, also where crypto.randomUUID is missing (a page served over plain http to another host). */
export function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export async function call(path, init) {
  const response = await fetch(path, {
    ...init,
    headers: { accept: 'application/json', ...(init?.body ? { 'content-type': 'application/json' } : {}) },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const fields = Array.isArray(body.errors) ? body.errors.map((e) => `${e.path}: ${e.message}`).join('; ') : '';
    throw new Error(`${body.detail || `HTTP ${response.status}`}${fields ? ` (${fields})` : ''}`);
  }
  return body;
}

export function option(value, label) {
  const o = document.createElement('option');
  o.value = String(value);
  o.textContent = label;
  return o;
}

export function fill(select, options, preferred) {
  const previous = select.value;
  select.replaceChildren(...options);
  const values = options.map((o) => o.value);
  select.value = values.includes(previous) ? previous : values.includes(preferred) ? preferred : (values[0] ?? '');
}

export const currencyLabel = (c) => (c.network ? `${c.ticker} (${c.network})` : `${c.ticker}: ${c.name}`);
export const tickerOf = (list, id) => list.find((c) => String(c.id) === String(id))?.ticker ?? '';

/** Runs `fn` for an event, showing what went wrong in the element `errorId`. */
export function guard(fn, errorId) {
  return async (event) => {
    event?.preventDefault();
    $(errorId).textContent = '';
    try {
      await fn();
    } catch (err) {
      $(errorId).textContent = err.message;
    }
  };
}

/** The provider's checkout link: set when the server gave one (it passes only http(s) URLs). */
export function setLink(link, url) {
  if (url) link.href = url;
  else link.removeAttribute('href');
}
