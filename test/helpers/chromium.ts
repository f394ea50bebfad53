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
