import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, type SentRequest } from '../../../test/renderScreen';

const CONFIG = {
  id: 'current',
  botUsername: 'GiftRewardsBot',
  timezone: 'UTC',
  streakMilestones: [],
  tonProofDomains: [],
  payoutWallets: [],
  rejectReasons: [{ id: '65f0a1b2c3d4e5f6a7b8c9d0', en: 'The screenshot does not show the channel', fa: 'تصویر کانال را نشان نمی‌دهد' }],
};

const routes = {
  'GET /app-config/current': CONFIG,
  'PUT /app-config/current': (request: SentRequest) => ({ ...CONFIG, ...(request.body as object) }),
};

it('keeps the reasons to reject a claim in English and Persian: a saved one keeps its id, a new one is sent without', async () => {
  const { sent, user } = renderScreen('/admin/app-config', { routes });
  const section = await screen.findByTestId('reject-reasons');
  expect(await within(section).findByDisplayValue('The screenshot does not show the channel')).toBeInTheDocument();
  await user.click(within(section).getByRole('button', { name: 'Add' }));
  const english = within(section).getAllByLabelText('English');
  const persian = within(section).getAllByLabelText('Persian');
  await user.type(english[1]!, 'The link is to another account');
  await user.type(persian[1]!, 'پیوند به حساب دیگری است');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(sent('PUT /app-config/current')).toHaveLength(1));
  expect((sent('PUT /app-config/current')[0]!.body as { rejectReasons: unknown }).rejectReasons).toEqual([
    CONFIG.rejectReasons[0],
    { en: 'The link is to another account', fa: 'پیوند به حساب دیگری است' },
  ]);
});

it('asks for the Persian before saving a reason', async () => {
  const { sent, user } = renderScreen('/admin/app-config', { routes });
  const section = await screen.findByTestId('reject-reasons');
  await within(section).findByDisplayValue('The screenshot does not show the channel');
  await user.click(within(section).getByRole('button', { name: 'Add' }));
  await user.type(within(section).getAllByLabelText('English')[1]!, 'Too late');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await within(section).findByText('This field is required')).toBeInTheDocument();
  expect(sent('PUT /app-config/current')).toHaveLength(0);
});
