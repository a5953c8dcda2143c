/**
 * Numbers as players type and read them, in any language. Typing: Persian (۰–۹) and Arabic-Indic (٠–٩) digits, the
 * Arabic decimal separator (٫) and a decimal comma are read as the schemas expect. Reading: amounts are formatted from
 * their decimal strings, digit by digit, so no amount ever goes through a float.
 */

const PERSIAN_ZERO = 0x06f0;
const ARABIC_INDIC_ZERO = 0x0660;

/** Persian and Arabic-Indic digits as ASCII digits; everything else as it was. */
export function asciiDigits(text: string): string {
  return text
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - PERSIAN_ZERO))
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - ARABIC_INDIC_ZERO));
}

/**
 * A typed amount as the schemas read it ("۱۲٫۵" and "12,5" are "12.5"): digits made ASCII, the Arabic decimal separator
 * and a lone decimal comma made a point, spaces, direction marks and Arabic thousands separators dropped. A comma followed
 * by exactly three digits ("1,000") is left as it is, so that amount is refused rather than read a thousand times smaller.
 * Apply it to the whole text when reading it, not keystroke by keystroke (after "1," the comma is still a decimal one).
 */
export function typedAmount(text: string): string {
  const plain = asciiDigits(text)
    .replace(/\u066b/g, '.')
    .replace(/\u060c/g, ',')
    .replace(/[\s\u066c\u200c\u200e\u200f]/g, '');
  const commas = plain.split(',').length - 1;
  if (commas === 1 && !plain.includes('.') && !/,\d{3}$/.test(plain)) return plain.replace(',', '.');
  return plain;
}
