import { AMOUNT_PATTERN, MONEY_DECIMALS } from '@gift/shared/money';

/** Why typed text is not an amount at all: a thousands separator, more decimals than money keeps, or no number. */
type AmountTypo = 'separator' | 'decimals' | 'notNumber';

/** The typo in an amount as `typedAmount` reads it (ASCII digits, a decimal point); null when it is one or is empty. */
export function amountTypo(amount: string): AmountTypo | null {
  // a decimal point still waiting for its digits is not a typo yet
  if (amount === '' || AMOUNT_PATTERN.test(amount) || /^\d{1,12}\.$/.test(amount)) return null;
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(amount)) return 'separator';
  if (new RegExp(`^\\d{1,12}\\.\\d{${MONEY_DECIMALS + 1},}$`).test(amount)) return 'decimals';
  return 'notNumber';
}
