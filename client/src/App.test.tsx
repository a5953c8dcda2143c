import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Refusal } from '../test/fakeTrpcServer';
import { DEMO_PLAYER, renderApp, signedInPlayer, renderAppInPersian } from '../test/renderApp';
import { initI18n, setLanguage } from './lib/i18n';
import { PLAYER_TOKEN_KEY } from './lib/trpc';
import { launchInTelegram } from '../test/telegramLaunch';
import { CURRENCY } from '../test/fixtures';

beforeAll(() => initI18n());
afterEach(() => setLanguage('en'));

it('opens on the tasks: ⭐ missions first, categories with progress, the five tabs, and the demo player clearly marked', async () => {
  renderApp('/', signedInPlayer);
  expect(await screen.findByText('Get started')).toBeInTheDocument();
  expect(screen.getByText('1 / 3 done')).toBeInTheDocument();
  const star = screen.getByText('Read how Gift Rewards works');
  expect(star.compareDocumentPosition(screen.getByText('Get started')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expect(star.closest('a')).toHaveAttribute('href', '/tasks/65f0000000000000000000a1');
  expect(screen.getByText('Get started').closest('a')).toHaveAttribute('href', '/65f0000000000000000000c1');
  // the categories' own page is one tap away
  expect(screen.getByRole('link', { name: 'See all' })).toHaveAttribute('href', '/categories');
  expect(screen.getByText('Demo player')).toBeInTheDocument();
  const tabs = within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link');
  expect(tabs.map((tab) => tab.textContent)).toEqual(['Tasks', 'Staking', 'Invite a friend', 'Currency', 'Profile']);
  expect(tabs[0]).toHaveAttribute('aria-current', 'page');
});

it("shows the player's name and figures on the profile", async () => {
  renderApp('/profile', signedInPlayer);
  expect(await screen.findByTestId('player-name')).toHaveTextContent('Demo Player');
  expect(screen.getByText('@demo_player')).toBeInTheDocument();
  expect(screen.getByText('Done missions').previousSibling).toHaveTextContent('7');
  expect(screen.getByText('Referrers').previousSibling).toHaveTextContent('4');
  expect(screen.getByText('Earned').previousSibling).toHaveTextContent('250.5');
});

it('switching to Persian in settings turns the app right-to-left and keeps the choice on the account', async () => {
  const server = renderApp('/profile/settings', signedInPlayer);
  await userEvent.click(await screen.findByRole('button', { name: 'فارسی' }));

  expect(document.documentElement.dir).toBe('rtl');
  const tabs = within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link');
  expect(tabs.map((tab) => tab.textContent)).toEqual(['ماموریت‌ها', 'استیکینگ', 'دعوت از دوستان', 'ارزها', 'پروفایل']);
  expect(await screen.findByText('ذخیره شد')).toBeInTheDocument();
  expect(server.calls.find((call) => call.path === 'user.updateSettings')?.input).toEqual({ language: 'fa' });
});

it('lists every coin with its balance and USD value on Currency', async () => {
  renderApp('/currency', signedInPlayer);
  expect(await screen.findByText('Toncoin')).toBeInTheDocument();
  expect(screen.getByText('2 TON')).toBeInTheDocument();
  expect(screen.getByText('$6.50')).toBeInTheDocument();
  expect(screen.getByText('Star Points').closest('li')).toHaveTextContent('—');
  expect(screen.queryByTestId('in-stakes')).not.toBeInTheDocument();
});

it('says on Currency what is locked in stakes and the total, valued whole, in Persian digits too', async () => {
  const staked = [{ ...CURRENCY[0]!, balance: '2', staked: '1500.25', total: '1502.25', value: '4882.31' }];
  renderApp('/currency', { ...signedInPlayer, 'home.currency': () => staked });
  expect(await screen.findByTestId('in-stakes')).toHaveTextContent('1,500.25 TON in stakes · total 1,502.25 TON');
  expect(screen.getByText('$4,882.31')).toBeInTheDocument();
  await act(() => setLanguage('fa'));
  // the amounts sit in left-to-right isolates inside the Persian sentence
  const persian = () => screen.getByTestId('in-stakes').textContent?.replace(/[\u2066-\u2069]/g, '');
  await waitFor(() => expect(persian()).toBe('۱٬۵۰۰٫۲۵ TON در استیک، مجموع ۱٬۵۰۲٫۲۵ TON'));
});

it("shows 'Page Not Found' on an unknown address", async () => {
  renderApp('/no/such/page', signedInPlayer);
  expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
});

it("writes the not-found page's 404 in the player's digits", async () => {
  await renderAppInPersian('/no/such/page', signedInPlayer);
  expect(await screen.findByText('۴۰۴')).toBeInTheDocument();
});

it('a one-segment address that is no category id is no page, not a missing category', async () => {
  renderApp('/wallet', signedInPlayer);
  expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
  expect(screen.getByText('There is nothing at this address.')).toBeInTheDocument();
  expect(screen.queryByText('This category does not exist or is closed.')).not.toBeInTheDocument();
});

describe('outside Telegram without a session', () => {
  it('signs in with a Telegram username and the code the bot sent, then opens the app', async () => {
    let token: string | null = null;
    const server = renderApp('/', {
      ...signedInPlayer,
      'user.me': () => {
        if (!token) throw new Refusal('UNAUTHORIZED', 401, 'Please sign in again');
        return { ...DEMO_PLAYER, isDemo: false, name: 'Sara' };
      },
      'auth.signInSettings': () => ({ openInTelegram: 'https://t.me/GiftRewardsBot/app' }),
      'auth.requestLoginCode': () => ({ expiresInSeconds: 300, resendInSeconds: 60, requestId: 'Zq3xK9mB2vT7wL1nR5cY8A' }),
      'auth.verifyLoginCode': (input) => {
        if (input.requestId !== 'Zq3xK9mB2vT7wL1nR5cY8A' || input.code !== '123456')
          throw new Refusal('INCORRECT_CODE', 400, 'Incorrect code');
        token = 'player.token';
        return { token };
      },
    });

    // the page names the app, opens it in Telegram and offers its languages
    expect(await screen.findByText('Gift Rewards')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Open in Telegram' })).toHaveAttribute('href', 'https://t.me/GiftRewardsBot/app');
    expect(screen.getByRole('button', { name: 'فارسی' })).toHaveAttribute('aria-pressed', 'false');

    await userEvent.type(await screen.findByLabelText('Telegram username'), '@sara_k');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    // the server answers alike whether a code went out or not: the page says what is true either way
    expect(
      await screen.findByText('If @sara_k has started our bot in Telegram, a code is on its way there. It works for 5 minutes.'),
    ).toBeInTheDocument();
    expect(server.calls.find((call) => call.path === 'auth.requestLoginCode')?.input).toEqual({ username: 'sara_k' });
    // another code only after the resend wait, counted down
    expect(screen.getByRole('timer')).toHaveTextContent(/^You can ask for another code in (01:00|00:5\d)\.$/);
    expect(screen.queryByRole('button', { name: 'Send another code' })).not.toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect code');

    // a Persian keypad types Persian digits: the field reads them as the code
    await userEvent.clear(screen.getByLabelText('Code'));
    await userEvent.type(screen.getByLabelText('Code'), '۱۲۳۴۵۶');
    expect(screen.getByLabelText('Code')).toHaveValue('123456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Hi, Sara')).toBeInTheDocument();
    expect(localStorage.getItem(PLAYER_TOKEN_KEY)).toBe('player.token');
    expect(server.calls.at(-1)?.authorization).toBe('Bearer player.token');
  });

  it('offers another code when the resend wait is over, and switches the page to Persian', async () => {
    const server = renderApp('/', {
      'user.me': () => {
        throw new Refusal('UNAUTHORIZED', 401);
      },
      'auth.requestLoginCode': () => ({ expiresInSeconds: 300, resendInSeconds: 0, requestId: 'Zq3xK9mB2vT7wL1nR5cY8A' }),
    });
    await userEvent.type(await screen.findByLabelText('Telegram username'), 'sara_k');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Send another code' }));
    await waitFor(() => expect(server.calls.filter((call) => call.path === 'auth.requestLoginCode')).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'فارسی' }));
    expect(await screen.findByRole('button', { name: 'ورود' })).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
  });

  it('refuses a username Telegram would not accept before asking the server', async () => {
    const server = renderApp('/', {
      'user.me': () => {
        throw new Refusal('UNAUTHORIZED', 401);
      },
    });
    await userEvent.type(await screen.findByLabelText('Telegram username'), 'ab');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter your Telegram username');
    expect(server.calls.some((call) => call.path === 'auth.requestLoginCode')).toBe(false);
  });
});

it('signs out of the web app on every device from the profile, and shows the sign-in again', async () => {
  localStorage.setItem(PLAYER_TOKEN_KEY, 'player.token');
  let signedOut = false;
  const server = renderApp('/profile', {
    ...signedInPlayer,
    'user.me': () => {
      if (signedOut) throw new Refusal('UNAUTHORIZED', 401, 'Please sign in again');
      return { ...DEMO_PLAYER, isDemo: false, name: 'Sara' };
    },
    'auth.signOutEverywhere': () => {
      signedOut = true;
      return { signedOut: true as const };
    },
  });
  await userEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
  expect(await screen.findByRole('button', { name: 'Send code' })).toBeInTheDocument();
  const call = server.calls.find((c) => c.path === 'auth.signOutEverywhere');
  expect(call?.authorization).toBe('Bearer player.token');
  expect(localStorage.getItem(PLAYER_TOKEN_KEY)).toBeNull();
});

const WAYS_OUT = ['web_app_open_tg_link', 'web_app_close'];

describe('inside Telegram, a launch the server no longer accepts', () => {
  let telegram: ReturnType<typeof launchInTelegram>;
  beforeEach(() => {
    telegram = launchInTelegram({ version: '7.0', initData: 'auth_date=1700000000&hash=stale' });
  });
  afterEach(() => telegram.end());

  it('offers to open the app again through its t.me link, not a Retry that sends the same launch', async () => {
    const server = renderApp('/', {
      'user.me': () => {
        throw new Refusal('UNAUTHORIZED', 401, 'Please sign in again');
      },
      'auth.signInSettings': () => ({ openInTelegram: 'https://t.me/GiftRewardsBot/app' }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('This session has expired. Open the app again to go on.');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Telegram username')).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Open the app again' }));
    // (the app also paints Telegram's header and background: only the ways out are looked at)
    expect(telegram.postedOf(...WAYS_OUT)).toEqual([{ type: 'web_app_open_tg_link', data: { path_full: '/GiftRewardsBot/app' } }]);
    expect(server.calls.find((call) => call.path === 'user.me')?.authorization).toBe('tma auth_date=1700000000&hash=stale');
  });

  it('without the link, closes the app so the player opens it from the bot', async () => {
    renderApp('/', {
      'user.me': () => {
        throw new Refusal('UNAUTHORIZED', 401);
      },
      'auth.signInSettings': () => ({ openInTelegram: null }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Close, then open it from the bot' }));
    expect(telegram.postedOf(...WAYS_OUT)).toEqual([{ type: 'web_app_close', data: {} }]);
  });
});

describe('the home-screen shortcut, inside a Telegram that has it', () => {
  it('is offered on the profile until the player adds it, and not where Telegram says it is there', async () => {
    const telegram = launchInTelegram({ version: '8.0' });
    try {
      renderApp('/profile', signedInPlayer);
      await screen.findByTestId('player-name');
      expect(telegram.postedOf('web_app_check_home_screen')).toHaveLength(1);
      act(() => telegram.event('home_screen_checked', { status: 'missed' }));
      await userEvent.click(await screen.findByRole('button', { name: 'Add to home screen' }));
      expect(telegram.postedOf('web_app_add_to_home_screen')).toEqual([{ type: 'web_app_add_to_home_screen', data: {} }]);
      act(() => telegram.event('home_screen_added'));
      expect(await screen.findByText('Added to your home screen')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Add to home screen' })).not.toBeInTheDocument();
    } finally {
      telegram.end();
    }
  });

  it('is not offered by a Telegram older than 8.0, nor outside Telegram; nor is a web sign-out inside Telegram', async () => {
    const telegram = launchInTelegram({ version: '7.10' });
    try {
      renderApp('/profile', signedInPlayer);
      await screen.findByTestId('player-name');
      expect(telegram.postedOf('web_app_check_home_screen')).toEqual([]);
      expect(screen.queryByRole('button', { name: 'Add to home screen' })).not.toBeInTheDocument();
      // inside Telegram the launch signs the player in: no web sign-out is offered there
      expect(screen.queryByRole('button', { name: 'Sign out everywhere' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    } finally {
      telegram.end();
    }
  });
});

describe("a player an operator froze or banned reads why, in the app's language", () => {
  it("frozen: the app stays open, with the reason above it (an operator's own full stop not doubled)", async () => {
    renderApp('/', {
      ...signedInPlayer,
      'user.me': () => ({ ...DEMO_PLAYER, isDemo: false, status: 'frozen', statusReason: 'Fifty friends joined in one minute.' }),
    });
    expect(
      await screen.findByText(
        'Your account is frozen: Fifty friends joined in one minute. You can look around; claims, mining, staking and withdrawals wait until it is reviewed.',
      ),
    ).toHaveAttribute('role', 'status');
    expect(await screen.findByText('Get started')).toBeInTheDocument();
  });

  it('frozen, in Persian: the notice is Persian, with the reason the server gave in Persian', async () => {
    await renderAppInPersian('/', {
      ...signedInPlayer,
      'user.me': () => ({ ...DEMO_PLAYER, language: 'fa', isDemo: false, status: 'frozen', statusReason: 'پنجاه دوست در یک دقیقه' }),
    });
    expect(await screen.findByText(/^حساب شما مسدود موقت است: پنجاه دوست در یک دقیقه\./)).toHaveAttribute('role', 'status');
  });

  const HELP = {
    'help.get': () => ({
      faqs: [{ id: 'f1', question: 'Why was I banned?', answer: 'One account per person.' }],
      contact: 'https://t.me/GiftSupport',
    }),
    'help.appeal': () => null,
  };

  it('banned: only the reason, without a Retry that could never work', async () => {
    renderApp('/', {
      ...HELP,
      'user.me': () => {
        throw new Refusal('ACCOUNT_BANNED', 403, 'Your account is blocked: Several accounts', { reason: 'Several accounts' });
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account is blocked: Several accounts');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('banned: has somewhere to turn: the questions, the contact, and one appeal, sent once', async () => {
    let appeal: { id: string; text: string; status: 'open' | 'answered'; answer: string; sentAt: Date; answeredAt: Date | null } | null =
      null;
    const server = renderApp('/', {
      ...HELP,
      'help.appeal': () => appeal,
      'help.sendAppeal': (input) => {
        appeal = { id: 'a1', text: input.text, status: 'open', answer: '', sentAt: new Date(), answeredAt: null };
        return appeal;
      },
      'user.me': () => {
        throw new Refusal('ACCOUNT_BANNED', 403, 'Your account is blocked: Several accounts', { reason: 'Several accounts' });
      },
    });
    await userEvent.click(await screen.findByText('Why was I banned?'));
    expect(screen.getByText('One account per person.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Write to us' })).toHaveAttribute('href', 'https://t.me/GiftSupport');

    const box = screen.getByLabelText('Your appeal');
    await userEvent.type(box, 'too short');
    await userEvent.click(screen.getByRole('button', { name: 'Send the appeal' }));
    expect(box).toHaveAccessibleDescription(/Write at least 10 characters/);
    expect(server.calls.some((call) => call.path === 'help.sendAppeal')).toBe(false);

    await userEvent.type(box, ': my brother shares this phone.');
    await userEvent.dblClick(screen.getByRole('button', { name: 'Send the appeal' }));
    expect(await screen.findByText('An operator will answer here and in the bot.')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.path === 'help.sendAppeal')).toHaveLength(1);
    expect(server.calls.find((call) => call.path === 'help.sendAppeal')?.input).toEqual({
      text: 'too short: my brother shares this phone.',
    });
  });

  it('banned, in Persian', async () => {
    await renderAppInPersian('/', {
      ...HELP,
      'user.me': () => {
        throw new Refusal('ACCOUNT_BANNED', 403, 'Your account is blocked: چند حساب', { reason: 'چند حساب' });
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('حساب شما مسدود شده است: چند حساب');
  });
});
