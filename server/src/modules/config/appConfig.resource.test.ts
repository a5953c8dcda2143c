import { createApp } from '../../app';
import { startBotApiStandIn, type BotApiStandIn } from '../../../test/botApiStandIn';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { AppConfigModel } from './appConfig.model';
import { resolveBotToken } from './config.service';

const BOT_TOKEN = '987654321:AAFsavedInAppConfig_abcdefghijklmnopq';
/** The Bot API stand-in knows this token only: getMe answers for it, and refuses any other. */
let standIn: BotApiStandIn;
const appWith = (overrides: Record<string, string> = {}) =>
  createApp({
    env: testEnv({ TELEGRAM_BOT_TOKEN: '', TELEGRAM_API_ROOT: standIn.apiRoot, ...overrides }),
    logger: silentLogger,
    clientDist: '/nonexistent',
    adminDist: '/nonexistent',
  });
beforeAll(async () => {
  standIn = await startBotApiStandIn(BOT_TOKEN);
});
afterAll(() => standIn.close());

describe('App Config in the console', () => {
  let api: ReturnType<typeof consoleApi>;
  let operatorToken: string;
  beforeAll(async () => {
    operatorToken = (await createOperator()).token;
    api = consoleApi(appWith(), operatorToken);
  });

  it('lists exactly one record, created with defaults the first time', async () => {
    expect(await AppConfigModel.countDocuments()).toBe(0);
    const first = await api.get('/app-config');
    expect(first.status).toBe(200);
    expect(first.headers['content-range']).toBe('app-config 0-0/1');
    expect(first.body).toHaveLength(1);
    expect(first.body[0]).toMatchObject({ earnDurationHours: 8, earnAmount: '0', referrerCoin: null, botTokenSet: false });
    await api.get('/app-config');
    expect(await AppConfigModel.countDocuments()).toBe(1);
  });

  it('reads and edits the same record by its id and by "current"', async () => {
    const [record] = (await api.get('/app-config')).body;
    const byId = await api.get(`/app-config/${record.id}`);
    const current = await api.get('/app-config/current');
    expect(current.status).toBe(200);
    expect(current.body).toEqual(byId.body);

    const saved = await api.put('/app-config/current', {
      ...current.body,
      referrerMessage: 'Join me!',
      earnAmount: '12.5',
      earnDurationHours: 6,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: record.id, referrerMessage: 'Join me!', earnAmount: '12.5', earnDurationHours: 6 });
    const again = await api.put(`/app-config/${record.id}`, { ...saved.body, referrerMessage: 'Come play' });
    expect(again.body.referrerMessage).toBe('Come play');
    expect(await AppConfigModel.countDocuments()).toBe(1);
  });

  it("keeps the risk score's weights and levels, each signal at its default until changed, and refuses high below review", async () => {
    const current = (await api.get('/app-config/current')).body;
    expect(current.risk).toMatchObject({ reviewAt: 30, highAt: 60, weights: { sharedWallet: 35, friendBurst: 30 } });
    const saved = await api.put('/app-config/current', {
      ...current,
      risk: { ...current.risk, weights: { ...current.risk.weights, sharedWallet: 50 }, reviewAt: 20 },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.risk).toMatchObject({ reviewAt: 20, highAt: 60, weights: { sharedWallet: 50, friendBurst: 30 } });
    const refused = await api.put('/app-config/current', { ...saved.body, risk: { ...saved.body.risk, highAt: 10 } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ 'risk.highAt': 'High must start above review' });
    const negative = await api.put('/app-config/current', { ...saved.body, risk: { weights: { fastClaims: -5 } } });
    expect(Object.keys(negative.body.errors)).toEqual(['risk.weights.fastClaims']);
    await api.put('/app-config/current', {
      ...saved.body,
      risk: { ...saved.body.risk, weights: { ...saved.body.risk.weights, sharedWallet: 35 }, reviewAt: 30 },
    });
  });

  it('keeps testnet wallets off until an operator allows them', async () => {
    const current = (await api.get('/app-config/current')).body;
    expect(current.allowTestnetWallets).toBe(false);
    const saved = await api.put('/app-config/current', { ...current, allowTestnetWallets: true });
    expect(saved.body.allowTestnetWallets).toBe(true);
    expect((await AppConfigModel.findOne({ key: 'app' }).lean())?.allowTestnetWallets).toBe(true);
    await api.put('/app-config/current', { ...saved.body, allowTestnetWallets: false });
  });

  it('takes the bot token but never shows it, and a blank one keeps it', async () => {
    const current = (await api.get('/app-config/current')).body;
    const saved = await api.put('/app-config/current', { ...current, botToken: BOT_TOKEN });
    expect(saved.status).toBe(200);
    expect(saved.body.botTokenSet).toBe(true);
    for (const res of [saved, await api.get('/app-config/current'), await api.get('/app-config')]) {
      expect(JSON.stringify(res.body)).not.toContain(BOT_TOKEN);
      expect(JSON.stringify(res.body)).not.toContain('botToken"');
    }
    await api.put('/app-config/current', { ...saved.body, botToken: '' });
    await api.put('/app-config/current', { ...saved.body, botToken: null });
    await api.put('/app-config/current', { ...saved.body, referrerMessage: 'no token field at all' });
    expect(await resolveBotToken(testEnv({ TELEGRAM_BOT_TOKEN: '' }))).toBe(BOT_TOKEN);
  });

  it("checks a new token with Telegram, fills in its bot's username, says where the running token comes from, and clears it", async () => {
    const current = (await api.get('/app-config/current')).body;
    const refused = await api.put('/app-config/current', { ...current, botToken: '123456789:AAWrongTokenForThisBot_abcdefghijklmn' });
    expect([refused.status, refused.body.errors]).toEqual([
      400,
      { botToken: 'Telegram did not accept this token (Unauthorized): copy it again from BotFather' },
    ]);
    expect((await api.get('/app-config/current')).body).toEqual(current);

    const saved = await api.put('/app-config/current', { ...current, botToken: BOT_TOKEN, botUsername: 'TypedByHand' });
    expect(saved.body).toMatchObject({ botTokenSet: true, botTokenSource: 'appConfig', botUsername: 'GiftRewardsBot' });
    // the environment's token wins, and the page says so
    const fromEnvironment = consoleApi(appWith({ TELEGRAM_BOT_TOKEN: BOT_TOKEN }), operatorToken);
    expect((await fromEnvironment.get('/app-config/current')).body).toMatchObject({ botTokenSet: true, botTokenSource: 'environment' });
    // the bot settings are the last app's (createApp sets them): this file's app again
    api = consoleApi(appWith(), operatorToken);

    const cleared = await api.put('/app-config/current', { clearBotToken: true });
    expect(cleared.body).toMatchObject({ botTokenSet: false, botTokenSource: null });
    expect(await resolveBotToken(testEnv({ TELEGRAM_BOT_TOKEN: '' }))).toBeUndefined();

    const unreachable = consoleApi(appWith({ TELEGRAM_API_ROOT: 'http://127.0.0.1:9' }), operatorToken);
    const offline = await unreachable.put('/app-config/current', { botToken: BOT_TOKEN });
    expect(offline.body.errors).toEqual({ botToken: 'Telegram could not be reached to check this token: nothing was saved, try again' });
    api = consoleApi(appWith(), operatorToken);
    expect((await api.get('/app-config/current')).body.botTokenSet).toBe(false);
  });

  it('accepts existing coins, clears them with an empty value, and refuses a coin that does not exist', async () => {
    const referrerCoin = await createCoin();
    const miningCoin = await createCoin();
    const current = (await api.get('/app-config/current')).body;
    const saved = await api.put('/app-config/current', {
      ...current,
      referrerCoin: String(referrerCoin._id),
      miningCoin: String(miningCoin._id),
      referrerCoinAmount: '3',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      referrerCoin: String(referrerCoin._id),
      miningCoin: String(miningCoin._id),
      referrerCoinAmount: '3',
    });

    const missing = '0123456789abcdef01234567';
    const bad = await api.put('/app-config/current', { ...saved.body, referrerCoin: missing, miningCoin: missing });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ referrerCoin: 'Choose an existing gift coin' });
    expect((await api.get('/app-config/current')).body.referrerCoin).toBe(String(referrerCoin._id));

    const cleared = await api.put('/app-config/current', { ...saved.body, referrerCoin: '', miningCoin: null });
    expect(cleared.body).toMatchObject({ referrerCoin: null, miningCoin: null });
  });

  it('refuses bad values field by field and changes nothing', async () => {
    const current = (await api.get('/app-config/current')).body;
    const res = await api.put('/app-config/current', {
      ...current,
      botToken: 'not-a-token',
      earnDurationHours: 0,
      earnAmount: '1.1234567',
      botUsername: 'ab',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['botToken', 'botUsername', 'earnAmount', 'earnDurationHours']);
    expect((await api.get('/app-config/current')).body).toEqual(current);
  });

  it('refuses a mining coin or a referrer coin that pays 0, and domains that are not domains, saying which field', async () => {
    const coin = await createCoin();
    // mining off, paying nothing: allowed
    expect((await api.put('/app-config/current', { miningCoin: null, earnAmount: '0' })).status).toBe(200);
    const current = (await api.get('/app-config/current')).body;
    const zero = await api.put('/app-config/current', {
      ...current,
      miningCoin: String(coin._id),
      earnAmount: '0',
      referrerCoin: String(coin._id),
      referrerCoinAmount: '0',
    });
    expect([zero.status, zero.body.errors]).toEqual([
      400,
      {
        earnAmount: 'Mining pays a positive amount per session: set it, or choose no mining coin',
        referrerCoinAmount: 'The referral reward is a positive amount: set it, or choose no referrer coin',
      },
    ]);
    // a coin named alone meets the amount already saved, which is 0 here
    const alone = await api.put('/app-config/current', { miningCoin: String(coin._id) });
    expect(alone.body.errors).toEqual({ earnAmount: 'Mining pays a positive amount per session: set it, or choose no mining coin' });
    const domains = await api.put('/app-config/current', { tonProofDomains: ['gift.example.com', 'http://x y'] });
    expect(domains.body.errors).toEqual({
      tonProofDomains: '“http://x y” is not a domain: write it like app.example.com, without https:// or a path',
    });
    expect((await api.get('/app-config/current')).body).toEqual(current);

    const saved = await api.put('/app-config/current', {
      miningCoin: String(coin._id),
      earnAmount: '240',
      tonProofDomains: ['gift.example.com', 'localhost:5173'],
    });
    expect(saved.status).toBe(200);
  });

  it('keeps the timezone and the streak milestones, refusing an unknown zone, a repeated day and a missing coin', async () => {
    const coin = String((await createCoin())._id);
    const current = (await api.get('/app-config/current')).body;
    expect([current.timezone, current.streakMilestones]).toEqual(['UTC', []]);
    const bad = await api.put('/app-config/current', {
      timezone: 'Mars/Olympus',
      streakMilestones: [
        { days: 3, coin, amount: '10' },
        { days: 3, coin, amount: '0' },
        { days: 1, coin: '', amount: '5' },
      ],
    });
    expect([bad.status, bad.body.errors]).toEqual([
      400,
      {
        timezone: 'A timezone name such as UTC or Asia/Tehran',
        'streakMilestones.1.amount': 'Must be more than 0',
        'streakMilestones.1.days': 'Each milestone needs its own number of days',
        'streakMilestones.2.coin': 'This field is required',
        'streakMilestones.2.days': 'At least 2 days',
      },
    ]);
    const gone = await api.put('/app-config/current', { streakMilestones: [{ days: 7, coin: '0123456789abcdef01234567', amount: '5' }] });
    expect(gone.body.errors).toEqual({ 'streakMilestones.0.coin': 'Choose an existing gift coin' });
    expect((await api.get('/app-config/current')).body).toEqual(current);

    const milestones = [
      { days: 3, coin, amount: '100' },
      { days: 7, coin, amount: '500.5' },
    ];
    const saved = await api.put('/app-config/current', { timezone: 'Asia/Tehran', streakMilestones: milestones });
    expect([saved.status, saved.body.timezone, saved.body.streakMilestones]).toEqual([200, 'Asia/Tehran', milestones]);
  });

  it('has no create or delete', async () => {
    const before = await AppConfigModel.countDocuments();
    expect((await api.post('/app-config', {})).status).toBe(403);
    expect((await api.delete('/app-config/current')).status).toBe(403);
    expect(await AppConfigModel.countDocuments()).toBe(before);
  });
});
