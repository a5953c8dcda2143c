import { useLocaleState } from 'react-admin';

/** ASCII digits and the decimal point written the Persian way (۰–۹, ٫), digit by digit: an amount never goes through a float. */
export const persianDigits = (text: string) => text.replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!).replace(/\./g, '٫');

/** How a figure's digits are written in the console's language: Persian digits in Persian, as they are in English. */
export function useLocalDigits(): (text: string) => string {
  const [locale] = useLocaleState();
  return locale === 'fa' ? persianDigits : (text) => text;
}
