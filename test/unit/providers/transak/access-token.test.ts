import { TransakAccessTokens, type IssuedToken } from '../../../../src/providers/transak/access-token';

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
    expect(tokens.known()).toEqual(['token-2', 'token-1']);
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
});
