/**
 * Values made once for each pair of keys and kept: metric label objects on a hot path (every offers
 * request, every provider call) are reused by each observation instead of made anew.
 */
export class PairCache<V> {
  private readonly byFirst = new Map<string, Map<string, V>>();

  constructor(private readonly make: (first: string, second: string) => V) {}

  get(first: string, second: string): V {
    let bySecond = this.byFirst.get(first);
    if (!bySecond) this.byFirst.set(first, (bySecond = new Map<string, V>()));
    let value = bySecond.get(second);
    if (value === undefined) bySecond.set(second, (value = this.make(first, second)));
    return value;
  }
}
