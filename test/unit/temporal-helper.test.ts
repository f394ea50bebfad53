/** startTemporal tries a start again when the SDK's fixed 5 s startup deadline ran out, and only then. */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { startTemporal } from '../helpers/temporal';

const timeout = () => new Error('Failed to start ephemeral server: ephemeral server at 127.0.0.1:1 did not start within 5s.');

beforeAll(() => {
  process.env.TEMPORAL_CLI_PATH ??= '/nonexistent/temporal';
});

afterEach(() => jest.restoreAllMocks());

test('a start that timed out is tried again, with the same options', async () => {
  const environment = {} as TestWorkflowEnvironment;
  const createLocal = jest
    .spyOn(TestWorkflowEnvironment, 'createLocal')
    .mockRejectedValueOnce(timeout())
    .mockResolvedValueOnce(environment);
  await expect(startTemporal({ port: 7777 })).resolves.toBe(environment);
  expect(createLocal).toHaveBeenCalledTimes(2);
  for (const [options] of createLocal.mock.calls)
    expect(options?.server).toMatchObject({ port: 7777, executable: { type: 'existing-path' } });
});

test('three timeouts in a row give up with the last error', async () => {
  const createLocal = jest.spyOn(TestWorkflowEnvironment, 'createLocal').mockImplementation(() => Promise.reject(timeout()));
  await expect(startTemporal()).rejects.toThrow('did not start within');
  expect(createLocal).toHaveBeenCalledTimes(3);
});

test('any other failure is not tried again', async () => {
  const createLocal = jest
    .spyOn(TestWorkflowEnvironment, 'createLocal')
    .mockRejectedValue(new Error('ephemeral server executable does not exist'));
  await expect(startTemporal()).rejects.toThrow('does not exist');
  expect(createLocal).toHaveBeenCalledTimes(1);
});
