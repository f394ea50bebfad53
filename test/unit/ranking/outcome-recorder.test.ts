import { OutcomeRecorder } from '../../../src/ranking/outcome-recorder';
import { MemoryOutcomeStatsStore } from '../../../src/ranking/stats-store';

const market = { providerCode: 'sandbox', country: 'GB', paymentMethod: 'card' };
const DAY = 86_400_000;

describe('OutcomeRecorder.refused', () => {
  test('says whether this call folded the refusal first, or it was folded before', async () => {
    const recorder = new OutcomeRecorder({ stats: new MemoryOutcomeStatsStore({ halfLifeMs: 7 * DAY }) });
    await expect(recorder.refused('refused-run-1', market, 'provider_unavailable')).resolves.toBe('folded');
    await expect(recorder.refused('refused-run-1', market, 'provider_unavailable')).resolves.toBe('repeated');
  });

  test('a store that fails is `failed`, not a repeat: the caller must not take it for one already counted', async () => {
    const recorder = new OutcomeRecorder({ stats: { record: () => Promise.reject(new Error('redis down')) } });
    await expect(recorder.refused('refused-run-2', market, 'provider_unavailable')).resolves.toBe('failed');
  });

  test("a rejection that is the customer's is no outcome", async () => {
    const recorder = new OutcomeRecorder({ stats: new MemoryOutcomeStatsStore({ halfLifeMs: 7 * DAY }) });
    await expect(recorder.refused('refused-run-3', market, 'invalid_wallet_address')).resolves.toBe('not_counted');
  });
});
