import { TextInput, type TextInputProps } from 'react-admin';
import { asciiDigits } from '@gift/shared/numerals';
import { useLocalDigits } from '../lists/localDigits';

/**
 * What a number field keeps of what was typed: Persian (۰–۹) and Arabic-Indic (٠–٩) digits as ASCII digits and the
 * Persian decimal separator (٫) as a point, keystroke by keystroke (both are unambiguous), so an operator on a Persian
 * keyboard types amounts as they would anywhere. Empty stays null, as react-admin's own inputs give it.
 */
const typedNumeral = (value: string) => (value === '' ? null : asciiDigits(value).replace(/\u066b/g, '.'));

/**
 * A text field for a number or an amount (amounts are decimal strings, never floats), read as `typedNumeral` says and
 * shown in the console's digits (Persian digits in Persian), character for character, so what is typed stays where it was.
 */
export function NumeralInput(props: TextInputProps) {
  const digits = useLocalDigits();
  const shown = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? digits(String(value)) : '');
  return <TextInput parse={typedNumeral} format={shown} {...props} />;
}
