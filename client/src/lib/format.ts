import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * How the app writes numbers, amounts, dates and countdowns in the player's language, with `Intl`: thousands separators in
 * both languages, Persian digits and the Persian (solar hijri) calendar in Persian. Amounts are decimal strings and are
 * formatted digit by digit (the whole part as a BigInt), so no amount goes through a float.
 */

/** The Intl locale of one of the app's languages. */
function intlLocale(language: string): string {
  return language.startsWith('fa') ? 'fa-IR-u-ca-persian' : 'en-US';
}

const cache = new Map<string, Intl.NumberFormat>();
function numbers(language: string): Intl.NumberFormat {
  const locale = intlLocale(language);
  let format = cache.get(locale);
  if (!format) cache.set(locale, (format = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 })));
  return format;
}

function symbolOf(format: Intl.NumberFormat, type: 'decimal' | 'minusSign' | 'plusSign', fallback: string): string {
  const sample = type === 'plusSign' ? new Intl.NumberFormat(format.resolvedOptions().locale, { signDisplay: 'always' }) : format;
  return sample.formatToParts(type === 'minusSign' ? -1.5 : 1.5).find((part) => part.type === type)?.value ?? fallback;
}

/** A count or a percent-like number ("1,234", "۱٬۲۳۴"). */
export function formatNumber(value: number, language: string): string {
  return numbers(language).format(value);
}

/** An exact decimal amount ("1234567.5" as "1,234,567.5" or "۱٬۲۳۴٬۵۶۷٫۵"); a leading + or - is kept. Anything else as it is. */
export function formatAmount(amount: string, language: string): string {
  const match = /^([-+]?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return amount;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const format = numbers(language);
  const digits = [...fraction].map((digit) => format.format(Number(digit))).join('');
  const text = format.format(BigInt(whole)) + (fraction ? symbolOf(format, 'decimal', '.') + digits : '');
  if (sign === '-') return symbolOf(format, 'minusSign', '-') + text;
  if (sign === '+') return symbolOf(format, 'plusSign', '+') + text;
  return text;
}

/** A date and time ("Nov 17, 2026, 3:04 PM", or the Persian calendar's date in Persian). */
export function formatDateTime(value: string | number | Date, language: string): string {
  return new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));
}

/** A date alone. */
export function formatDate(value: string | number | Date, language: string): string {
  return new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'medium' }).format(new Date(value));
}

const two = (n: number) => String(n).padStart(2, '0');

/** A countdown: "3d 04:05:06", "04:05:06" or "05:06" in the language's digits (and its word for days), never negative. */
export function formatCountdown(ms: number, language: string): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const format = numbers(language);
  const clock = (hours || days ? `${two(hours)}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`).replace(
    /\d/g,
    (digit) => format.format(Number(digit)),
  );
  if (!days) return clock;
  const dayText = new Intl.NumberFormat(intlLocale(language), { style: 'unit', unit: 'day', unitDisplay: 'narrow' }).format(days);
  return `${dayText} ${clock}`;
}

/** The formatters bound to the app's current language. */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(
    () => ({
      amount: (amount: string) => formatAmount(amount, language),
      number: (value: number) => formatNumber(value, language),
      dateTime: (value: string | number | Date) => formatDateTime(value, language),
      date: (value: string | number | Date) => formatDate(value, language),
      countdown: (ms: number) => formatCountdown(ms, language),
    }),
    [language],
  );
}
