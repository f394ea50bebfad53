import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

/**
 * Opens the cluster's Temporal Web UI on the namespace's workflow list filtered by a visibility query
 * over the broker's search attributes, waits until it lists `expectRows` (workflow ids it must show),
 * and saves a screenshot. Throws when the list does not show them: the UI, the server's advanced
 * visibility and the search attributes all have to work.
 */
export async function screenshotWorkflowList(options: {
  uiUrl: string;
  namespace: string;
  query: string;
  expectRows: string[];
  file: string;
}): Promise<void> {
  const executablePath =
    process.env.CHROMIUM_PATH ||
    execFileSync('bash', [resolve(__dirname, '..', 'ensure-chromium.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
  const userDataDir = mkdtempSync(join(tmpdir(), 'cluster-ui-'));
  const browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: ['--no-sandbox'],
    viewport: { width: 1440, height: 900 },
  });
  try {
    const page = await browser.newPage();
    const url = `${options.uiUrl}/namespaces/${options.namespace}/workflows?query=${encodeURIComponent(options.query)}`;
    await page.goto(url);
    for (const id of options.expectRows) await page.getByText(id).first().waitFor({ timeout: 45_000 });
    await page.screenshot({ path: options.file });
  } finally {
    await browser.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}
