/**
 * Where the replay histories live: one folder per release, each holding every recorded path as that
 * release's workflow ran it (docs/decisions.md, "Changing the workflow safely"). The replay test
 * replays every folder; `npm run test:replay:record` (scripts/record-histories.ts) re-records the
 * current release's. A release that changes the workflow names a new folder here and keeps the older
 * ones until no order started under them can be open.
 */
import { resolve } from 'node:path';

export const HISTORIES_DIR = resolve(__dirname, 'histories');

/** The release whose workflow this code is: its histories are the ones recorded now. */
export const CURRENT_GENERATION = '1.0';
