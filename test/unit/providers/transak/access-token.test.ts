import type { SharedValues } from '../../../../src/providers/shared-values';
import { ProviderUnavailableError } from '../../../../src/providers/types';
import { TransakAccessTokens, WEBHOOK_REFRESH_INTERVAL_MS, type IssuedToken } from '../../../../src/providers/transak/access-token';

/** Issues token-1, token-2, ... each valid `lifetimeSeconds` from the clock's now, after a tick. */
function issuer(lifetimeSeconds: number, clock: { now: number }) {
  let n = 0;
  const issue = jest.fn(async (): Promise<IssuedToken> => {
    n++;
    await new Promise((resolve) => setImmediate(resolve));
    return { accessToken: `token-${n}`, expiresAt: Math.floor(clock.now / 1000) + lifetimeSeconds };
  });
  return { issue };
}

describe('Transak access tokens', () => {
  it('fetches once for concurrent callers and reuses the token until shortly before it expires', async () => {
    const clock = { now: 1_700_000_000_000 };
    const { issue } = issuer(7 * 24 * 3600, clock);
    const tokens = new TransakAccessTokens(issue, () => clock.now);
    expect(await Promise.all([tokens.get(), tokens.get(), tokens.get()])).toEqual(['token-1', 'token-1', 'token-1']);
    expect(issue).toHaveBeenCalledTimes(1);

    clock.now += 7 * 24 * 3600_000 - 6 * 60_000; // six minutes before expiry
    expect(await tokens.get()).toBe('token-1');
    clock.now += 2 * 60_000; // four minutes before: inside the five-minute margin
    expect(await tokens.get()).toBe('token-2');
    expect(issue).toHaveBeenCalledTimes(2);
  });

  it('refreshes short-lived tokens a tenth of their lifetime early', async () => {
    const clock = { now: 1_700_000_000_000 };
    const { issue } = issuer(100, clock);
    const tokens = new TransakAccessTokens(issue, () => clock.now);
    await tokens.get();
    clock.now += 89_000;
    expect(await tokens.get()).toBe('token-1');
    clock.now += 2_000;
    expect(await tokens.get()).toBe('token-2');
  });

  it('replaces a refused token once, however many callers saw it refused', async () => {
    const clock = { now: 1_700_000_000_000 };
    const { issue } = issuer(3600, clock);
    const tokens = new TransakAccessTokens(issue, () => clock.now);
    const refused = await tokens.get();
    tokens.invalidate(refused);
    const replaced = await Promise.all([tokens.get(), tokens.get()]);
    tokens.invalidate(refused); // a late caller with the old token changes nothing
    expect(replaced).toEqual(['token-2', 'token-2']);
    expect(await tokens.get()).toBe('token-2');
    expect(issue).toHaveBeenCalledTimes(2);
    expect(await tokens.candidates()).toEqual(['token-2', 'token-1']);
  });

  it('webhooks make a process holding no token refresh once per interval; concurrent ones share it; calls of its own are not held back', async () => {
    const clock = { now: 1_700_000_000_000 };
    let fail = true;
    const issue = jest.fn(async (): Promise<IssuedToken> => {
      await new Promise((resolve) => setImmediate(resolve));
      if (fail) throw new Error('down');
      return { accessToken: 'token-1', expiresAt: Math.floor(clock.now / 1000) + 3600 };
    });
    const tokens = new TransakAccessTokens(issue, () => clock.now);
    const concurrent = await Promise.allSettled([tokens.candidates(), tokens.candidates()]);
    expect(concurrent.map((r) => r.status === 'rejected' && (r.reason as Error).message)).toEqual(['down', 'down']);
    fail = false;
    clock.now += WEBHOOK_REFRESH_INTERVAL_MS - 1;
    await expect(tokens.candidates()).rejects.toThrow(ProviderUnavailableError);
    expect(issue).toHaveBeenCalledTimes(1);
    clock.now += 1;
    expect(await tokens.candidates()).toEqual(['token-1']);
    expect(issue).toHaveBeenCalledTimes(2);

    const other = new TransakAccessTokens(issue, () => clock.now);
    fail = true;
    await expect(other.candidates()).rejects.toThrow('down');
    fail = false;
    expect(await other.get()).toBe('token-1');
  });

  it('lets a failed refresh be retried', async () => {
    let fail = true;
    const tokens = new TransakAccessTokens(() =>
      fail ? Promise.reject(new Error('down')) : Promise.resolve({ accessToken: 'ok', expiresAt: Math.floor(Date.now() / 1000) + 3600 }),
    );
    await expect(tokens.get()).rejects.toThrow('down');
    fail = false;
    await expect(tokens.get()).resolves.toBe('ok');
  });

  describe('shared between processes', () => {
    /** What Redis would hold for every process: a plain map, with a switch to make it fail. */
    function sharedMap() {
      const values = new Map<string, string>();
      const state = { down: false };
      const shared: SharedValues = {
        get: (key) => (state.down ? Promise.reject(new Error('redis down')) : Promise.resolve(values.get(key))),
        set: (key, value) => {
          if (state.down) return Promise.reject(new Error('redis down'));
          values.set(key, value);
          return Promise.resolve();
        },
      };
      return { shared, state };
    }

    /** One issuer and one shared store for every process; `newProcess` starts one more. */
    function processes() {
      const clock = { now: 1_700_000_000_000 };
      const { issue } = issuer(3600, clock);
      const { shared, state } = sharedMap();
      const newProcess = () => new TransakAccessTokens(issue, () => clock.now, shared);
      return { clock, issue, state, newProcess };
    }

    it('a second process takes the token the first obtained instead of revoking it with a new one', async () => {
      const { issue, newProcess } = processes();
      const worker = newProcess();
      const api = newProcess();

      expect(await worker.get()).toBe('token-1');
      expect(await api.candidates()).toEqual(['token-1']);
      expect(await api.get()).toBe('token-1');
      expect(issue).toHaveBeenCalledTimes(1);
    });

    it('after a refusal the new token reaches the other process, which verifies webhooks signed with it', async () => {
      const { issue, newProcess } = processes();
      const worker = newProcess();
      const api = newProcess();
      await worker.get();
      await api.get();

      worker.invalidate('token-1'); // Transak answered 401: the shared token is the refused one, so a new one is issued
      expect(await worker.get()).toBe('token-2');
      expect(await api.candidates()).toEqual(['token-2', 'token-1']);
      expect(await api.get()).toBe('token-2');
      expect(issue).toHaveBeenCalledTimes(2);
    });

    it('a shared token due for refresh is not taken; a failing store leaves each process its own token', async () => {
      const { clock, state, newProcess } = processes();
      const worker = newProcess();
      await worker.get();
      clock.now += 3600_000 - 60_000; // inside the refresh margin
      const api = newProcess();
      expect(await api.get()).toBe('token-2');

      state.down = true;
      const alone = newProcess();
      expect(await alone.get()).toBe('token-3');
      expect(await alone.candidates()).toEqual(['token-3']);
    });
  });
});
