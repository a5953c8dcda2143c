import { calendarDay } from '../../lib/calendarDay';

/** A league week: Monday 00:00 to the next Monday 00:00 in the App Config's timezone, named by its Monday (YYYY-MM-DD). */
export interface LeagueWeek {
  key: string;
  start: Date;
  end: Date;
}

const DAY_MS = 86_400_000;

/** The day `days` after a YYYY-MM-DD day. */
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** How far the zone's clock is ahead of UTC at `moment`, in ms (an unknown zone: UTC). */
function offsetAt(moment: number, timeZone: string): number {
  let format: Intl.DateTimeFormat;
  const options = {
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  } as const;
  try {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, ...options });
  } catch {
    return 0;
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(moment)).map((part) => [part.type, Number(part.value)]));
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
  return local - Math.floor(moment / 1000) * 1000;
}

/** The moment a day begins (00:00 local) in the zone; a midnight a clock change skips begins when the clock resumes. */
function midnight(day: string, timeZone: string): Date {
  const wall = Date.parse(`${day}T00:00:00Z`);
  let guess = wall - offsetAt(wall, timeZone);
  // the offset at the guess may differ from the one at the wall time read as UTC (a change in between): once more settles it
  guess = wall - offsetAt(guess, timeZone);
  return new Date(guess);
}

/** The league week `moment` falls in, in the timezone. */
export function leagueWeekOf(moment: Date, timeZone: string): LeagueWeek {
  const day = calendarDay(moment, timeZone);
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  const key = addDays(day, -weekday);
  return { key, start: midnight(key, timeZone), end: midnight(addDays(key, 7), timeZone) };
}

/** The week before the one named (by its Monday). */
export const weekBefore = (key: string) => addDays(key, -7);

/** The week after the one named. */
export const weekAfter = (key: string) => addDays(key, 7);

/** The week named by its Monday, in the timezone. */
export function leagueWeekNamed(key: string, timeZone: string): LeagueWeek {
  return { key, start: midnight(key, timeZone), end: midnight(addDays(key, 7), timeZone) };
}
