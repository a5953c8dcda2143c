import { DateField, useLocaleState, type DateFieldProps } from 'react-admin';

/**
 * The `Intl` locale dates are written in: in Persian, `fa-IR` (Persian digits and the Solar Hijri calendar, as the
 * player app writes them); in English, the browser's own.
 */
export function useDateLocales(): string | undefined {
  const [locale] = useLocaleState();
  return locale === 'fa' ? 'fa-IR' : undefined;
}

/** A date or time in the console's language. */
export const formatWhen = (value: string | number | Date, locales: string | undefined) => new Date(value).toLocaleString(locales);

/** react-admin's DateField, written in the console's language. */
export function ConsoleDateField(props: DateFieldProps) {
  const locales = useDateLocales();
  return <DateField locales={locales} {...props} />;
}
