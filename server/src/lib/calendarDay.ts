/**
 * One formatter per timezone, made once: making an Intl.DateTimeFormat loads the zone's rules, which costs more than the
 * rest of a home call's own work (issue 33). A zone name the runtime does not know gets UTC's formatter.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** Zones are few (the App Config's); a bound keeps a stream of made-up names from growing the map. */
const MAX_ZONES = 64;

function dayFormatIn(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (format) return format;
  const fields = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
  try {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, ...fields });
  } catch {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC', ...fields });
  }
  if (dayFormats.size >= MAX_ZONES) dayFormats.clear();
  dayFormats.set(timeZone, format);
  return format;
}

/** The calendar day (YYYY-MM-DD) a moment falls on in a timezone; an unknown zone falls back to UTC. */
export function calendarDay(moment: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    dayFormatIn(timeZone)
      .formatToParts(moment)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The day before a YYYY-MM-DD day. */
export function dayBefore(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}
