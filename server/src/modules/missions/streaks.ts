import type { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { calendarDay, dayBefore } from '../../lib/calendarDay';
import { recentCoins } from '../coins/giftCoins.service';
import { getAppConfig, recentAppConfig } from '../config/config.service';
import { entryKeys, postEntry } from '../ledger/ledger.service';
import { advanceStreak } from '../users/players.service';
import { remindStreakEnding } from '../notifications/notifications.service';

/**
 * Counts the day of a done daily mission in the player's streak, and pays the App Config's milestone the streak reaches
 * that day, under its key (`entryKeys.streakMilestone`). Both steps are safe to repeat, so the credit's retry and the
 * recovery sweep finish a streak a crash interrupted.
 */
export async function countStreakDay(progress: { user: Types.ObjectId; day?: string | null }): Promise<void> {
  if (!progress.day) return;
  const streak = await advanceStreak(progress.user, progress.day, dayBefore(progress.day));
  // a day approved after later days were done no longer ends the streak: it reaches nothing new
  if (streak.lastDay !== progress.day) return;
  await remindStreakEnding(progress.user, streak.lastDay, streak.days, new Date());
  const config = await getAppConfig();
  const milestone = config.streakMilestones.find((m) => m.days === streak.days);
  if (!milestone?.coin || !milestone.amount || milestone.amount <= 0) return;
  await postEntry({
    userId: progress.user,
    coinId: milestone.coin,
    amount: BigInt(milestone.amount),
    reason: 'streak',
    refType: 'User',
    refId: String(progress.user),
    idempotencyKey: entryKeys.streakMilestone(progress.user, streak.startDay, streak.days),
    guarded: true,
  });
}

/** What home shows of a streak: its days (0 once a day was missed), whether today counts yet, and the next milestone. */
export interface StreakView {
  days: number;
  doneToday: boolean;
  next: { days: number; amount: string; symbol: string } | null;
}

export async function streakFor(
  player: { streak?: { days?: number | null; lastDay?: string | null } | null; streakFreezes?: number | null },
  now: Date,
  configRead: ReturnType<typeof getAppConfig> = recentAppConfig(),
): Promise<StreakView> {
  const config = await configRead;
  const today = calendarDay(now, config.timezone || 'UTC');
  const lastDay = player.streak?.lastDay ?? '';
  // a day missed is still covered while the player holds a streak freeze (it is spent on their next daily mission)
  const covered = lastDay === dayBefore(dayBefore(today)) && (player.streakFreezes ?? 0) > 0;
  const alive = lastDay === today || lastDay === dayBefore(today) || covered;
  const days = alive ? (player.streak?.days ?? 0) : 0;
  const next = [...config.streakMilestones].sort((a, b) => (a.days ?? 0) - (b.days ?? 0)).find((m) => (m.days ?? 0) > days);
  // the milestone's coin is shown only: the coins' short-lived copy
  const coin = next?.coin ? (await recentCoins()).find((c) => String(c._id) === String(next.coin)) : null;
  return {
    days,
    doneToday: lastDay === today,
    next: next?.days && coin ? { days: next.days, amount: fromMicros(BigInt(next.amount ?? 0)), symbol: coin.symbol } : null,
  };
}
