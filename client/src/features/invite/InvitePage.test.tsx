import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Refusal, type Handlers } from '../../../test/fakeTrpcServer';
import { DEMO_PLAYER, renderApp, signedInPlayer, renderAppInPersian } from '../../../test/renderApp';
import { launchInTelegram } from '../../../test/telegramLaunch';
import { initI18n, setLanguage } from '../../lib/i18n';
import { recordWindowOpen } from '../../../test/windowOpen';

const LINK = 'https://t.me/GiftRewardsBot/app?startapp=DEMO42';
const SUMMARY = {
  code: 'DEMO42',
  inviteLink: LINK,
  botLink: 'https://t.me/GiftRewardsBot?start=DEMO42',
  shareUrl: `https://t.me/share/url?url=${encodeURIComponent(LINK)}&text=Join%20me`,
  shareText: 'Join me',
  invitedCount: 4,
  inviteLimit: 100,
  friendsCount: 25,
  qualifiedCount: 0,
  qualification: { doneMissions: 0, activeDays: 0, premiumRewardPercent: 100 },
  reward: { amount: '50', symbol: 'GIFT' },
};
const friends = (page: number) => {
  const all = Array.from({ length: 25 }, (_, i) => ({
    name: `Friend ${i + 1}`,
    username: `friend_${i + 1}`,
    joinedAt: new Date('2026-11-01'),
  }));
  return { items: all.slice((page - 1) * 20, page * 20), total: all.length, page, pageSize: 20 };
};
const invite: Handlers = {
  ...signedInPlayer,
  'referrals.summary': () => SUMMARY,
  'referrals.friends': (input) => friends(input?.page ?? 1),
};

beforeAll(() => initI18n());
afterEach(() => {
  jest.useRealTimers();
  void setLanguage('en');
});

it('is in the navigation under its spec label, and shows the link, the reward per friend and the invite limit used', async () => {
  renderApp('/invite', invite);
  expect(await screen.findByText(LINK)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Invite a friend' })).toHaveAttribute('aria-current', 'page');
  expect(screen.getByText('Share your link. You get 50 GIFT for every friend who joins.')).toBeInTheDocument();
  expect(screen.getByText('Reward per friend').previousSibling).toHaveTextContent('50 GIFT');
  expect(screen.getByTestId('invite-limit')).toHaveTextContent('4 / 100');
});

it('shows friends who joined apart from those who qualified, and what a friend must do', async () => {
  const qualifying: Handlers = {
    ...invite,
    'referrals.summary': () => ({
      ...SUMMARY,
      qualifiedCount: 9,
      qualification: { doneMissions: 3, activeDays: 0, premiumRewardPercent: 200 },
    }),
  };
  renderApp('/invite', qualifying);
  expect(await screen.findByTestId('invite-joined')).toHaveTextContent('25');
  expect(screen.getByTestId('invite-qualified')).toHaveTextContent('9');
  expect(screen.getByText('Friends qualified')).toBeInTheDocument();
  expect(
    screen.getByText('A friend earns you the reward once they finish 3 missions. Telegram Premium friends earn you 200% of it.'),
  ).toBeInTheDocument();
});

it('says what a friend must do in Persian, with Persian digits', async () => {
  await renderAppInPersian('/invite', {
    ...invite,
    'referrals.summary': () => ({
      ...SUMMARY,
      qualifiedCount: 9,
      qualification: { doneMissions: 0, activeDays: 7, premiumRewardPercent: 100 },
    }),
  });
  expect(await screen.findByText('دوست شما وقتی ۷ روز پس از پیوستن هنوز بازی کند، پاداش را برای شما می‌آورد.')).toBeInTheDocument();
  expect(screen.getByTestId('invite-qualified')).toHaveTextContent('۹');
  await setLanguage('en');
});

it("shares through Telegram's share link with the referrer message", async () => {
  const opened = recordWindowOpen();
  renderApp('/invite', invite);
  await userEvent.click(await screen.findByRole('button', { name: 'Share in Telegram' }));
  expect(opened).toEqual([SUMMARY.shareUrl]);
});

it("copies through the hidden text area when the clipboard API is missing, and says 'Link Copied' for 1.5 s", async () => {
  const copied: string[] = [];
  Object.assign(document, {
    execCommand: (command: string) => {
      if (command !== 'copy') return false;
      copied.push(document.querySelector('textarea')!.value);
      return true;
    },
  });
  Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
  renderApp('/invite', invite);
  await screen.findByText(LINK);
  jest.useFakeTimers();
  await act(async () => screen.getByRole('button', { name: 'Copy link' }).click());
  expect(copied).toEqual([LINK]);
  expect(screen.getByRole('button', { name: 'Link Copied' })).toBeInTheDocument();
  expect(document.querySelector('textarea')).toBeNull();
  act(() => jest.advanceTimersByTime(1499));
  expect(screen.getByRole('button', { name: 'Link Copied' })).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(1));
  expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
});

it('lists the friends, 20 a page', async () => {
  renderApp('/invite', invite);
  expect(await screen.findByRole('heading', { name: 'Friends (25)' })).toBeInTheDocument();
  const list = () => screen.getAllByText(/^Friend \d+$/).map((el) => el.textContent);
  expect(list()).toHaveLength(20);
  expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
  expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
  expect(list()).toEqual(['Friend 21', 'Friend 22', 'Friend 23', 'Friend 24', 'Friend 25']);
  expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
});

it('says when no friend joined yet', async () => {
  renderApp('/invite', { ...invite, 'referrals.friends': () => ({ items: [], total: 0, page: 1, pageSize: 20 }) });
  expect(await screen.findByText('No friends yet. Share your link!')).toBeInTheDocument();
});

it('says when invites are not set up yet', async () => {
  renderApp('/invite', {
    ...invite,
    'referrals.summary': () => {
      throw new Refusal('NOT_CONFIGURED', 400, 'This feature is not configured yet');
    },
  });
  expect(await screen.findByRole('alert')).toHaveTextContent('This feature is not configured yet');
});

describe('a story, inside a Telegram that can post one (7.8 and later)', () => {
  it("opens the story editor with the app's picture and the invite link in the caption", async () => {
    const telegram = launchInTelegram({ version: '7.8' });
    try {
      renderApp('/invite', invite);
      await userEvent.click(await screen.findByRole('button', { name: 'Share to story' }));
      expect(telegram.postedOf('web_app_share_to_story')).toEqual([
        {
          type: 'web_app_share_to_story',
          data: { media_url: `${window.location.origin}/icon-512.png`, text: `${LINK}\nJoin me` },
        },
      ]);
    } finally {
      telegram.end();
    }
  });

  it('adds the link widget for a Premium player, whom Telegram lets post one', async () => {
    const telegram = launchInTelegram({ version: '8.0' });
    try {
      renderApp('/invite', { ...invite, 'user.me': () => ({ ...DEMO_PLAYER, isPremium: true }) });
      await userEvent.click(await screen.findByRole('button', { name: 'Share to story' }));
      expect(telegram.postedOf('web_app_share_to_story')[0]?.data).toMatchObject({ widget_link: { url: LINK, name: 'Join me' } });
    } finally {
      telegram.end();
    }
  });

  it('is not offered by an older Telegram, nor outside Telegram', async () => {
    renderApp('/invite', invite);
    expect(await screen.findByText(LINK)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Share to story' })).not.toBeInTheDocument();
    const telegram = launchInTelegram({ version: '7.7' });
    try {
      renderApp('/invite', invite);
      expect((await screen.findAllByText(LINK)).length).toBeGreaterThan(0);
      expect(screen.queryByRole('button', { name: 'Share to story' })).not.toBeInTheDocument();
    } finally {
      telegram.end();
    }
  });
});

describe("sharing the bot's prepared invite, inside Telegram 8.0 and later", () => {
  let opened: string[] = [];
  beforeEach(() => {
    opened = recordWindowOpen();
  });

  it("opens Telegram's chat picker on the prepared message; closing it sends nothing else", async () => {
    const telegram = launchInTelegram({ version: '8.0' });
    try {
      const server = renderApp('/invite', { ...invite, 'referrals.prepareShare': () => ({ id: 'prepared-7' }) });
      const share = await screen.findByRole('button', { name: 'Share in Telegram' });
      await userEvent.click(share);
      await waitFor(() =>
        expect(telegram.postedOf('web_app_send_prepared_message')).toEqual([
          { type: 'web_app_send_prepared_message', data: { id: 'prepared-7' } },
        ]),
      );
      act(() => telegram.event('prepared_message_sent'));
      await waitFor(() => expect(telegram.postedOf('web_app_trigger_haptic_feedback')).toHaveLength(1));

      await userEvent.click(share);
      await waitFor(() => expect(telegram.postedOf('web_app_send_prepared_message')).toHaveLength(2));
      act(() => telegram.event('prepared_message_failed', { error: 'USER_DECLINED' }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(opened).toEqual([]);
      expect(telegram.postedOf('web_app_open_tg_link')).toEqual([]);
      expect(server.calls.filter((call) => call.path === 'referrals.prepareShare')).toHaveLength(2);
    } finally {
      telegram.end();
    }
  });

  it("falls back to Telegram's share link when the bot cannot prepare it, or Telegram cannot send it", async () => {
    const telegram = launchInTelegram({ version: '8.0' });
    try {
      let refuse = true;
      renderApp('/invite', {
        ...invite,
        'referrals.prepareShare': () => {
          if (refuse) throw new Refusal('UNAVAILABLE', 503, 'The service is briefly unavailable, try again in a few seconds');
          return { id: 'prepared-8' };
        },
      });
      const share = await screen.findByRole('button', { name: 'Share in Telegram' });
      await userEvent.click(share);
      const shareLink = {
        type: 'web_app_open_tg_link',
        data: { path_full: new URL(SUMMARY.shareUrl).pathname + new URL(SUMMARY.shareUrl).search },
      };
      await waitFor(() => expect(telegram.postedOf('web_app_open_tg_link')).toEqual([shareLink]));

      refuse = false;
      await userEvent.click(share);
      await waitFor(() => expect(telegram.postedOf('web_app_send_prepared_message')).toHaveLength(1));
      act(() => telegram.event('prepared_message_failed', { error: 'MESSAGE_EXPIRED' }));
      await waitFor(() => expect(telegram.postedOf('web_app_open_tg_link')).toEqual([shareLink, shareLink]));
    } finally {
      telegram.end();
    }
  });

  it('uses the share link on an older Telegram, without asking the bot', async () => {
    const telegram = launchInTelegram({ version: '7.10' });
    try {
      const server = renderApp('/invite', invite);
      await userEvent.click(await screen.findByRole('button', { name: 'Share in Telegram' }));
      await waitFor(() => expect(telegram.postedOf('web_app_open_tg_link')).toHaveLength(1));
      expect(server.calls.filter((call) => call.path === 'referrals.prepareShare')).toHaveLength(0);
    } finally {
      telegram.end();
    }
  });
});
