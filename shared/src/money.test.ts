import { fitsDecimals, fromMicros, percentOf, toMicros } from './money';

describe('money', () => {
  it('parses decimal strings into exact micro-units', () => {
    expect(toMicros('0.1') + toMicros('0.2')).toBe(toMicros('0.3'));
    expect(toMicros('12')).toBe(12_000_000n);
    expect(toMicros('0.000001')).toBe(1n);
  });
  it('formats micro-units back without trailing zeros', () => {
    expect(fromMicros(12_500_000n)).toBe('12.5');
    expect(fromMicros(-1n)).toBe('-0.000001');
    expect(fromMicros(0)).toBe('0');
  });
  it('refuses malformed, negative, over-precise and oversized amounts', () => {
    for (const bad of ['', '-1', '1.0000001', '1e3', 'abc', '1.', '.5', '999999999999.1']) {
      expect(() => toMicros(bad)).toThrow(RangeError);
    }
  });
  it('computes percentages exactly, rounding down to a micro-unit', () => {
    expect(fromMicros(percentOf(toMicros('100'), '12.5'))).toBe('12.5');
    expect(fromMicros(percentOf(toMicros('0.000003'), '50'))).toBe('0.000001');
  });
  it('checks a coin decimal count', () => {
    expect(fitsDecimals('1.25', 2)).toBe(true);
    expect(fitsDecimals('1.255', 2)).toBe(false);
    expect(fitsDecimals('7', 0)).toBe(true);
  });
});
