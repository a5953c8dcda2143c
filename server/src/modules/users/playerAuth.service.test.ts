import { Writable } from 'node:stream';
import jwt from 'jsonwebtoken';
import { createLogger } from '../../lib/logger';
import { signAdminToken } from '../../http/adminAuth';
import { createPlayer } from '../../../test/factories';
import { TEST_BOT_TOKEN, testEnv } from '../../../test/helpers';
import { tmaHeader } from '../../../test/telegram';
import { getAppConfig } from '../config/config.service';
import { AppConfigModel } from '../config/appConfig.model';
import { authenticatePlayer, signPlayerToken } from './playerAuth.service';
import { UserModel } from './user.model';

const NOW = new Date('2025-03-01T12:00:00Z');
const DAY = 24 * 3600_000;
const env = testEnv();
/** No bot token anywhere: neither the environment nor App Config. */
const devWithoutToken = testEnv({ NODE_ENV: 'development', TELEGRAM_BOT_TOKEN: '' });

async function setConfigBotToken(token: string) {
  await getAppConfig();
  await AppConfigModel.updateOne({ key: 'app' }, { $set: { botToken: token } });
}

afterEach(() => setConfigBotToken(''));

describe('a player inside Telegram (tma)', () => {
  it('is signed in, and registered on first sight, by a valid launch', async () => {
    const header = tmaHeader({ user: { id: 8001, first_name: 'Nika', username: 'nika' }, authDate: NOW });
    const result = await authenticatePlayer(header, env, NOW);
    expect(result.error).toBeUndefined();
    expect(result.user).toMatchObject({ telegramId: 8001, name: 'Nika', username: 'nika' });
    const again = await authenticatePlayer(header, env, new Date(NOW.getTime() + 5_000));
    expect(String(again.user!._id)).toBe(String(result.user!._id));
  });

  it('is refused for a launch of another bot, a tampered one, a stale one or one from the future', async () => {
    const user = { id: 8002, first_name: 'Eve' };
    const foreign = tmaHeader({ user, authDate: NOW }, '987654321:AAFanotherBotTokenThatIsNotOurs_xyz');
    const tampered = tmaHeader({ user, authDate: NOW }).replace('Eve', 'Bob');
    const stale = tmaHeader({ user, authDate: new Date(NOW.getTime() - DAY - 1000) });
    const future = tmaHeader({ user, authDate: new Date(NOW.getTime() + 11 * 60_000) });
    for (const header of [foreign, tampered, stale, future, 'tma ', 'tma garbage']) {
      expect(await authenticatePlayer(header, env, NOW)).toEqual({ user: null, error: 'UNAUTHORIZED' });
    }
    expect(await UserModel.countDocuments({ telegramId: 8002 })).toBe(0);
  });

  it('lets players in from a server whose clock is 5 minutes behind Telegram, and says so in the log once a minute', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const logger = createLogger('info', sink);
    const serverNow = new Date('2026-06-01T09:00:00Z');
    const telegramNow = new Date(serverNow.getTime() + 5 * 60_000);
    for (const id of [8011, 8012, 8013]) {
      const result = await authenticatePlayer(
        tmaHeader({ user: { id, first_name: 'Early' }, authDate: telegramNow }),
        env,
        serverNow,
        logger,
      );
      expect(result.user).toMatchObject({ telegramId: id });
    }
    // a launch within a minute of this server's clock is nothing to report
    await authenticatePlayer(
      tmaHeader({ user: { id: 8014, first_name: 'Early' }, authDate: serverNow }),
      env,
      new Date(serverNow.getTime() + 120_000),
      logger,
    );
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      aheadSeconds: 300,
      msg: expect.stringContaining("this server's clock is about 300 s behind Telegram's"),
    });
  });

  it('uses the bot token saved in App Config when the environment has none', async () => {
    const configToken = '555555:AAFconfiguredInTheConsoleTokenValue_12';
    await setConfigBotToken(configToken);
    const header = tmaHeader({ user: { id: 8003, first_name: 'Cfg' }, authDate: NOW }, configToken);
    expect((await authenticatePlayer(header, devWithoutToken, NOW)).user?.telegramId).toBe(8003);
    expect((await authenticatePlayer(tmaHeader({ user: { id: 8003 }, authDate: NOW }), devWithoutToken, NOW)).error).toBe('UNAUTHORIZED');
  });

  it('says the app is not configured while no bot token exists', async () => {
    const header = tmaHeader({ user: { id: 8004 }, authDate: NOW });
    expect(await authenticatePlayer(header, devWithoutToken, NOW)).toEqual({ user: null, error: 'NOT_CONFIGURED' });
  });
});

describe('a player of the installed web app (Bearer)', () => {
  it('is signed in by a player token for 30 days', async () => {
    const player = await createPlayer();
    const header = `Bearer ${signPlayerToken(player.id, env.JWT_SECRET, NOW)}`;
    expect(String((await authenticatePlayer(header, env, new Date(NOW.getTime() + 29 * DAY))).user?._id)).toBe(player.id);
    expect(await authenticatePlayer(header, env, new Date(NOW.getTime() + 30 * DAY + 1000))).toEqual({ user: null, error: 'UNAUTHORIZED' });
  });

  it('is refused with an operator token, a token of another server, or a deleted player', async () => {
    const player = await createPlayer();
    const admin = signAdminToken({ id: player.id, username: 'x', sessionId: player.id }, env.JWT_SECRET);
    const foreign = signPlayerToken(player.id, 'another-server-secret-0123456789abcdef', NOW);
    const unsigned = jwt.sign({ sub: player.id }, '', { algorithm: 'none', audience: 'player' });
    for (const token of [admin, foreign, unsigned, 'not-a-jwt']) {
      expect(await authenticatePlayer(`Bearer ${token}`, env, NOW)).toEqual({ user: null, error: 'UNAUTHORIZED' });
    }
    const gone = await createPlayer();
    const goneToken = signPlayerToken(gone.id, env.JWT_SECRET, NOW);
    await UserModel.deleteOne({ _id: gone._id });
    expect(await authenticatePlayer(`Bearer ${goneToken}`, env, NOW)).toEqual({ user: null, error: 'UNAUTHORIZED' });
  });
});

describe('the demo player', () => {
  it('plays in development without a bot token', async () => {
    const first = await authenticatePlayer('demo', devWithoutToken, NOW);
    const second = await authenticatePlayer('demo', devWithoutToken, NOW);
    expect(first.user).toMatchObject({ name: 'Demo Player', isDemo: true });
    expect(String(second.user!._id)).toBe(String(first.user!._id));
  });

  it('is refused once a bot token exists, and always in production', async () => {
    expect(await authenticatePlayer('demo', env, NOW)).toEqual({ user: null, error: 'UNAUTHORIZED' });
    await setConfigBotToken(TEST_BOT_TOKEN);
    expect(await authenticatePlayer('demo', devWithoutToken, NOW)).toEqual({ user: null, error: 'UNAUTHORIZED' });
    await setConfigBotToken('');
    const production = testEnv({ NODE_ENV: 'production', TELEGRAM_BOT_TOKEN: '', MONGO_URL: 'mongodb://db.example/gift' });
    expect(await authenticatePlayer('demo', production, NOW)).toEqual({ user: null, error: 'UNAUTHORIZED' });
  });
});

it('passes no header as no player, and refuses unknown schemes', async () => {
  expect(await authenticatePlayer(undefined, env, NOW)).toEqual({ user: null });
  expect(await authenticatePlayer('Basic abc', env, NOW)).toEqual({ user: null, error: 'UNAUTHORIZED' });
});
