import { stakeAmountRefusal, toMicros } from '@gift/shared';
import { stakeCountdown, stakeProfit, unlockDate } from './stakingRules';

const START = new Date('2025-01-01T12:00:00Z');

describe('staking rules', () => {
  it('computes profit exactly, rounding down to a micro-unit', () => {
    expect(stakeProfit(toMicros('100'), '12.5')).toBe(toMicros('12.5'));
    expect(stakeProfit(toMicros('0.000003'), '50')).toBe(1n);
    expect(stakeProfit(toMicros('333.333333'), '3')).toBe(toMicros('9.999999'));
  });

  it('unlocks after the days of the chosen duration', () => {
    expect(unlockDate(START, 'week')).toEqual(new Date('2025-01-08T12:00:00Z'));
    expect(unlockDate(START, 'month')).toEqual(new Date('2025-01-31T12:00:00Z'));
    expect(unlockDate(START, 'year')).toEqual(new Date('2026-01-01T12:00:00Z'));
  });

  it('keeps the amount within the offer, bounds included', () => {
    const [min, max] = [toMicros('10'), toMicros('1000')];
    expect(stakeAmountRefusal(toMicros('9.999999'), min, max)).toBe('AMOUNT_BELOW_MINIMUM');
    expect(stakeAmountRefusal(min, min, max)).toBeNull();
    expect(stakeAmountRefusal(max, min, max)).toBeNull();
    expect(stakeAmountRefusal(toMicros('1000.000001'), min, max)).toBe('AMOUNT_ABOVE_MAXIMUM');
  });

  it('with a balance given (as the app checks while the player types), refuses more than the player holds', () => {
    const [min, max] = [toMicros('10'), toMicros('1000')];
    expect(stakeAmountRefusal(toMicros('500'), min, max, toMicros('499.999999'))).toBe('INSUFFICIENT_BALANCE');
    expect(stakeAmountRefusal(toMicros('500'), min, max, toMicros('500'))).toBeNull();
    // the offer's bounds are named first: the player learns the range before the balance
    expect(stakeAmountRefusal(toMicros('5'), min, max, 0n)).toBe('AMOUNT_BELOW_MINIMUM');
  });

  it('counts down to the unlock and is claimable from then until claimed', () => {
    const unlocksAt = new Date(START.getTime() + 90_500);
    expect(stakeCountdown({ unlocksAt, claimedAt: null }, START)).toEqual({ secondsLeft: 91, claimable: false });
    expect(stakeCountdown({ unlocksAt, claimedAt: null }, unlocksAt)).toEqual({ secondsLeft: 0, claimable: true });
    expect(stakeCountdown({ unlocksAt, claimedAt: unlocksAt }, new Date(unlocksAt.getTime() + 1))).toEqual({
      secondsLeft: 0,
      claimable: false,
    });
  });
});
