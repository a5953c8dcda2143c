import { useMemo } from 'react';
import { useDateLocales } from './ConsoleDateField';

/** Whole numbers written in the console's language (grouped, Persian digits in Persian): one Intl writer per language. */
export function useNumbers(): Intl.NumberFormat {
  const locales = useDateLocales();
  return useMemo(() => new Intl.NumberFormat(locales), [locales]);
}

/**
 * An exact decimal string written with Intl in the console's language (grouped, Persian digits in Persian): the whole part
 * formatted as a bigint and the fraction digit by digit, so an amount never goes through a float.
 */
export function useAmount(): (decimal: string) => string {
  const locales = useDateLocales();
  // one writer per language, not one per render: a list renders it for every row
  return useMemo(() => amountWriter(locales), [locales]);
}

function amountWriter(locales: string | undefined): (decimal: string) => string {
  const numbers = new Intl.NumberFormat(locales);
  const part = (value: number, type: string) => numbers.formatToParts(value).find((piece) => piece.type === type)?.value;
  const point = part(1.5, 'decimal') ?? '.';
  const minus = part(-1, 'minusSign') ?? '-';
  return (decimal) => {
    const [whole = '0', fraction = ''] = decimal.replace(/^-/, '').split('.');
    const digits = [...fraction].map((digit) => numbers.format(Number(digit))).join('');
    return `${decimal.startsWith('-') ? minus : ''}${numbers.format(BigInt(whole))}${digits ? point + digits : ''}`;
  };
}
