import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, DEFAULT_DEV_API_KEY } from '../../../src/config/env';
import { DEMO_INTEGRATOR_API_KEY_SHA256 } from '../../../src/config/published-values';
import { sha256Hex, type Integrator } from '../../../src/config/integrators';
import { DEFAULT_DEV_OPERATOR_KEY, DEV_OPERATOR_ID, OperatorDirectory, operatorsFrom } from '../../../src/config/operators';

const INTEGRATOR_KEY = 'integrator-key-0123456789';
const INTEGRATORS: Integrator[] = [{ id: 'acme', name: 'Acme', api_key_sha256: [sha256Hex(INTEGRATOR_KEY)] }];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'operators-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(body: unknown): string {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(body));
  return path;
}

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('operatorsFrom', () => {
  test('outside production, the development operator stands in', () => {
    const [operator] = operatorsFrom({ NODE_ENV: 'development' }, INTEGRATORS);
    expect(operator).toMatchObject({ id: DEV_OPERATOR_ID, api_key_sha256: [sha256Hex(DEFAULT_DEV_OPERATOR_KEY)] });
  });

  test('in production with neither variable there is no operator (the operator API is not served)', () => {
    expect(operatorsFrom({ NODE_ENV: 'production' }, INTEGRATORS)).toEqual([]);
  });

  test('in production every published key is refused (the development operator and integrator keys), a private one taken', () => {
    for (const key of [DEFAULT_DEV_OPERATOR_KEY, DEFAULT_DEV_API_KEY]) {
      expect(problemsOf(() => operatorsFrom({ NODE_ENV: 'production', ONRAMP_OPERATOR_KEY: key }, INTEGRATORS))).toEqual([
        expect.stringContaining('ONRAMP_OPERATOR_KEY: a key published in this repository'),
      ]);
    }
    const demo = file({ operators: [{ id: 'ana', name: 'Ana', api_key_sha256: [DEMO_INTEGRATOR_API_KEY_SHA256] }] });
    expect(problemsOf(() => operatorsFrom({ NODE_ENV: 'production', ONRAMP_OPERATORS_FILE: demo }, INTEGRATORS))).toEqual([
      expect.stringContaining('ONRAMP_OPERATORS_FILE: operator ana: a key published'),
    ]);
    expect(operatorsFrom({ NODE_ENV: 'production', ONRAMP_OPERATOR_KEY: 'a-private-operator-key' }, INTEGRATORS)).toHaveLength(1);
  });

  test("a key that is also an integrator's is refused, by variable and in the file", () => {
    expect(problemsOf(() => operatorsFrom({ NODE_ENV: 'test', ONRAMP_OPERATOR_KEY: INTEGRATOR_KEY }, INTEGRATORS))).toEqual([
      expect.stringContaining("also an integrator's API key"),
    ]);
    const path = file({ operators: [{ id: 'ana', name: 'Ana', api_key_sha256: [sha256Hex('x'), sha256Hex(INTEGRATOR_KEY)] }] });
    expect(problemsOf(() => operatorsFrom({ NODE_ENV: 'test', ONRAMP_OPERATORS_FILE: path }, INTEGRATORS))).toEqual([
      expect.stringContaining('ONRAMP_OPERATORS_FILE: operator ana'),
    ]);
  });

  test('the file: operators with unique ids and digests, each refused with its path', () => {
    const good = file({ operators: [{ id: 'ana@ops', name: 'Ana', api_key_sha256: [sha256Hex('ana-key')] }] });
    expect(operatorsFrom({ NODE_ENV: 'production', ONRAMP_OPERATORS_FILE: good }, INTEGRATORS).map((o) => o.id)).toEqual(['ana@ops']);
    const twice = file({
      operators: [
        { id: 'ana', name: 'Ana', api_key_sha256: [sha256Hex('a')] },
        { id: 'ana', name: 'Ana again', api_key_sha256: [sha256Hex('b')] },
      ],
    });
    expect(problemsOf(() => operatorsFrom({ NODE_ENV: 'test', ONRAMP_OPERATORS_FILE: twice }, INTEGRATORS))[0]).toContain(
      'operator ids must be unique',
    );
    const clearKey = file({ operators: [{ id: 'bob', name: 'Bob', api_key_sha256: ['not-a-digest'] }] });
    expect(problemsOf(() => operatorsFrom({ NODE_ENV: 'test', ONRAMP_OPERATORS_FILE: clearKey }, INTEGRATORS))[0]).toContain(
      'operators.0.api_key_sha256.0',
    );
    expect(problemsOf(() => operatorsFrom({ NODE_ENV: 'test', ONRAMP_OPERATORS_FILE: join(dir, 'none.json') }, INTEGRATORS))[0]).toContain(
      'ONRAMP_OPERATORS_FILE: cannot read',
    );
  });
});

describe('OperatorDirectory', () => {
  test('finds the operator of a key, and no one for any other', () => {
    const directory = new OperatorDirectory([{ id: 'ana', name: 'Ana', api_key_sha256: [sha256Hex('ana-key-1'), sha256Hex('ana-key-2')] }]);
    expect(directory.authenticate('ana-key-2')?.id).toBe('ana');
    expect(directory.authenticate('ana-key-3')).toBeUndefined();
  });
});
