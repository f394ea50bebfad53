import { parseCommand } from '../../../src/reconciliation/main';

const DAY = 86_400_000;

test('a provider and a day: that UTC day', () => {
  expect(parseCommand(['moonpay', '2026-11-28'])).toEqual({
    list: false,
    wait: false,
    providerCode: 'moonpay',
    fromMs: Date.UTC(2026, 10, 28),
    toMs: Date.UTC(2026, 10, 28) + DAY,
  });
});

test('instants, --wait, and --list without a provider', () => {
  expect(parseCommand(['banxa', '2026-11-28T06:00:00Z', '2026-11-28T18:00:00Z', '--wait'])).toMatchObject({
    wait: true,
    fromMs: Date.UTC(2026, 10, 28, 6),
    toMs: Date.UTC(2026, 10, 28, 18),
  });
  expect(parseCommand(['--list', '2026-11-01', '2026-12-01'])).toEqual({
    list: true,
    wait: false,
    fromMs: Date.UTC(2026, 10, 1),
    toMs: Date.UTC(2026, 11, 1),
  });
});

test.each([
  [['2026-11-28'], 'name the provider'],
  [['moonpay'], '<from> is not'],
  [['moonpay', 'yesterday'], '<from> is not'],
  [['moonpay', '2026-11-28', '2026-11-27'], '<to> must come after'],
  [['moonpay', '2026-11-28', '2026-11-29', 'extra'], 'unexpected extra'],
  [["moon'pay", '2026-11-28'], 'name the provider'],
  [['moonpay', '2026-11-28', '--force'], "Unknown option '--force'"],
  [['moonpay', '2026-11-28T06:00'], 'an instant with its zone'],
  [['--list', '20250101'], '<from> is not'],
])('%j is refused: %s', (args, message) => {
  expect(() => parseCommand(args)).toThrow(message);
});
