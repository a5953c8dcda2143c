import { toMicros } from '@gift/shared';
import { HOUR_MS, miningProgress, miningWindow } from './miningRules';

const START = new Date('2025-03-01T00:00:00Z');
const hours = (h: number) => new Date(START.getTime() + h * HOUR_MS);
const session = { startedAt: START, endsAt: hours(3), amount: toMicros('10') };

describe('mining progress', () => {
  it('grows at an even rate, rounded down to a micro-unit', () => {
    expect(miningProgress(session, hours(1))).toEqual({
      minedSoFar: toMicros('3.333333'),
      ratePerHour: toMicros('3.333333'),
      remainingMs: 2 * HOUR_MS,
      finished: false,
    });
    expect(miningProgress(session, hours(1.5)).minedSoFar).toBe(toMicros('5'));
  });

  it('reaches exactly the whole amount at the end and never more', () => {
    expect(miningProgress(session, hours(3))).toMatchObject({ minedSoFar: toMicros('10'), remainingMs: 0, finished: true });
    expect(miningProgress(session, hours(30))).toMatchObject({ minedSoFar: toMicros('10'), remainingMs: 0, finished: true });
  });

  it('shows nothing mined before the start', () => {
    expect(miningProgress(session, hours(-1))).toMatchObject({ minedSoFar: 0n, finished: false, remainingMs: 4 * HOUR_MS });
  });

  it('lasts the earn duration', () => {
    expect(miningWindow(START, 8)).toEqual({ startedAt: START, endsAt: hours(8) });
  });
});
