import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Refusal, type Handlers } from '../../../test/fakeTrpcServer';
import { DEMO_PLAYER, renderApp, signedInPlayer } from '../../../test/renderApp';
import { launchInTelegram } from '../../../test/telegramLaunch';
import { initI18n, setLanguage } from '../../lib/i18n';

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
  await setLanguage('fa');
  renderApp('/invite', {
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
  const opened: string[] = [];
  window.open = ((url: string) => {
    opened.push(url);
    return null;
  }) as typeof window.open;
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
  expect(await within(await screen.findByRole('main')).findByRole('alert')).toHaveTextContent('This feature is not configured yet');
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
