/**
 * Writes clients/typescript/src/openapi.ts from the API's OpenAPI document (`npm run client:types`);
 * with `--check`, only says whether the committed file is current (exit 1 when it drifted).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { CLIENT_TYPES_FILE, generateClientTypes } from './lib/client-types';

async function main(): Promise<void> {
  const generated = await generateClientTypes();
  const file = relative(process.cwd(), CLIENT_TYPES_FILE);
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    } catch {
      // A missing file has drifted too.
    }
    if (committed !== generated) {
      console.error(`${file} differs from the OpenAPI document: run npm run client:types`);
      process.exitCode = 1;
    } else console.log(`${file} matches the OpenAPI document`);
    return;
  }
  writeFileSync(CLIENT_TYPES_FILE, generated);
  console.log(`wrote ${file}`);
}

void main();
