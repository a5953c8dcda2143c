import { REMINDER_KINDS, type ReminderKind } from '@gift/shared';
import type { Types } from 'mongoose';
import { dayBefore } from '../../lib/calendarDay';
import { dayAfter, momentAt, wallClock } from '../../lib/localTime';
import { recentAppConfig } from '../config/config.service';
import { takeReminderPlace } from '../users/players.service';

/**
 * The rules of the bot's reminders (issue 35): each kind can be switched off by the player; none reaches a player who is frozen
 * or banned (nor, as for every message, one who blocked the bot); quiet hours hold them back until they end; and the nudges
 * (mining, streak, stake) are at most App Config's daily cap a day, those over it dropped. A prize and a paid withdrawal are the
 * player's own money: they are outside the cap, and a paid withdrawal is not held back by quiet hours but sent without a sound.
 */

/** The reminders that count toward the daily cap. */
const CAPPED: ReadonlySet<string> = new Set<ReminderKind>(['mining-ready', 'streak-ending', 'stake-unlocked']);
/** Sent at once in quiet hours, silently: the player asked for it and waits for it. */
const SILENT_IN_QUIET_HOURS: ReadonlySet<string> = new Set<ReminderKind>(['withdrawal-paid']);

export function isReminder(event: string): event is ReminderKind {
  return (REMINDER_KINDS as readonly string[]).includes(event);
}

interface ReminderSettings {
  timezone: string;
  quietStart: string;
  quietEnd: string;
  dailyCap: number;
  streakHoursBefore: number;
}

async function reminderSettings(): Promise<ReminderSettings> {
  const config = await recentAppConfig();
  const reminders = config.reminders as Partial<Omit<ReminderSettings, 'timezone'>> | undefined;
  return {
    timezone: config.timezone || 'UTC',
    quietStart: reminders?.quietStart ?? '22:00',
    quietEnd: reminders?.quietEnd ?? '08:00',
    dailyCap: reminders?.dailyCap ?? 3,
    streakHoursBefore: reminders?.streakHoursBefore ?? 4,
  };
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** When quiet hours end, if `now` falls in them (start included, end not); null outside them or when there are none. */
function quietHoursEnd(now: Date, settings: Pick<ReminderSettings, 'timezone' | 'quietStart' | 'quietEnd'>): Date | null {
  const start = minutesOf(settings.quietStart);
  const end = minutesOf(settings.quietEnd);
  if (start === end) return null;
  const { day, minutes } = wallClock(now, settings.timezone);
  const quiet = start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
  if (!quiet) return null;
  return momentAt(minutes < end ? day : dayAfter(day), end, settings.timezone);
}

/** What a due reminder does now: go out (`silent`: without a sound), wait until a moment, or be skipped, and why. */
type ReminderVerdict = { send: true; silent: boolean } | { wait: Date } | { skip: string };

interface Recipient {
  _id: Types.ObjectId;
  status?: string | null;
  reminders?: { off?: string[] | null } | null;
  streak?: { lastDay?: string | null } | null;
  streakFreezes?: number | null;
}

/** Decides a due reminder at send time, from the player as they are now and the App Config as it is now. */
export async function reminderVerdict(
  message: { key: string; event: ReminderKind; facts: unknown },
  player: Recipient,
  now: Date,
): Promise<ReminderVerdict> {
  if (player.status !== 'active') return { skip: `player ${player.status ?? 'unknown'}` };
  if (player.reminders?.off?.includes(message.event)) return { skip: 'switched off by the player' };
  const settings = await reminderSettings();
  const today = wallClock(now, settings.timezone).day;
  if (message.event === 'streak-ending') {
    const { day } = message.facts as { day: string };
    const lastDay = player.streak?.lastDay ?? '';
    if (lastDay >= day) return { skip: 'streak kept' };
    if (today > day || lastDay !== dayBefore(day)) return { skip: 'streak already ended' };
    // a streak freeze from the shop covers the day: the streak does not end at midnight
    if ((player.streakFreezes ?? 0) > 0) return { skip: 'a streak freeze covers the day' };
  }
  const quietUntil = quietHoursEnd(now, settings);
  if (quietUntil && SILENT_IN_QUIET_HOURS.has(message.event)) return { send: true, silent: true };
  if (quietUntil) {
    // a streak reminder held past its day's end would come too late
    if (message.event === 'streak-ending' && wallClock(quietUntil, settings.timezone).day > (message.facts as { day: string }).day)
      return { skip: 'quiet hours until the streak ended' };
    return { wait: quietUntil };
  }
  if (CAPPED.has(message.event) && !(await takeReminderPlace(player._id, message.key, today, settings.dailyCap)))
    return { skip: 'daily cap reached' };
  return { send: true, silent: false };
}

/**
 * When a daily mission kept a player's streak on `keptDay`, the reminder for the next day: queued for App Config's hours before
 * that day ends, dropped when due if the player kept the streak that day by then.
 */
export async function streakReminderFor(keptDay: string, now: Date): Promise<{ day: string; dueAt: Date } | null> {
  const settings = await reminderSettings();
  if (!settings.streakHoursBefore) return null;
  const day = dayAfter(keptDay);
  const dueAt = new Date(momentAt(dayAfter(day), 0, settings.timezone).getTime() - settings.streakHoursBefore * 3600_000);
  return dueAt > now ? { day, dueAt } : null;
}
