/** Runs a benchmark's `main`, then stops its servers; exits 0, or 1 with the error's stack when anything failed. */
export function runBench(main: () => Promise<void>, stopAll: () => Promise<void>, log: (message: string) => void): void {
  main()
    .then(() => stopAll())
    .then(() => process.exit(0))
    .catch(async (err: unknown) => {
      log(`failed: ${(err as Error).stack ?? String(err)}`);
      await stopAll();
      process.exit(1);
    });
}
