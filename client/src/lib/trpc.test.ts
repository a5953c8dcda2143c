import { fakeTrpcServer, Refusal } from '../../test/fakeTrpcServer';
import { DEMO_PLAYER } from '../../test/fixtures';

// telegramLaunch.ts reads the launch once per page load, so each case loads the modules afresh
async function freshClient() {
  jest.resetModules();
  const { createTrpcClient, trpc } = await import('./trpc');
  return { createTrpcClient, trpc };
}

const SIGNED_LAUNCH =
  'query_id=AAE&user=%7B%22id%22%3A42%2C%22first_name%22%3A%22Sara%22%2C%22language_code%22%3A%22fa%22%7D&auth_date=1767225600&hash=abc123';

async function credentialSent() {
  const server = fakeTrpcServer({ 'user.me': () => ({ ...DEMO_PLAYER, id: 'p1' }) });
  const { createTrpcClient } = await freshClient();
  const client = createTrpcClient({ fetch: server.fetch });
  await client.user.me.query();
  return server.calls[0]?.authorization;
}

it("inside Telegram, sends the launch's signed initData, read from the URL Telegram opened", async () => {
  window.location.hash = `#tgWebAppData=${encodeURIComponent(SIGNED_LAUNCH)}&tgWebAppVersion=7.0&tgWebAppPlatform=ios`;
  expect(await credentialSent()).toBe(`tma ${SIGNED_LAUNCH}`);
});

it("prefers Telegram's own script when it is loaded", async () => {
  window.Telegram = { WebApp: { initData: SIGNED_LAUNCH } };
  try {
    expect(await credentialSent()).toBe(`tma ${SIGNED_LAUNCH}`);
  } finally {
    delete window.Telegram;
  }
});

it('keeps the launch after the app navigates away from the URL Telegram opened', async () => {
  window.location.hash = `#tgWebAppData=${encodeURIComponent(SIGNED_LAUNCH)}`;
  jest.resetModules();
  const telegram = await import('./telegramLaunch');
  expect(telegram.telegramInitData()).toBe(SIGNED_LAUNCH);
  window.location.hash = '';
  expect(telegram.telegramInitData()).toBe(SIGNED_LAUNCH);
  expect(telegram.telegramLanguage()).toBe('fa');
});

it('outside Telegram, sends the token of a web sign-in', async () => {
  localStorage.setItem('playerToken', 'web.sign.in');
  expect(await credentialSent()).toBe('Bearer web.sign.in');
});

it('with neither, asks for the demo player (which only a development server accepts)', async () => {
  expect(await credentialSent()).toBe('demo');
});

describe('cache settings (docs/product.md)', () => {
  it('keeps data fresh 60 s, for 5 minutes, and retries with 500 ms × attempt between tries', async () => {
    const { createQueryClient } = await import('./trpc');
    const queries = createQueryClient().getDefaultOptions().queries!;
    expect(queries.staleTime).toBe(60_000);
    expect(queries.gcTime).toBe(300_000);
    const delay = queries.retryDelay as (failureCount: number, error: Error) => number;
    expect([0, 1, 2].map((n) => delay(n, new Error('x')))).toEqual([500, 1000, 1500]);
  });

  it('retries a read once on a status another try can cure, never a write, and never what another try cannot fix', async () => {
    const { createTrpcClient } = await freshClient();
    let reads = 0;
    const server = fakeTrpcServer({
      'home.currency': () => {
        reads += 1;
        if (reads === 1) throw new Refusal('INTERNAL', 503);
        return [];
      },
      'user.me': () => {
        throw new Refusal('UNAUTHORIZED', 401);
      },
      'mining.start': () => {
        throw new Refusal('INTERNAL', 503);
      },
    });
    const client = createTrpcClient({ fetch: server.fetch });
    await expect(client.home.currency.query()).resolves.toEqual([]);
    expect(server.calls.filter((call) => call.path === 'home.currency')).toHaveLength(2);

    await expect(client.user.me.query()).rejects.toThrow();
    expect(server.calls.filter((call) => call.path === 'user.me')).toHaveLength(1);

    await expect(client.mining.start.mutate()).rejects.toThrow();
    expect(server.calls.filter((call) => call.path === 'mining.start')).toHaveLength(1);
  });

  it('gives up on a read after one retry', async () => {
    const { createTrpcClient } = await freshClient();
    const server = fakeTrpcServer({
      'home.currency': () => {
        throw new Refusal('INTERNAL', 503);
      },
    });
    await expect(createTrpcClient({ fetch: server.fetch }).home.currency.query()).rejects.toThrow();
    expect(server.calls).toHaveLength(2);
  });
});
