import { DateField, useLocaleState, type DateFieldProps } from 'react-admin';

/**
 * The `Intl` locale dates are written in: in Persian, `fa-IR` (Persian digits and the Solar Hijri calendar, as the
 * player app writes them); in English, the browser's own.
 */
export function useDateLocales(): string | undefined {
  const [locale] = useLocaleState();
  return locale === 'fa' ? 'fa-IR' : undefined;
}

/**
 * How a date with its time is written: in Persian, Intl's medium styles ("۷ آذر ۱۴۰۵، ۱۰:۱۵:۰۰"), since its default (short)
 * style joins the date and the time with a Latin comma ("۱۴۰۵/۹/۷, ۱۰:۱۵:۰۰"); in English, the browser's default.
 */
const whenOptions = (locales: string | undefined): Intl.DateTimeFormatOptions | undefined =>
  locales === 'fa-IR' ? { dateStyle: 'medium', timeStyle: 'medium' } : undefined;

/**
 * A calendar day the server names ('YYYY-MM-DD') in the given locales and calendar: read at midnight UTC and written in UTC,
 * so no browser's timezone moves it to the day before.
 */
export function dayWriter(locales: string | undefined, options: Intl.DateTimeFormatOptions = {}): (day: string) => string {
  const format = new Intl.DateTimeFormat(locales, { ...options, timeZone: 'UTC' });
  return (day) => format.format(new Date(`${day}T00:00:00Z`));
}

/** A date or time in the console's language. */
export const formatWhen = (value: string | number | Date, locales: string | undefined) =>
  new Date(value).toLocaleString(locales, whenOptions(locales));

/** react-admin's DateField, written in the console's language. */
export function ConsoleDateField(props: DateFieldProps) {
  const locales = useDateLocales();
  return <DateField locales={locales} options={props.showTime ? whenOptions(locales) : undefined} {...props} />;
}
