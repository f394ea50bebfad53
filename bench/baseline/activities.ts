/** The baseline's only activity: it does nothing, so the baseline measures Temporal alone. */
export function createBaselineActivities() {
  return {
    // eslint-disable-next-line @typescript-eslint/require-await
    async step(name: string): Promise<string> {
      return name;
    },
  };
}

export type BaselineActivities = ReturnType<typeof createBaselineActivities>;
