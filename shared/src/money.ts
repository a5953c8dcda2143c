/**
 * Coins are money: amounts travel as decimal strings and are stored as integer
 * micro-units (10^-6 of a coin) so that no binary floating point ever touches them.
 */
export const MONEY_DECIMALS = 6;
export const MONEY_SCALE = 10n ** BigInt(MONEY_DECIMALS);
/** Largest amount (in micro-units) the database can hold exactly as a number. */
export const MAX_MICROS = BigInt(Number.MAX_SAFE_INTEGER);

export const AMOUNT_PATTERN = /^\d{1,12}(\.\d{1,6})?$/;

/** Parses a non-negative decimal string ("12.5") into micro-units; throws on anything else. */
export function toMicros(amount: string): bigint {
  if (!AMOUNT_PATTERN.test(amount)) throw new RangeError(`Invalid amount: ${amount}`);
  const [whole = '0', fraction = ''] = amount.split('.');
  const micros = BigInt(whole) * MONEY_SCALE + BigInt(fraction.padEnd(MONEY_DECIMALS, '0'));
  if (micros > MAX_MICROS) throw new RangeError(`Amount too large: ${amount}`);
  return micros;
}

/** Formats micro-units as the shortest exact decimal string ("-1.5", "0", "12.000001"). */
export function fromMicros(micros: bigint | number): string {
  const value = typeof micros === 'number' ? BigInt(micros) : micros;
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / MONEY_SCALE;
  const fraction = (abs % MONEY_SCALE).toString().padStart(MONEY_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Micro-units as a number the database stores exactly; refuses values it could not. */
export function microsToStored(micros: bigint): number {
  if (micros > MAX_MICROS || micros < -MAX_MICROS) throw new RangeError('Amount out of range');
  return Number(micros);
}

/** amount * percent / 100, rounded down to a micro-unit. Percent is a decimal string like "12.5". */
export function percentOf(micros: bigint, percent: string): bigint {
  return (micros * toMicros(percent)) / (100n * MONEY_SCALE);
}

/** Number of decimals a coin allows is at most MONEY_DECIMALS; checks an amount respects it. */
export function fitsDecimals(amount: string, decimals: number): boolean {
  const fraction = amount.split('.')[1] ?? '';
  return fraction.length <= Math.min(decimals, MONEY_DECIMALS);
}
