import { dayWriter } from './ConsoleDateField';

it("writes a calendar day in the console's language and calendar, the same day in every timezone", () => {
  const zone = process.env.TZ;
  try {
    // a browser west of UTC would read '2026-11-28' at its own midnight as the 27th if the day went through local time
    process.env.TZ = 'America/Los_Angeles';
    expect(dayWriter('en-US', { month: 'short', day: 'numeric' })('2026-11-28')).toBe('Nov 28');
    // Persian: the Persian calendar's day and month, in Persian digits (28 November 2026 is 7 Azar 1405)
    expect(dayWriter('fa-IR', { month: 'short', day: 'numeric' })('2026-11-28')).toBe('۷ آذر');
    expect(dayWriter('fa-IR', { dateStyle: 'medium' })('2026-11-28')).toBe('۷ آذر ۱۴۰۵');
  } finally {
    process.env.TZ = zone;
  }
});
