import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REMINDER_KINDS } from '@gift/shared/constants';
import { Refusal, type OutputOf } from '../../../../test/fakeTrpcServer';
import { renderApp, renderAppInPersian, signedInPlayer } from '../../../../test/renderApp';
import { initI18n, setLanguage } from '../../../lib/i18n';

beforeAll(() => initI18n());
afterEach(() => setLanguage('en'));

type Reminders = OutputOf<'user.reminders'>;

/** A server keeping the player's switches as the real one does: each kind on until switched off. */
function remindersServer(messagePermission = true, refuse = false) {
  let reminders: Reminders = { messagePermission, kinds: REMINDER_KINDS.map((kind) => ({ kind, on: true })) };
  return {
    ...signedInPlayer,
    'user.reminders': () => reminders,
    'user.switchReminder': ({ kind, on }: { kind: (typeof REMINDER_KINDS)[number]; on: boolean }) => {
      if (refuse) throw new Refusal('TOO_MANY_REQUESTS', 400, 'Too many requests');
      reminders = { ...reminders, kinds: reminders.kinds.map((k) => (k.kind === kind ? { kind, on } : k)) };
      return reminders;
    },
  };
}

it('shows a switch per kind of reminder, on by default, and switches one off and on again on the server', async () => {
  const server = renderApp('/profile/settings', remindersServer());
  const mining = await screen.findByRole('switch', { name: 'Mining finished' });
  expect(screen.getAllByRole('switch').map((s) => [s.closest('label')!.textContent, (s as HTMLInputElement).checked])).toEqual([
    ['Mining finished', true],
    ['Streak about to break', true],
    ['Stake unlocked', true],
    ['League prize won', true],
    ['Withdrawal paid', true],
  ]);
  expect(screen.queryByText(/cannot write to you/)).not.toBeInTheDocument();

  await userEvent.click(mining);
  expect(mining).not.toBeChecked();
  await waitFor(() =>
    expect(server.calls.filter((c) => c.path === 'user.switchReminder').map((c) => c.input)).toEqual([{ kind: 'mining-ready', on: false }]),
  );
  expect(screen.getByRole('switch', { name: 'Stake unlocked' })).toBeChecked();

  await userEvent.click(mining);
  await waitFor(() => expect(server.calls.filter((c) => c.path === 'user.switchReminder')).toHaveLength(2));
  expect(mining).toBeChecked();
});

it('puts a switch back, with a message, when the server refuses the change', async () => {
  renderApp('/profile/settings', remindersServer(true, true));
  const streak = await screen.findByRole('switch', { name: 'Streak about to break' });
  await userEvent.click(streak);
  expect(await screen.findByText('Save failed')).toBeInTheDocument();
  await waitFor(() => expect(streak).toBeChecked());
});

it('reads in Persian, and says why nothing arrives while the bot may not write to the player', async () => {
  await renderAppInPersian('/profile/settings', remindersServer(false));
  expect(await screen.findByText('یادآوری‌های ربات')).toBeInTheDocument();
  expect(screen.getAllByRole('switch').map((s) => s.closest('label')!.textContent)).toEqual([
    'پایان استخراج',
    'زنجیره در خطر قطع شدن',
    'آزاد شدن استیک',
    'بردن جایزهٔ لیگ',
    'پرداخت برداشت',
  ]);
  expect(screen.getByText(/ربات هنوز نمی‌تواند به شما پیام بدهد/)).toBeInTheDocument();
});
