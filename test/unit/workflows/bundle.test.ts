/**
 * Each new workflow evaluates every module its bundle's workflow code imports (the SDK gives each
 * workflow its own module state), so a library pulled in by a shared module is paid for by every order.
 */
import { workflowBundle } from '../../helpers/temporal';

jest.setTimeout(120_000);

test('the workflow bundle carries no zod: workflow code imports no module that defines schemas', async () => {
  const { code } = await workflowBundle();
  expect(code).toContain('./workflows/order.ts');
  expect(code).not.toMatch(/"\.\/node_modules\/zod\//);
});
