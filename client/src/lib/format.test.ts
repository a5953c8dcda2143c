import { formatAmount, formatCountdown, formatDate, formatDateTime, formatNumber } from './format';

describe('numbers, amounts, dates and countdowns in the player language', () => {
  it('writes amounts with thousands separators, in Persian digits in Persian', () => {
    expect(formatAmount('1000000', 'en')).toBe('1,000,000');
    expect(formatAmount('61728.39', 'en')).toBe('61,728.39');
    expect(formatAmount('1250.5', 'fa')).toBe('۱٬۲۵۰٫۵');
    expect(formatAmount('0', 'fa')).toBe('۰');
  });

  it('keeps every digit of an amount a float could not hold', () => {
    // 9,007,199,254.740993 has more significant digits than a double keeps
    expect(formatAmount('9007199254.740993', 'en')).toBe('9,007,199,254.740993');
    expect(formatAmount('123456789012.000001', 'fa')).toBe('۱۲۳٬۴۵۶٬۷۸۹٬۰۱۲٫۰۰۰۰۰۱');
  });

  it('keeps the sign of a credit or a debit, and leaves what is not an amount as it is', () => {
    expect(formatAmount('-1500', 'en')).toBe('-1,500');
    expect(formatAmount('+2.5', 'en')).toBe('+2.5');
    expect(formatAmount('-1500', 'fa')).toMatch(/^.۱٬۵۰۰$/);
    expect(formatAmount('', 'en')).toBe('');
    expect(formatAmount('n/a', 'fa')).toBe('n/a');
  });

  it('writes counts in the language', () => {
    expect(formatNumber(12408, 'en')).toBe('12,408');
    expect(formatNumber(12408, 'fa')).toBe('۱۲٬۴۰۸');
  });

  it('writes dates with the month named, and in the Persian calendar in Persian', () => {
    const at = new Date('2026-11-17T12:00:00Z');
    expect(formatDate(at, 'en')).toBe('Nov 17, 2026');
    // 17 November 2026 is 26 Aban 1405
    expect(formatDate(at, 'fa')).toBe('۲۶ آبان ۱۴۰۵');
    expect(formatDateTime(at, 'en')).toMatch(/^Nov 17, 2026, \d{1,2}:\d{2}\s(AM|PM)$/);
    expect(formatDateTime(at, 'fa')).toMatch(/^۲۶ آبان ۱۴۰۵/);
  });

  it('counts down in the language: days, then a clock', () => {
    const ms = ((3 * 24 + 4) * 3600 + 5 * 60 + 6) * 1000;
    expect(formatCountdown(ms, 'en')).toBe('3d 04:05:06');
    expect(formatCountdown(ms, 'fa')).toBe('۳ روز ۰۴:۰۵:۰۶');
    expect(formatCountdown(65_000, 'en')).toBe('01:05');
    expect(formatCountdown(-5000, 'fa')).toBe('۰۰:۰۰');
  });
});
