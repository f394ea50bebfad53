import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devServerDynamicConfigArgs, temporalDynamicConfig } from '../../../scripts/lib/temporal-dynamic-config';

const file = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'dynconf-')), 'dynamicconfig.yaml');
  writeFileSync(path, text);
  return path;
};

test('the dev server gets every value of the file, as JSON', () => {
  const path = file('a.flag:\n  - value: true\nb.rps:\n  - value: 100\n  - value: 5\n    constraints:\n      namespace: x\n');
  expect(devServerDynamicConfigArgs(path)).toEqual(['--dynamic-config-value', 'a.flag=true', '--dynamic-config-value', 'b.rps=100']);
});

test('a key whose every value is constrained is refused: the dev server could not take it', () => {
  const path = file('c.rps:\n  - value: 5\n    constraints:\n      namespace: x\n');
  expect(() => temporalDynamicConfig(path)).toThrow(/c\.rps has no value without constraints/);
});

test("the broker's file turns on eager activity dispatch", () => {
  expect(devServerDynamicConfigArgs()).toEqual(expect.arrayContaining(['system.enableActivityEagerExecution=true']));
});
