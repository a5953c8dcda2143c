import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Refusal, type OutputOf } from '../../../test/fakeTrpcServer';
import { HOME, renderApp, signedInPlayer } from '../../../test/renderApp';
import { STAR_MISSION } from '../../../test/fixtures';
import { initI18n, setLanguage } from '../../lib/i18n';
import { recordWindowOpen } from '../../../test/windowOpen';

const { categoryId: CATEGORY, id: MISSION } = STAR_MISSION;

type PlayerMission = OutputOf<'missions.byCategory'>['missions'][number];

function mission(overrides: Partial<PlayerMission> = {}): PlayerMission {
  return {
    ...STAR_MISSION,
    title: 'Claim your welcome bonus',
    description: 'Tap Claim to collect your first GIFT.',
    reward: '100',
    claimButton: 'Claim',
    goButton: 'Go',
    ...overrides,
  };
}

/** A server whose mission moves as the real one does; `claim` decides each claim. */
function missionServer(
  initial: ReturnType<typeof mission>,
  claim: (input: { code?: string }) => unknown,
  path = `/categories/${CATEGORY}/missions/${MISSION}/get`,
) {
  let current = initial;
  let balance = '0';
  const server = renderApp(path, {
    ...signedInPlayer,
    'home.currency': () => [
      {
        id: 'c1',
        name: 'Gift Coin',
        symbol: 'GIFT',
        icon: '',
        decimals: 9,
        usdPrice: null,
        balance,
        staked: '0',
        total: balance,
        value: null,
      },
    ],
    'missions.byCategory': () => ({ category: { id: CATEGORY, title: 'Get started', description: '', image: '' }, missions: [current] }),
    'missions.open': () => ({ recorded: true as const }),
    'missions.go': () => {
      current = { ...current, status: 'started', rejectReason: '' };
      return { link: current.link };
    },
    'missions.claim': (input) => {
      const result = claim(input) as { status: 'done' | 'pending'; reward: string };
      current = { ...current, status: result.status };
      if (result.status === 'done') balance = '100';
      return { ...result, coinId: 'c1' };
    },
  });
  return server;
}

beforeAll(() => initI18n());
afterEach(() => setLanguage('en'));

it('shows the mission: its icon, description, reward with its coin and what its check needs, while loading first', async () => {
  missionServer(mission(), () => ({ status: 'done', reward: '100' }));
  expect(screen.getByText('Loading…')).toBeInTheDocument();
  expect(await screen.findByRole('heading', { name: /Claim your welcome bonus/ })).toBeInTheDocument();
  expect(screen.getByText('Tap Claim to collect your first GIFT.')).toBeInTheDocument();
  expect(screen.getByText('+100 GIFT')).toBeInTheDocument();
  expect(screen.getByText('Tap “Claim” to receive the reward.')).toBeInTheDocument();
});

it('tells the server once that the player opened a mission they have not started, and not again after Go', async () => {
  const id = 'abcdefabcdefabcdefabcdef';
  const server = missionServer(
    mission({ id, verifyType: 'manual' }),
    () => ({ status: 'pending', reward: '100' }),
    `/categories/${CATEGORY}/missions/${id}/get`,
  );
  await userEvent.click(await screen.findByRole('button', { name: 'Go' }));
  expect(await screen.findByRole('button', { name: 'Claim' })).toBeInTheDocument();
  expect(server.calls.filter((call) => call.path === 'missions.open').map((call) => call.input)).toEqual([{ missionId: id }]);
});

it('credits an Auto ⭐ mission once on a double tap, says so in a toast, and the currency page shows it at once', async () => {
  const server = missionServer(mission(), () => ({ status: 'done', reward: '100' }), '/currency');
  const tabs = within(await screen.findByRole('navigation', { name: 'Main' }));
  expect(await screen.findByText('0 GIFT')).toBeInTheDocument();
  await userEvent.click(tabs.getByRole('link', { name: 'Tasks' }));
  await userEvent.click(await screen.findByRole('link', { name: /Read how Gift Rewards works/ }));
  await userEvent.dblClick(await screen.findByRole('button', { name: 'Claim' }));
  expect(await screen.findByText('+100 GIFT received')).toBeInTheDocument();
  expect(await screen.findByText('Done! +100 GIFT')).toBeInTheDocument();
  expect(server.calls.filter((call) => call.path === 'missions.claim')).toHaveLength(1);
  // the cached currency page (fresh for 60 s) was invalidated, so it shows the new balance at once
  await userEvent.click(tabs.getByRole('link', { name: 'Currency' }));
  expect(await screen.findByText('100 GIFT')).toBeInTheDocument();
  await waitFor(() => expect(server.calls.filter((call) => call.path === 'user.me').length).toBeGreaterThan(1));
});

it('refuses a claim at once while offline, and does not send it by itself when the connection returns', async () => {
  let offline = false;
  const server = missionServer(mission(), () => {
    if (offline) throw new TypeError('Failed to fetch');
    return { status: 'done', reward: '100' };
  });
  const claim = await screen.findByRole('button', { name: 'Claim' });
  offline = true;
  act(() => onlineManager.setOnline(false));
  Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
  try {
    await userEvent.click(claim);
    expect(await screen.findByRole('alert', {}, { timeout: 2000 })).toHaveTextContent(
      'You are offline. Check your connection and try again.',
    );
  } finally {
    offline = false;
    Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
    act(() => onlineManager.setOnline(true));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  // the one try made offline, and nothing more: the player taps again if they still mean it
  expect(server.calls.filter((call) => call.path === 'missions.claim')).toHaveLength(1);
  expect(screen.queryByText('+100 GIFT received')).not.toBeInTheDocument();
});

it("answers a mission claimed before the ⭐ ones with 'You must done all ⭐ tasks'", async () => {
  missionServer(mission({ mustDone: false }), () => {
    throw new Refusal('STAR_MISSIONS_FIRST', 400, 'You must done all ⭐ tasks');
  });
  await userEvent.click(await screen.findByRole('button', { name: 'Claim' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('You must done all ⭐ tasks');
});

it("asks for the YouTube code after Go and answers a wrong one with 'Incorrect code'", async () => {
  const opened = recordWindowOpen();
  missionServer(
    mission({ verifyType: 'youtube', link: 'https://www.youtube.com/watch?v=abc', goButton: 'Watch', mustDone: false }),
    (input) => {
      if (input.code !== 'OPEN') throw new Refusal('INCORRECT_CODE', 400, 'Incorrect code');
      return { status: 'done', reward: '100' };
    },
  );
  // the instructions name the buttons the player sees, not a generic "Go"
  expect(await screen.findByText('Watch the video with “Watch” and type the secret code said in it.')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Watch' }));
  expect(opened).toEqual(['https://www.youtube.com/watch?v=abc']);
  await userEvent.type(await screen.findByLabelText('Secret code'), 'WRONG');
  await userEvent.click(screen.getByRole('button', { name: 'Claim' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect code');
  await userEvent.clear(screen.getByLabelText('Secret code'));
  await userEvent.type(screen.getByLabelText('Secret code'), 'OPEN');
  await userEvent.click(screen.getByRole('button', { name: 'Claim' }));
  expect(await screen.findByText('Done! +100 GIFT')).toBeInTheDocument();
});

it("puts the Telegram join check's refusal in words", async () => {
  missionServer(mission({ verifyType: 'telegram', link: 'https://t.me/toncoin', status: 'started', mustDone: false }), () => {
    throw new Refusal('NOT_JOINED', 400, "You haven't joined yet");
  });
  await userEvent.click(await screen.findByRole('button', { name: 'Claim' }));
  expect(await screen.findByRole('alert')).toHaveTextContent("You haven't joined yet");
  // said once, under the buttons: no toast repeats it over the title
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(screen.getAllByText("You haven't joined yet")).toHaveLength(1);
});

it("names the mission's own buttons in its instructions, in Persian too", async () => {
  await setLanguage('fa');
  missionServer(
    mission({
      verifyType: 'time',
      verifyDuration: 2,
      goButton: 'بخوانید',
      claimButton: 'دریافت',
      link: 'https://example.com/post',
      mustDone: false,
    }),
    () => ({ status: 'done', reward: '100' }),
  );
  expect(await screen.findByText('روی «بخوانید» بزنید و پس از ۲ دقیقه «دریافت» را بزنید.')).toBeInTheDocument();
});

it('counts down a Time mission until Claim works', async () => {
  missionServer(
    mission({ verifyType: 'time', verifyDuration: 1, status: 'started', claimableAt: new Date(Date.now() + 45_000), mustDone: false }),
    () => ({
      status: 'done',
      reward: '100',
    }),
  );
  const timer = await screen.findByRole('timer');
  expect(timer.textContent).toMatch(/^Claim in 00:4[4-5]$/);
  expect(screen.getByRole('button', { name: 'Claim' })).toBeDisabled();
});

it('sends a Manual mission to review, and shows a rejection with its reason and Go again', async () => {
  missionServer(
    mission({
      verifyType: 'manual',
      status: 'rejected',
      rejectReason: 'The story was not public',
      mustDone: false,
      link: 'https://example.com/story',
    }),
    () => ({ status: 'pending', reward: '100' }),
  );
  window.open = () => null;
  expect(await screen.findByText('Rejected: The story was not public Tap “Go” to try again.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Claim' })).not.toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Go' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Claim' }));
  expect(await screen.findByText('Sent for review')).toBeInTheDocument();
  expect(await within(screen.getByRole('main')).findByText('Waiting for review')).toBeInTheDocument();
});

it('says a mission that does not exist is not found, and shows a failed load as an error', async () => {
  renderApp(`/categories/${CATEGORY}/missions/not-an-id/get`, signedInPlayer);
  expect(await screen.findByText('This mission does not exist or is closed.')).toBeInTheDocument();
});

it('shows a failed load as an error', async () => {
  renderApp(`/categories/${CATEGORY}/missions/${MISSION}/get`, {
    ...signedInPlayer,
    'missions.byCategory': () => {
      throw new Refusal('INTERNAL', 500, 'Something went wrong');
    },
  });
  expect(await screen.findByRole('alert', {}, { timeout: 3000 })).toHaveTextContent('Something went wrong');
});

it('opens a ⭐ mission from home at tasks/:taskId', async () => {
  renderApp(`/tasks/${HOME.starMissions[0]!.id}`, {
    ...signedInPlayer,
    'missions.byCategory': () => ({
      category: { id: CATEGORY, title: 'Get started', description: '', image: '' },
      missions: [mission({ id: HOME.starMissions[0]!.id })],
    }),
  });
  expect(await screen.findByRole('heading', { name: /Claim your welcome bonus/ })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/');
});

it('shows a clear not-found state for a bad category id, and the empty category', async () => {
  renderApp('/categories/nope/missions', signedInPlayer);
  expect(await screen.findByText('This category does not exist or is closed.')).toBeInTheDocument();
});

it('opens at tasks/:taskId a mission home no longer lists (done), found through its category', async () => {
  const done = mission({ id: '65f0000000000000000000a9', status: 'done', title: 'Visit ton.org', mustDone: false });
  renderApp('/tasks/65f0000000000000000000a9', {
    ...signedInPlayer,
    'missions.byCategory': (input) =>
      input.categoryId === '65f0000000000000000000c2'
        ? { category: { id: '65f0000000000000000000c2', title: 'Social', description: '', image: '' }, missions: [done] }
        : { category: { id: CATEGORY, title: 'Get started', description: '', image: '' }, missions: [] },
  });
  expect(await screen.findByRole('heading', { name: 'Visit ton.org' })).toBeInTheDocument();
  expect(screen.getByText('Done! +100 GIFT')).toBeInTheDocument();
});

it('counts down to the end of a limited-time mission, and says so when every place is taken', async () => {
  const endsAt = new Date(Date.now() + (2 * 24 * 3600 + 5 * 3600) * 1000 + 30_000);
  missionServer(mission({ endsAt, full: true, mustDone: false }), () => ({ status: 'done', reward: '100' }));
  expect(await screen.findByRole('timer')).toHaveTextContent(/^Ends in 2d 05:00:\d\d$/);
  expect(screen.getByText('Every place in this mission has been taken.')).toHaveAttribute('role', 'status');
  expect(screen.queryByRole('button', { name: 'Claim' })).not.toBeInTheDocument();
});

it('marks a daily mission, and once done today says it comes back tomorrow, in Persian too', async () => {
  await setLanguage('fa');
  missionServer(mission({ repeat: 'daily', status: 'done', reward: '20', mustDone: false }), () => ({ status: 'done', reward: '20' }));
  expect(await screen.findByText('روزانه')).toBeInTheDocument();
  expect(screen.getByText('امروز انجام شد: \u2066+۲۰ GIFT\u2069. فردا دوباره می‌آید.')).toHaveAttribute('role', 'status');
});

/** The address a fetch was asked for, whichever form it came in. */
const addressOf = (url: string | URL | Request) => (typeof url === 'string' ? url : url instanceof URL ? url.href : url.url);

it('sends a Manual mission only with the link and the screenshot it asks for, the screenshot uploaded when chosen', async () => {
  const uploads: Array<{ type: string; size: number; authorization: string | null }> = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (url: string | URL | Request, init?: RequestInit) => {
    if (addressOf(url) !== '/api/proofs') return realFetch(url, init);
    const body = init!.body as Blob;
    uploads.push({ type: body.type, size: body.size, authorization: new Headers(init!.headers).get('Authorization') });
    return Promise.resolve(new Response(JSON.stringify({ imageId: '65f0000000000000000000e1' }), { status: 201 }));
  };
  URL.createObjectURL = () => 'blob:preview';
  URL.revokeObjectURL = () => undefined;
  const claims: unknown[] = [];
  try {
    missionServer(mission({ verifyType: 'manual', status: 'started', mustDone: false, proof: ['link', 'image'] }), (input) => {
      claims.push(input);
      return { status: 'pending', reward: '100' };
    });
    const claim = await screen.findByRole('button', { name: 'Claim' });
    expect(claim).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Link to your post'), 'https://t.me/s/story/1');
    expect(claim).toBeDisabled();
    await userEvent.upload(screen.getByLabelText('Screenshot'), new File([new Uint8Array(2048)], 'shot.png', { type: 'image/png' }));
    expect(await screen.findByRole('img', { name: 'Screenshot' })).toHaveAttribute('src', 'blob:preview');
    expect(uploads).toEqual([{ type: 'image/png', size: 2048, authorization: 'demo' }]);
    await waitFor(() => expect(claim).toBeEnabled());
    await userEvent.click(claim);
    expect(await screen.findByText('Sent for review')).toBeInTheDocument();
    expect(claims).toEqual([
      { missionId: MISSION, proof: { link: 'https://t.me/s/story/1', text: '', imageId: '65f0000000000000000000e1' } },
    ]);
  } finally {
    globalThis.fetch = realFetch;
  }
});

it('says so when a screenshot is too large, and sends nothing', async () => {
  const realFetch = globalThis.fetch;
  const sent: string[] = [];
  globalThis.fetch = (url: string | URL | Request, init?: RequestInit) => {
    if (addressOf(url) === '/api/proofs') sent.push('upload');
    return realFetch(url, init);
  };
  try {
    missionServer(mission({ verifyType: 'manual', status: 'started', mustDone: false, proof: ['image'] }), () => ({
      status: 'pending',
      reward: '100',
    }));
    const big = new File([new Uint8Array(8 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' });
    await userEvent.upload(await screen.findByLabelText('Screenshot'), big);
    expect(await screen.findByRole('alert')).toHaveTextContent('The picture is larger than 8 MB');
    expect(screen.getByRole('button', { name: 'Claim' })).toBeDisabled();
    expect(sent).toEqual([]);
  } finally {
    globalThis.fetch = realFetch;
  }
});

describe('Telegram-native missions, inside Telegram (a recording bridge)', () => {
  const posted: Array<{ type: string; data: unknown }> = [];
  const sentOf = (...types: string[]) => posted.filter((p) => types.includes(p.type));
  const EMOJI = '5368324170671202286';
  /** A launch by a Telegram of this Mini Apps version, whose webview records what the app posts. */
  const launch = (version: string) => {
    window.location.hash = `#tgWebAppData=query_id%3D1&tgWebAppVersion=${version}`;
    posted.length = 0;
    (window as unknown as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy = {
      postEvent: (type: string, data: string) => posted.push({ type, data: JSON.parse(data) }),
    };
  };
  const telegramSays = (event: string, data?: unknown) => act(() => window.Telegram!.WebView!.receiveEvent(event, data));
  afterAll(() => {
    delete (window as unknown as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy;
    window.location.hash = '';
    sessionStorage.clear();
    localStorage.clear();
  });

  it('Boost: Go opens the channel’s boost page in Telegram; a check Telegram could not answer is said without “joined”', async () => {
    launch('8.0');
    const server = missionServer(
      mission({ verifyType: 'boost', mustDone: false, link: 'https://t.me/boost/giftnews', goButton: 'Boost' }),
      () => {
        throw new Refusal('TELEGRAM_CHECK_FAILED', 503);
      },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Boost' }));
    expect(sentOf('web_app_open_tg_link')).toEqual([{ type: 'web_app_open_tg_link', data: { path_full: '/boost/giftnews' } }]);
    await userEvent.click(await screen.findByRole('button', { name: 'Claim' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Telegram could not confirm this right now. Try again in a few minutes.');
    expect(server.calls.filter((call) => call.path === 'missions.go')).toHaveLength(1);
  });

  it('Emoji status: Go asks Telegram to set the mission’s custom emoji and records the start', async () => {
    launch('8.0');
    const server = missionServer(
      mission({ verifyType: 'emojiStatus', mustDone: false, emojiId: EMOJI, goButton: 'Set emoji status' }),
      () => ({
        status: 'done',
        reward: '100',
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Set emoji status' }));
    expect(sentOf('web_app_set_emoji_status')).toEqual([{ type: 'web_app_set_emoji_status', data: { custom_emoji_id: EMOJI } }]);
    telegramSays('emoji_status_set');
    await userEvent.click(await screen.findByRole('button', { name: 'Claim' }));
    expect(await screen.findByText('Done! +100 GIFT')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.path === 'missions.go')).toHaveLength(1);
  });

  it('Home screen: starts only once Telegram says the shortcut was added, and the claim carries that word', async () => {
    launch('8.0');
    const server = missionServer(mission({ verifyType: 'homeScreen', mustDone: false, goButton: 'Add to home screen' }), () => ({
      status: 'done',
      reward: '100',
    }));
    await userEvent.click(await screen.findByRole('button', { name: 'Add to home screen' }));
    expect(sentOf('web_app_check_home_screen', 'web_app_add_to_home_screen').map((p) => p.type)).toEqual(['web_app_check_home_screen']);
    telegramSays('home_screen_checked', { status: 'missed' });
    await waitFor(() =>
      expect(sentOf('web_app_check_home_screen', 'web_app_add_to_home_screen').map((p) => p.type)).toEqual([
        'web_app_check_home_screen',
        'web_app_add_to_home_screen',
      ]),
    );
    expect(server.calls.filter((call) => call.path === 'missions.go')).toHaveLength(0);
    telegramSays('home_screen_added');
    await userEvent.click(await screen.findByRole('button', { name: 'Claim' }));
    // this device cannot tell (unknown), but the player added it from here
    telegramSays('home_screen_checked', { status: 'unknown' });
    expect(await screen.findByText('Done! +100 GIFT')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.path === 'missions.claim').map((call) => call.input)).toEqual([
      { missionId: MISSION, homeScreen: 'added' },
    ]);
  });

  it('Story: Go opens Telegram’s story editor with the media made whole and the caption', async () => {
    launch('7.8');
    missionServer(
      mission({ verifyType: 'story', mustDone: false, story: { media: '/demo/story.png', text: 'Join me' }, goButton: 'Share a story' }),
      () => ({ status: 'done', reward: '100' }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Share a story' }));
    expect(sentOf('web_app_share_to_story')).toEqual([
      { type: 'web_app_share_to_story', data: { media_url: `${window.location.origin}/demo/story.png`, text: 'Join me' } },
    ]);
  });

  it.each([
    ['homeScreen', '7.10', 'This mission needs Telegram 8.0 or newer. Update Telegram and open the app there.'],
    ['emojiStatus', '6.0', 'This mission needs Telegram 8.0 or newer. Update Telegram and open the app there.'],
    ['story', '7.7', 'This mission needs Telegram 7.8 or newer. Update Telegram and open the app there.'],
  ] as const)(
    '%s on Telegram %s: says it needs a newer Telegram, with no Go, and sends Telegram nothing',
    async (verifyType, version, text) => {
      launch(version);
      missionServer(mission({ verifyType, mustDone: false, emojiId: EMOJI, story: { media: '/s.png', text: '' }, goButton: 'Go' }), () => ({
        status: 'done',
        reward: '100',
      }));
      expect(await screen.findByText(text)).toHaveAttribute('role', 'status');
      expect(screen.queryByRole('button', { name: 'Go' })).not.toBeInTheDocument();
      expect(
        sentOf('web_app_add_to_home_screen', 'web_app_check_home_screen', 'web_app_set_emoji_status', 'web_app_share_to_story'),
      ).toEqual([]);
    },
  );

  it('says so in Persian, with Persian digits', async () => {
    launch('7.0');
    await setLanguage('fa');
    missionServer(mission({ verifyType: 'emojiStatus', mustDone: false, emojiId: EMOJI }), () => ({ status: 'done', reward: '100' }));
    expect(await screen.findByText(/این ماموریت به تلگرام ۸٫۰ یا تازه‌تر نیاز دارد/)).toBeInTheDocument();
  });
});
