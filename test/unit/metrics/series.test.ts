/**
 * A metric series recorded in place (src/metrics/series.ts) reads at scrape exactly as the same
 * observations made through prom-client's own inc and observe: values, buckets, sums, counts and
 * label sets, across a reset of the metric and while the broker's metrics are off.
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { setMetricsRecording } from '../../../src/metrics/metrics';
import { CounterSeries, HistogramSeries } from '../../../src/metrics/series';

function pair(labelNames: string[], buckets = [0.005, 0.01, 0.1, 1, 2.5]) {
  const registry = new Registry();
  const made = (name: string) => ({
    counter: new Counter({ name: `${name}_total`, help: 'h', labelNames, registers: [registry] }),
    histogram: new Histogram({ name: `${name}_seconds`, help: 'h', labelNames, buckets, registers: [registry] }),
  });
  return { registry, own: made('own'), series: made('series') };
}

async function scrape(registry: Registry, name: string): Promise<string> {
  const [counter, histogram] = await Promise.all([
    registry.getSingleMetricAsString(`${name}_total`),
    registry.getSingleMetricAsString(`${name}_seconds`),
  ]);
  return `${counter}\n${histogram}`.replaceAll(`${name}_`, 'metric_');
}

const VALUES = [0, 0.004, 0.005, 0.0050001, 0.05, 1, 2.5, 3, 1e9, 0.3, 0.1 + 0.2];

describe('metric series', () => {
  afterEach(() => setMetricsRecording(true));

  it('scrape as the same observations through prom-client', async () => {
    const { registry, own, series } = pair(['provider', 'reason']);
    const labelSets = [
      { reason: 'ok', provider: 'a' },
      { provider: 'b', reason: 'timeout' },
    ];
    const counters = labelSets.map((labels) => new CounterSeries(series.counter, labels));
    const histograms = labelSets.map((labels) => new HistogramSeries(series.histogram, labels));
    for (const value of VALUES) {
      labelSets.forEach((labels, i) => {
        own.counter.inc(labels);
        own.histogram.observe(labels, value);
        counters[i]!.inc();
        histograms[i]!.observe(value);
      });
    }
    expect(await scrape(registry, 'series')).toBe(await scrape(registry, 'own'));
    expect(await scrape(registry, 'series')).toContain('metric_total{provider="b",reason="timeout"} 11');
  });

  it("go through the metric's own methods only for a series' first observation", () => {
    const { series } = pair(['provider']);
    const inc = jest.spyOn(series.counter, 'inc');
    const observe = jest.spyOn(series.histogram, 'observe');
    const counter = new CounterSeries(series.counter, { provider: 'a' });
    const histogram = new HistogramSeries(series.histogram, { provider: 'a' });
    for (const value of VALUES) {
      counter.inc();
      histogram.observe(value);
    }
    expect([inc.mock.calls.length, observe.mock.calls.length]).toEqual([1, 1]);
  });

  it('follow a reset of the metric', async () => {
    const { registry, own, series } = pair(['provider']);
    const counter = new CounterSeries(series.counter, { provider: 'a' });
    const histogram = new HistogramSeries(series.histogram, { provider: 'a' });
    for (const step of ['before', 'reset', 'after']) {
      if (step === 'reset') {
        registry.resetMetrics();
        continue;
      }
      for (const value of VALUES) {
        own.counter.inc({ provider: 'a' });
        own.histogram.observe({ provider: 'a' }, value);
        counter.inc();
        histogram.observe(value);
      }
    }
    expect(await scrape(registry, 'series')).toBe(await scrape(registry, 'own'));
  });

  it('of a histogram without labels, and refuse what prom-client refuses', async () => {
    const { registry, own, series } = pair([]);
    const histogram = new HistogramSeries(series.histogram);
    for (const value of VALUES) {
      own.histogram.observe(value);
      histogram.observe(value);
    }
    expect(() => histogram.observe(NaN)).toThrow(TypeError);
    expect(() => histogram.observe(Infinity)).toThrow(TypeError);
    expect(await scrape(registry, 'series')).toBe(await scrape(registry, 'own'));
  });

  it('record nothing while the broker metrics are off', async () => {
    // The broker's own metrics: those setMetricsRecording turns off.
    const { offerOutcomes, offersPerRequest } = await import('../../../src/metrics/metrics');
    const counter = new CounterSeries(offerOutcomes, { provider: 'series_test', reason: 'ok' });
    const histogram = new HistogramSeries(offersPerRequest);
    counter.inc();
    histogram.observe(1);
    const read = async () => ({
      count: (await offerOutcomes.get()).values.find((v) => v.labels.provider === 'series_test')?.value,
      observed: (await offersPerRequest.get()).values.find((v) => v.metricName === 'onramp_offers_per_request_count')?.value,
    });
    const before = await read();
    setMetricsRecording(false);
    counter.inc();
    histogram.observe(1);
    expect(await read()).toEqual(before);
    setMetricsRecording(true);
    counter.inc();
    histogram.observe(1);
    expect(await read()).toEqual({ count: before.count! + 1, observed: before.observed! + 1 });
  });
});
