import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

let browserPath: string | undefined;

/** The Chromium binary: $CHROMIUM_PATH (set by jest's global setup), else found or installed by the script. */
export function chromiumPath(): string {
  browserPath ??=
    process.env.CHROMIUM_PATH ||
    execFileSync('bash', [join(__dirname, '../../scripts/ensure-chromium.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
  return browserPath;
}

/** A quiet, self-contained headless Chromium: no sandbox (containers), no GPU, no calls home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
