import { useMemo } from 'react';
import { useTranslation } from './translator';

/**
 * How the app writes numbers, amounts, dates and countdowns in the player's language, with `Intl`: thousands separators in
 * both languages, Persian digits and the Persian (solar hijri) calendar in Persian. Amounts are decimal strings and are
 * formatted digit by digit (the whole part as a BigInt), so no amount goes through a float.
 */

/** The Intl locale of one of the app's languages. */
function intlLocale(language: string): string {
  return language.startsWith('fa') ? 'fa-IR-u-ca-persian' : 'en-US';
}

/**
 * What one language writes numbers with, built once per locale: countdowns and lists format many numbers a second. Building
 * a formatter is slow (a date's most, and home shows none): the days' and dates' are built on their first use.
 */
interface Formats {
  numbers: Intl.NumberFormat;
  readonly days: Intl.NumberFormat;
  readonly date: Intl.DateTimeFormat;
  readonly dateTime: Intl.DateTimeFormat;
  decimal: string;
  minus: string;
  plus: string;
}

const cache = new Map<string, Formats>();
function formats(language: string): Formats {
  const locale = intlLocale(language);
  let found = cache.get(locale);
  if (!found) {
    const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 });
    const symbol = (format: Intl.NumberFormat, value: number, type: string, fallback: string) =>
      format.formatToParts(value).find((part) => part.type === type)?.value ?? fallback;
    let days: Intl.NumberFormat | undefined;
    let date: Intl.DateTimeFormat | undefined;
    let dateTime: Intl.DateTimeFormat | undefined;
    found = {
      numbers,
      get days() {
        return (days ??= new Intl.NumberFormat(locale, { style: 'unit', unit: 'day', unitDisplay: 'narrow' }));
      },
      get date() {
        return (date ??= new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }));
      },
      get dateTime() {
        return (dateTime ??= new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }));
      },
      decimal: symbol(numbers, 1.5, 'decimal', '.'),
      minus: symbol(numbers, -1, 'minusSign', '-'),
      plus: symbol(new Intl.NumberFormat(locale, { signDisplay: 'always' }), 1, 'plusSign', '+'),
    };
    cache.set(locale, found);
  }
  return found;
}

/**
 * Builds the language's number formatters ahead of their first use (boot.tsx, while the session's request is on its way):
 * the first formatter a page builds loads the browser's number data, which would otherwise lengthen the first render.
 */
export function prepareNumbers(language: string): void {
  formats(language);
}

/** A count or a percent-like number ("1,234", "۱٬۲۳۴"). */
export function formatNumber(value: number, language: string): string {
  return formats(language).numbers.format(value);
}

/** An exact decimal amount ("1234567.5" as "1,234,567.5" or "۱٬۲۳۴٬۵۶۷٫۵"); a leading + or - is kept. Anything else as it is. */
export function formatAmount(amount: string, language: string): string {
  const match = /^([-+]?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return amount;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const { numbers, decimal, minus, plus } = formats(language);
  const digits = [...fraction].map((digit) => numbers.format(Number(digit))).join('');
  const text = numbers.format(BigInt(whole)) + (fraction ? decimal + digits : '');
  if (sign === '-') return minus + text;
  if (sign === '+') return plus + text;
  return text;
}

/**
 * An exact decimal amount as a player of this language types it, for a field the app fills (Max): no thousands separators,
 * the language's digits and decimal separator ("1234.5", or "۱۲۳۴٫۵" in Persian, which the forms read back exactly).
 */
function formatTypedAmount(amount: string, language: string): string {
  if (!/^\d+(\.\d+)?$/.test(amount)) return amount;
  const { numbers, decimal } = formats(language);
  return [...amount].map((char) => (char === '.' ? decimal : numbers.format(Number(char)))).join('');
}

/** A date and time ("Nov 17, 2026, 3:04 PM", or the Persian calendar's date in Persian). */
export function formatDateTime(value: string | number | Date, language: string): string {
  return formats(language).dateTime.format(new Date(value));
}

/** A date alone. */
export function formatDate(value: string | number | Date, language: string): string {
  return formats(language).date.format(new Date(value));
}

const two = (n: number) => String(n).padStart(2, '0');

/** A countdown: "3d 04:05:06", "04:05:06" or "05:06" in the language's digits (and its word for days), never negative. */
export function formatCountdown(ms: number, language: string): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const { numbers } = formats(language);
  const clock = (hours || days ? `${two(hours)}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`).replace(
    /\d/g,
    (digit) => numbers.format(Number(digit)),
  );
  return days ? `${formats(language).days.format(days)} ${clock}` : clock;
}

/** The formatters bound to the app's current language. */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(
    () => ({
      amount: (amount: string) => formatAmount(amount, language),
      typedAmount: (amount: string) => formatTypedAmount(amount, language),
      number: (value: number) => formatNumber(value, language),
      dateTime: (value: string | number | Date) => formatDateTime(value, language),
      date: (value: string | number | Date) => formatDate(value, language),
      countdown: (ms: number) => formatCountdown(ms, language),
    }),
    [language],
  );
}
