/** A timezone's wall clock: the day and time a moment shows there, and the moment a day and time happen there. */

function formatIn(timeZone: string): Intl.DateTimeFormat {
  const fields = { hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' } as const;
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, ...fields });
  } catch {
    // an unknown zone counts in UTC, as calendarDay does
    return new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC', ...fields });
  }
}

/** The day (YYYY-MM-DD) and the minutes since its midnight that a moment shows on the clocks of a timezone. */
export function wallClock(moment: Date, timeZone: string): { day: string; minutes: number } {
  const parts = Object.fromEntries(
    formatIn(timeZone)
      .formatToParts(moment)
      .map((part) => [part.type, part.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** How far a timezone's clocks are ahead of UTC at a moment, in ms (to the minute). */
function offsetAt(moment: number, timeZone: string): number {
  const { day, minutes } = wallClock(new Date(moment), timeZone);
  const shown = Date.parse(`${day}T00:00:00Z`) + minutes * 60_000;
  return shown - Math.floor(moment / 60_000) * 60_000;
}

/** The moment the clocks of a timezone show `minutes` after midnight of `day` (a time skipped by a clock change: an hour later). */
export function momentAt(day: string, minutes: number, timeZone: string): Date {
  const asUtc = Date.parse(`${day}T00:00:00Z`) + minutes * 60_000;
  const first = asUtc - offsetAt(asUtc, timeZone);
  // across a clock change the offset at the first guess is not the offset at the answer
  return new Date(asUtc - offsetAt(first, timeZone));
}

/** The day after a YYYY-MM-DD day. */
export function dayAfter(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}
