/**
 * The checkout demo (examples/checkout-demo) walked in a real browser, as a customer would: the
 * broker's stack with its integrator webhooks pointed at the demo server, GB/GBP/BTC offers ranked,
 * an address refused then accepted, a sandbox order, its redirect_url opened and the simulator page's
 * button clicked, and the demo's status page reaching the final status through the broker's webhooks,
 * pushed to the page as server-sent events. The Sell tab the same way: DE, ETH for EUR by SEPA, sell
 * offers, a refund address refused then accepted, a sandbox sell order, its sell checkout's button, and
 * the status page reaching the final status with the deposit the provider gave. Screenshots go to
 * docs/images/checkout-demo-*.png with UPDATE_SCREENSHOTS=1, else to a temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startCheckoutDemo, WEBHOOK_PATH, type CheckoutDemo } from '../../examples/checkout-demo/app';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { LocalStack } from '../../src/dev/local-stack';
import { CHROMIUM_ARGS, chromiumPath } from '../helpers/chromium';
import { TEST_API_KEY } from '../helpers/config';
import { BTC, BTC_ADDRESS, GBP } from '../helpers/orders';
import { SELL_ETH as ETH, SELL_EUR as EUR, SELL_REFUND_ADDRESS } from '../helpers/sell-orders';
import { freePort } from '../helpers/ports';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const STATUS_TIMEOUT_MS = 30_000;

const updateScreenshots = process.env.UPDATE_SCREENSHOTS === '1';
let shotsDir: string;
let env: TestWorkflowEnvironment;
let stack: LocalStack;
let demo: CheckoutDemo;
let userDataDir: string;
let browser: BrowserContext;

jest.setTimeout(180_000);

beforeAll(async () => {
  userDataDir = mkdtempSync(join(tmpdir(), 'onramp-chromium-'));
  shotsDir = updateScreenshots ? join(__dirname, '..', '..', 'docs', 'images') : mkdtempSync(join(tmpdir(), 'checkout-demo-shots-'));
  [env, browser] = await Promise.all([
    startTemporal(),
    chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath(),
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 900, height: 640 },
    }),
  ]);
  // The demo needs the API's address and the API the demo's: the API's port is chosen first.
  const [apiPort, demoPort] = await Promise.all([freePort(), freePort()]);
  demo = await startCheckoutDemo({
    apiUrl: `http://127.0.0.1:${apiPort}`,
    apiKey: TEST_API_KEY,
    webhookSecret: DEFAULT_DEV_WEBHOOK_SECRET,
    port: demoPort,
    publicUrl: `http://127.0.0.1:${demoPort}`,
    log: () => undefined,
  });
  stack = await startTestStack(env, { apiPort, env: { ONRAMP_WEBHOOK_URL: `${demo.url}${WEBHOOK_PATH}` } });
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await demo?.close();
  await env?.teardown();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  if (shotsDir && !updateScreenshots) rmSync(shotsDir, { recursive: true, force: true });
});

/** Waits for the status page to show `expected`; fails naming what it showed instead, and every event it received. */
async function expectStatus(page: Page, expected: string): Promise<void> {
  try {
    await page.locator(`#status[data-status="${expected}"]`).waitFor({ timeout: STATUS_TIMEOUT_MS });
  } catch {
    const shown = await page.locator('#status').textContent();
    const history = await page.locator('#history li').allTextContents();
    throw new Error(
      `the demo's status page shows "${shown}", not "${expected}", after ${STATUS_TIMEOUT_MS / 1000} s; events: ${JSON.stringify(history)}`,
    );
  }
}

/** The customer's checkout on the demo up to the created order: the status page's URL. */
async function orderOnDemo(page: Page, screenshot?: string): Promise<{ statusUrl: string }> {
  await page.goto(demo.url);
  await page.locator('body[data-ready="true"]').waitFor();
  await page.selectOption('#country', 'GB');
  await page.selectOption('#fiat', String(GBP));
  await page.selectOption('#crypto', String(BTC));
  await page.selectOption('#payment-method', 'card');
  await page.fill('#amount', '100');
  await page.click('#get-offers');
  await page.locator('#offers li[data-provider="sandbox"]').waitFor();

  // Ranked by the broker (expected crypto delivered), each offer with the reasons for its place.
  const ranks = await Promise.all((await page.locator('#offers li').all()).map((li) => li.getAttribute('data-rank')));
  expect(ranks.length).toBeGreaterThan(1);
  expect(ranks).toEqual(ranks.map((_, i) => String(i + 1)));
  // "no card orders in GB yet", or "only 1 card order in GB so far" once the ranking's snapshot
  // holds the first test's order (it refreshes every few seconds, so either may show here).
  await expect(page.locator('#offers li[data-provider="sandbox"] .offer-reasons').textContent()).resolves.toMatch(/card orders? in GB/);
  await expect(page.locator('#offers li').first().textContent()).resolves.toContain('(best)');
  await expect(page.locator('#offers li[data-provider="sandbox"] .offer-meta').textContent()).resolves.toMatch(/fees \d+\.\d{2} GBP/);
  if (screenshot) await page.screenshot({ path: join(shotsDir, screenshot), fullPage: true });

  await page.click('#offers li[data-provider="sandbox"] button.choose');
  await page.fill('#wallet', 'not-a-bitcoin-address');
  await page.click('#validate');
  await page.locator('#address-result', { hasText: /^Not a valid address: / }).waitFor();
  await expect(page.locator('#create-order').isDisabled()).resolves.toBe(true);
  await page.fill('#wallet', BTC_ADDRESS);
  await page.click('#validate');
  await page.locator('#address-result', { hasText: 'The address is valid.' }).waitFor();
  await page.click('#create-order');
  // The order, or the reason the demo shows for not having one (the broker's problem detail).
  await page.locator('#order-section:not([hidden]), #order-error:not(:empty)').first().waitFor({ timeout: 90_000 });
  const refused = await page.locator('#order-error').textContent();
  if (refused) throw new Error(`the demo shows no order but: ${refused}`);
  await expect(page.locator('#order-status').textContent()).resolves.toBe('created');
  const statusUrl = await page.locator('#status-link').getAttribute('href');
  expect(statusUrl).toMatch(new RegExp(`^${demo.url}/status\\?provider=sandbox&ref=[0-9a-f-]{36}$`));
  return { statusUrl: statusUrl! };
}

test.each([
  { action: 'pay', expected: 'complete', offersShot: 'checkout-demo-offers.png', statusShot: 'checkout-demo-status-complete.png' },
  { action: 'fail', expected: 'failed', offersShot: undefined, statusShot: 'checkout-demo-status-failed.png' },
])(
  'a customer orders on the demo, clicks $action at the provider and watches the order become $expected',
  async ({ action, expected, offersShot, statusShot }) => {
    const page = await browser.newPage();
    const watching = await browser.newPage();
    try {
      const { statusUrl } = await orderOnDemo(page, offersShot);

      // A second tab already watching the order: what it sees next can only have come pushed by a webhook.
      await watching.goto(statusUrl);
      await watching.locator('#status[data-source="snapshot"]').waitFor();

      await page.click('#checkout-link');
      await page.waitForURL(/\/sandbox\/checkout\//);
      await page.click(`#action-${action}`);
      await page
        .locator('#result')
        .filter({ hasText: /^Done: / })
        .waitFor();

      // Back on the demo, as the provider's return URL brings the customer.
      await page.goto(statusUrl);
      await expectStatus(page, expected);
      await expectStatus(watching, expected);
      await expect(watching.locator('#status').getAttribute('data-source')).resolves.toBe('webhook');
      await expect(watching.locator('#history li[data-source="webhook"]').count()).resolves.toBeGreaterThan(0);
      await watching.screenshot({ path: join(shotsDir, statusShot), fullPage: true });
    } finally {
      await page.close();
      await watching.close();
    }
  },
);

/** The customer's sell checkout on the demo's Sell tab up to the created sell order: the status page's URL. */
async function sellOrderOnDemo(page: Page, screenshot?: string): Promise<{ statusUrl: string }> {
  await page.goto(`${demo.url}/#sell`);
  await page.locator('body[data-sell-ready="true"]').waitFor();
  await expect(page.locator('#buy-panel').isHidden()).resolves.toBe(true);
  await page.selectOption('#sell-country', 'DE');
  await page.selectOption('#sell-crypto', String(ETH));
  await page.selectOption('#sell-fiat', String(EUR));
  await page.selectOption('#sell-payout-method', 'sepa');
  await page.fill('#sell-amount', '0.5');
  await page.click('#get-sell-offers');
  await page.locator('#sell-offers li[data-provider="sandbox"]').waitFor();

  // The highest payout first, each with its fees in the payout currency.
  const payouts = await Promise.all((await page.locator('#sell-offers li').all()).map((li) => li.getAttribute('data-amount')));
  expect(payouts.map(Number)).toEqual(payouts.map(Number).sort((a, b) => b - a));
  await expect(page.locator('#sell-offers li').first().textContent()).resolves.toContain('(best)');
  await expect(page.locator('#sell-offers li[data-provider="sandbox"] .offer-meta').textContent()).resolves.toMatch(
    /^You send 0\.5\d* ETH; fees \d+\.\d{2} EUR taken off/,
  );
  if (screenshot) await page.screenshot({ path: join(shotsDir, screenshot), fullPage: true });

  await page.click('#sell-offers li[data-provider="sandbox"] button.choose');
  // A Bitcoin address cannot take back ETH: the broker's refusal is shown, and no order made.
  await page.fill('#refund-wallet', BTC_ADDRESS);
  await page.click('#create-sell-order');
  await page.locator('#sell-order-error', { hasText: /refund_wallet_address/ }).waitFor();
  await expect(page.locator('#sell-order-section').isHidden()).resolves.toBe(true);
  await page.fill('#refund-wallet', SELL_REFUND_ADDRESS);
  await page.click('#create-sell-order');
  await page.locator('#sell-order-section:not([hidden]), #sell-order-error:not(:empty)').first().waitFor({ timeout: 90_000 });
  await expect(page.locator('#sell-order-error').textContent()).resolves.toBe('');
  await expect(page.locator('#sell-order-status').textContent()).resolves.toMatch(/^(created|waiting_for_deposit)$/);
  const statusUrl = await page.locator('#sell-status-link').getAttribute('href');
  expect(statusUrl).toMatch(new RegExp(`^${demo.url}/status\\?provider=sandbox&ref=[0-9a-f-]{36}&side=sell$`));
  return { statusUrl: statusUrl! };
}

test.each([
  { action: 'pay', expected: 'complete', offersShot: 'checkout-demo-sell-offers.png', statusShot: 'checkout-demo-sell-complete.png' },
  { action: 'fail', expected: 'failed', offersShot: undefined, statusShot: undefined },
])(
  "a customer sells on the demo, clicks $action at the provider's sell checkout and watches the order become $expected",
  async ({ action, expected, offersShot, statusShot }) => {
    const page = await browser.newPage();
    const watching = await browser.newPage();
    try {
      const { statusUrl } = await sellOrderOnDemo(page, offersShot);
      await watching.goto(statusUrl);
      await watching.locator('#status[data-source="snapshot"]').waitFor();

      await page.click('#sell-checkout-link');
      await page.waitForURL(/\/sandbox\/sell\/checkout\//);
      const deposit = await page.locator('#deposit-address').textContent();
      expect(deposit).toMatch(/^0x[0-9a-fA-F]{40}$/);
      await page.click(`#action-${action}`);
      await page
        .locator('#result')
        .filter({ hasText: /^Done: / })
        .waitFor();

      await page.goto(statusUrl);
      await expectStatus(page, expected);
      await expectStatus(watching, expected);
      await expect(watching.locator('#status').getAttribute('data-source')).resolves.toBe('webhook');
      // The deposit the provider gave, exactly as its checkout showed it, on both pages.
      for (const shown of [page, watching]) {
        await expect(shown.locator('#deposit-address').textContent()).resolves.toBe(deposit);
        await expect(shown.locator('#deposit-network').textContent()).resolves.toBe('ethereum');
        await expect(shown.locator('#deposit-amount').textContent()).resolves.toMatch(/^0\.50*$/);
      }
      if (expected === 'complete') await expect(page.locator('#transaction-hash').textContent()).resolves.toMatch(/^0x[0-9a-f]{64}$/);
      else await expect(page.locator('#details').textContent()).resolves.toContain('Why it failed');
      if (statusShot) await watching.screenshot({ path: join(shotsDir, statusShot), fullPage: true });
    } finally {
      await page.close();
      await watching.close();
    }
  },
);

test('the demo refuses malformed input and unknown orders without a stack trace', async () => {
  const bad = await fetch(`${demo.url}/api/offers?country=gb&fiat=3&crypto=13&amount=1e9&payment_method=card`);
  expect(bad.status).toBe(400);
  await expect(bad.json()).resolves.toMatchObject({ code: 'validation_error', errors: [{ path: 'country' }] });
  const unknown = await fetch(`${demo.url}/api/orders/sandbox/events?ref=00000000-0000-4000-8000-000000000000`);
  expect(unknown.status).toBe(404);
  const script = await fetch(`${demo.url}/api/orders/sandbox/events?ref=%3Cscript%3E`);
  expect(script.status).toBe(400);
  expect(await script.text()).not.toMatch(/at .*\.ts:\d+/);
  // A sell checkout's reference the demo never made, and a side it does not know.
  expect((await fetch(`${demo.url}/api/orders/sandbox/events?ref=00000000-0000-4000-8000-000000000000&side=sell`)).status).toBe(404);
  expect((await fetch(`${demo.url}/api/orders/sandbox/events?ref=00000000-0000-4000-8000-000000000000&side=swap`)).status).toBe(400);
  const sellBad = await fetch(`${demo.url}/api/sell/offers?country=DE&crypto=14&fiat=2&amount=0.5&payout_method=SEPA%3B`);
  expect(sellBad.status).toBe(400);
  await expect(sellBad.json()).resolves.toMatchObject({ code: 'validation_error', errors: [{ path: 'payout_method' }] });
  const forged = await fetch(`${demo.url}${WEBHOOK_PATH}`, { method: 'POST', body: '{"type":"order.status_changed"}' });
  expect(forged.status).toBe(400);
});
