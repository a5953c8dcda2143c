import { AMOUNT_PATTERN } from './money';
import { asciiDigits, typedAmount } from './numerals';

describe('numbers as players type them', () => {
  it('reads Persian and Arabic-Indic digits as the digits they are', () => {
    expect(asciiDigits('۱۲۳۴۵۶')).toBe('123456');
    expect(asciiDigits('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789');
    expect(asciiDigits('code ۰۹')).toBe('code 09');
  });

  it('reads a Persian amount, with its decimal separator, as the amount the schemas accept', () => {
    expect(typedAmount('۱۰۰')).toBe('100');
    expect(typedAmount('۱۲٫۵')).toBe('12.5');
    expect(typedAmount('٢٥٠٫٧٥')).toBe('250.75');
    expect(AMOUNT_PATTERN.test(typedAmount('۱۲٫۵'))).toBe(true);
  });

  it('reads a lone decimal comma as a point, but never a thousands comma as one', () => {
    expect(typedAmount('12,5')).toBe('12.5');
    expect(typedAmount('0,25')).toBe('0.25');
    expect(typedAmount('12،5')).toBe('12.5');
    // "1,000" could mean a thousand: left as typed, so the field refuses it instead of staking 1
    expect(typedAmount('1,000')).toBe('1,000');
    expect(AMOUNT_PATTERN.test(typedAmount('1,000'))).toBe(false);
    expect(typedAmount('1,000.5')).toBe('1,000.5');
  });

  it('drops spaces, direction marks and Arabic thousands separators around the digits', () => {
    expect(typedAmount(' ۱٬۰۰۰ ')).toBe('1000');
    expect(typedAmount('\u200e250\u200f')).toBe('250');
  });

  it('leaves ASCII amounts as they are', () => {
    expect(typedAmount('1250.5')).toBe('1250.5');
    expect(typedAmount('abc')).toBe('abc');
  });
});
