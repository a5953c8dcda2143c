import { screen, waitFor } from '@testing-library/react';
import type { AlertSettingsRecord } from '@gift/server';
import { renderScreen, type SentRequest } from '../../../test/renderScreen';

const LINK = 'https://t.me/GiftRewardsBot?start=op-AbCdEfGhIjKlMnOpQrStUv';

/** The operator's alerts on a fake server: not linked until the test says the bot linked the chat. */
function alertsServer(available: AlertSettingsRecord['available']) {
  let settings: AlertSettingsRecord = { id: 'me', linked: false, linkedAt: null, language: 'en', kinds: [...available], available };
  return {
    link: () => (settings = { ...settings, linked: true, linkedAt: new Date('2026-03-01T10:00:00Z') }),
    routes: {
      'GET /alerts/me': () => settings,
      'PUT /alerts/me': ({ body }: SentRequest) => (settings = { ...settings, ...(body as Partial<AlertSettingsRecord>) }),
      'POST /alerts/me/link': { id: 'link', url: LINK, expiresAt: '2026-03-01T10:10:00Z' },
      'DELETE /alerts/me/link': () => (settings = { ...settings, linked: false, linkedAt: null }),
    },
  };
}

it('links Telegram through the one-time link, notices the chat once linked, and unlinks', async () => {
  const server = alertsServer(['claims', 'hot-wallet']);
  const { user, sent } = renderScreen('/admin/account', { routes: server.routes });
  expect(await screen.findByText('Not linked: the bot tells you nothing.')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Link Telegram' }));
  await waitFor(() => expect(sent('POST /alerts/me/link')[0]?.body).toEqual({ language: 'en' }));
  expect(await screen.findByRole('link', { name: 'Open the bot' })).toHaveAttribute('href', LINK);
  expect(screen.getByTestId('alerts-link')).toHaveTextContent(LINK);

  // the operator presses Start in the bot: the page finds the chat linked on its next look
  server.link();
  expect(await screen.findByTestId('alerts-linked', {}, { timeout: 10_000 })).toHaveTextContent(/^Linked: the bot writes to your Telegram/);
  expect(screen.queryByTestId('alerts-link')).not.toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: 'Unlink' }));
  expect(await screen.findByText('Not linked: the bot tells you nothing.')).toBeInTheDocument();
  expect(sent('DELETE /alerts/me/link')).toHaveLength(1);
});

it('offers a switch for each alert the permissions allow, and saves the choice', async () => {
  const { user, sent } = renderScreen('/admin/account', { routes: alertsServer(['claims', 'hot-wallet']).routes });
  const claims = await screen.findByRole('switch', { name: 'New Manual claims waiting review (one summary every 5 minutes)' });
  expect(claims).toBeChecked();
  // kinds the permissions do not cover are not offered
  expect(screen.queryByRole('switch', { name: 'Gifts, access or brake changes waiting for your approval' })).not.toBeInTheDocument();
  await user.click(claims);
  await waitFor(() => expect(sent('PUT /alerts/me')[0]?.body).toEqual({ kinds: ['hot-wallet'], language: 'en' }));
  await waitFor(() => expect(screen.getByRole('switch', { name: /^New Manual claims/ })).not.toBeChecked());
});

it('speaks Persian', async () => {
  renderScreen('/admin/account', { routes: alertsServer(['approvals']).routes, locale: 'fa' });
  expect(await screen.findByText('پیوند نشده: ربات چیزی به شما نمی‌گوید.')).toBeInTheDocument();
  expect(screen.getByRole('switch', { name: 'هدیه‌ها، دسترسی‌ها یا تغییرهای ترمز منتظر تأیید شما' })).toBeChecked();
});
