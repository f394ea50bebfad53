/**
 * The customer's side in a real browser: for each real provider, an order created through the API,
 * its redirect_url opened in Chromium (driven by playwright-core), the provider page's pay button
 * clicked, and the integrator seeing the order complete through the status endpoint and its webhooks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { chromium, type BrowserContext } from 'playwright-core';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { LocalStack } from '../../src/dev/local-stack';
import { CHROMIUM_ARGS, chromiumPath } from '../helpers/chromium';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { offerThenOrder } from '../helpers/orders';
import { expectCompleteForIntegrator, JOURNEYS, journeyOrder } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: IntegratorReceiver;
let userDataDir: string;
let browser: BrowserContext;

beforeAll(async () => {
  userDataDir = mkdtempSync(join(tmpdir(), 'onramp-chromium-'));
  // A persistent context is how playwright takes a --user-data-dir of our choosing: a fresh one per run.
  [env, browser] = await Promise.all([
    startTemporal(),
    chromium.launchPersistentContext(userDataDir, { executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS }),
  ]);
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  stack = await startTestStack(env, { env: { ONRAMP_WEBHOOK_URL: await receiver.start() } });
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver?.stop();
  await env?.teardown();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

test.each(JOURNEYS)('$code: the customer pays in the browser and the integrator sees the order complete', async (journey) => {
  const { status, body: order } = await offerThenOrder(stack.apiUrl, journeyOrder(journey));
  expect(status).toBe(200);

  const page = await browser.newPage();
  try {
    const opened = await page.goto(order.redirect_url);
    expect(opened?.status()).toBe(200);
    await page.click('#action-pay');
    await page
      .locator('#result')
      .filter({ hasText: /^Done: / })
      .waitFor();
  } finally {
    await page.close();
  }

  await expectCompleteForIntegrator(stack.apiUrl, receiver, journey.code, order.id);
});
