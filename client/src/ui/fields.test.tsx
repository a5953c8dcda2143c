import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { translate } from '../lib/translator';
import { MONEY_DECIMALS } from '@gift/shared/money';
import { typedAmount } from '@gift/shared/numerals';
import { amountTypo } from '../lib/amountTypo';
import { initI18n } from '../lib/i18n';
import { AmountField, TextField } from './fields';
import { ProofField } from './ProofField';

beforeAll(() => initI18n());

it('binds the label to its input, and reads the hint and the error with it', () => {
  const { rerender } = render(<TextField label="Username" hint="As Telegram spells it" value="" onChange={() => {}} />);
  const input = screen.getByLabelText('Username');
  expect(input).toHaveAccessibleDescription('As Telegram spells it');
  expect(input).not.toHaveAttribute('aria-invalid');

  rerender(<TextField label="Username" hint="As Telegram spells it" error="Not a username" value="" onChange={() => {}} />);
  expect(input).toHaveAccessibleDescription('As Telegram spells it Not a username');
  expect(input).toHaveAttribute('aria-invalid', 'true');
  expect(screen.getByRole('alert')).toHaveTextContent('Not a username');
});

it('fills an amount field with what Max gives, and marks a refused amount', async () => {
  function Form() {
    const [typed, setTyped] = useState('');
    return (
      <AmountField
        label="Amount"
        error={typed === '0' ? 'Enter more than 0' : undefined}
        value={typed}
        onChange={setTyped}
        maxLabel="Max"
        onMax={() => setTyped('12.5')}
      />
    );
  }
  render(<Form />);
  const amount = screen.getByRole('textbox', { name: 'Amount' });
  await userEvent.click(screen.getByRole('button', { name: 'Max' }));
  expect(amount).toHaveValue('12.5');
  await userEvent.clear(amount);
  await userEvent.type(amount, '0');
  expect(amount).toHaveAccessibleDescription('Enter more than 0');
  expect(amount).toBeInvalid();
});

it('says why a proof link is refused once the player leaves it, and no more once it is a web address', async () => {
  function Link() {
    const [link, setLink] = useState('');
    return <ProofField kind="link" value={link} onChange={setLink} onUploading={() => {}} />;
  }
  render(<Link />);
  const link = screen.getByLabelText('Link to your post');
  await userEvent.type(link, 't.me/s/story/1');
  expect(screen.queryByRole('alert')).toBeNull();
  await userEvent.tab();
  expect(screen.getByRole('alert')).toHaveTextContent('starting with https://');
  expect(link).toHaveAttribute('aria-invalid', 'true');

  await userEvent.clear(link);
  await userEvent.type(link, 'https://t.me/s/story/1');
  expect(screen.queryByRole('alert')).toBeNull();
});

it.each([
  ['1,000', 'Write the amount without thousands separators, like 1000'],
  ['100.1234567890', 'An amount has at most 6 decimals'],
  ['abc', 'Enter the amount as a number, like 12.5'],
])('says what is wrong with %s as an amount', (typed, said) => {
  const typo = amountTypo(typedAmount(typed));
  expect(typo && translate(`common.amountTypos.${typo}`, { decimals: MONEY_DECIMALS })).toBe(said);
});

it('takes a well-formed amount, and one still being typed, as no typo', () => {
  expect(['12.5', '1000', '12.', '', '۱۲٫۵'].map((typed) => amountTypo(typedAmount(typed)))).toEqual([null, null, null, null, null]);
});
