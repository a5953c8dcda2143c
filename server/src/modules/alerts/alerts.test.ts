import mongoose from 'mongoose';
import { createApp } from '../../app';
import { pacedApi } from '../../lib/telegramBot';
import { startBotApiStandIn, STAND_IN_BOT, type BotApiStandIn } from '../../../test/botApiStandIn';
import { createCoin, createManualMission, createPlayer } from '../../../test/factories';
import { TEST_BOT_TOKEN, silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator } from '../../../test/operators';
import { createBot } from '../bot/bot.service';
import { refreshLiveFigures } from '../dashboard/dashboard.service';
import { setAppConfigFields } from '../config/config.service';
import { UserMissionModel } from '../missions/mission.models';
import { StarPurchaseModel } from '../shop/shop.models';
import { reconcileStarPayments } from '../shop/starsReconcile.service';
import { commandsDuring } from '../../../test/queryPlans';
import { CLAIMS_BATCH_MS, linkAlertChat, runAlertRound } from './alerts.service';

let standIn: BotApiStandIn;
let env: ReturnType<typeof testEnv>;
let app: ReturnType<typeof createApp>;
let api: ReturnType<typeof pacedApi>;
beforeAll(async () => {
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
  env = testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot });
  app = createApp({ env, logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
  api = pacedApi({ apiRoot: standIn.apiRoot, token: TEST_BOT_TOKEN });
  await setAppConfigFields({ botUsername: STAND_IN_BOT.username });
});
afterAll(() => standIn.close());

const botInfo = { ...STAND_IN_BOT, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false } as never;
let updateId = 1;
/** The operator presses Start in the bot through the link: `/start op-<code>` in their private chat. */
async function pressStart(link: string, chatId: number, languageCode = 'en') {
  const text = `/start ${new URL(link).searchParams.get('start')}`;
  const from = { id: chatId, is_bot: false, first_name: 'Operator', language_code: languageCode };
  const entities = [{ type: 'bot_command', offset: 0, length: 6 }];
  const message = {
    message_id: updateId,
    date: Math.floor(Date.now() / 1000),
    chat: { id: chatId, type: 'private' },
    from,
    text,
    entities,
  };
  await createBot(TEST_BOT_TOKEN, { env, logger: silentLogger, botInfo }).handleUpdate({ update_id: updateId++, message } as never);
  return standIn.sent.filter((sent) => sent.chat_id === chatId).at(-1)?.text;
}

/** An operator with these permissions whose Telegram chat is linked through the console's link and the bot. */
async function linkedOperator(permissions: string[], chatId: number, fields: Record<string, unknown> = {}) {
  const operator = await createOperator(permissions, fields);
  const console = consoleApi(app, operator.token);
  const link = await console.post('/alerts/me/link', { language: 'en' });
  expect(link.status).toBe(200);
  expect(await pressStart(link.body.url, chatId)).toMatch(/^This chat now gets the console's alerts for operator_/);
  return { ...operator, console };
}

async function pendingClaim(claimedAt = new Date()) {
  const coin = await createCoin({ symbol: 'GIFT' });
  const { mission, category } = await createManualMission(coin);
  const player = await createPlayer();
  return UserMissionModel.create({
    user: player._id,
    mission: mission._id,
    category: category._id,
    coin: coin._id,
    reward: 1_000_000,
    status: 'pending',
    claimedAt,
  });
}

const textsTo = (chatId: number) => standIn.sent.filter((sent) => sent.chat_id === chatId).map((sent) => sent.text);
/** A sweep at the end of the claims' batching window (the clock moved on past it). */
const afterWindow = () => new Date(Date.now() + CLAIMS_BATCH_MS);

describe('linking a chat', () => {
  it('links through a one-time code, refused when used again or expired, in the operator language', async () => {
    const operator = await createOperator(['user-missions:read']);
    const console = consoleApi(app, operator.token);
    const link = await console.post('/alerts/me/link', { language: 'fa' });
    expect(link.body.url).toMatch(/^https:\/\/t\.me\/GiftRewardsBot\?start=op-[\w-]{16,40}$/);
    expect((await console.get('/alerts/me')).body).toMatchObject({ linked: false });

    expect(await pressStart(link.body.url, 8101)).toMatch(/^این گفتگو اکنون هشدارهای کنسول را برای operator_/);
    expect((await console.get('/alerts/me')).body).toMatchObject({ linked: true, language: 'fa', available: ['claims'] });
    // the same link again, from another chat: refused, and the first chat stays linked
    expect(await pressStart(link.body.url, 8102)).toBe(
      'This link was already used or has expired. Ask for a new one on My account in the console.',
    );

    // a new link, used after it expired
    const late = await console.post('/alerts/me/link', { language: 'en' });
    const code = new URL(late.body.url).searchParams.get('start')!;
    expect(await linkAlertChat(code, 8103, 'fa', new Date(Date.now() + 11 * 60_000))).toBe(
      'این پیوند استفاده شده یا منقضی شده است. در کنسول، در «حساب من»، پیوند تازه‌ای بگیرید.',
    );
    // within its time it links, answering in the language the console asked for
    expect(await pressStart(late.body.url, 8103, 'fa')).toMatch(/^This chat now gets/);

    // unlinking stops the bot writing to the chat
    expect((await console.delete('/alerts/me/link')).body).toMatchObject({ linked: false });
  });

  it('refuses an unknown kind of alert with a field message', async () => {
    const operator = await createOperator(['*']);
    const res = await consoleApi(app, operator.token).put('/alerts/me', { kinds: ['claims', 'gossip'] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ kinds: 'Unknown alert' });
  });
});

describe('a new Manual claim', () => {
  it('reaches the linked reviewer once, batched, however many sweeps run; nobody else hears of it', async () => {
    await linkedOperator(['user-missions:read'], 8201);
    await linkedOperator(['withdraws:read'], 8202);
    const disabled = await linkedOperator(['*'], 8203);
    await mongoose.connection.collection('accounts').updateOne({ _id: disabled.account._id }, { $set: { enabled: false } });
    const quiet = await linkedOperator(['*'], 8204);
    await quiet.console.put('/alerts/me', { kinds: ['payouts-stopped'] });
    // linked to nothing: nothing can reach them, and no sweep fails on them
    await createOperator(['*']);
    const before = standIn.sent.length;

    await pendingClaim();
    await pendingClaim();
    const now = afterWindow();
    // one sweep, a second after it, and three at once (three instances): queued once by its key, sent once under a lease
    await runAlertRound(api, 'instance-a', now);
    await runAlertRound(api, 'instance-a', now);
    await Promise.all(['instance-b', 'instance-c', 'instance-d'].map((holder) => runAlertRound(api, holder, now)));

    expect(textsTo(8201)).toContain('2 new Manual claims wait for review (2 waiting in all). Open Reviews in the console.');
    expect(textsTo(8201).filter((text) => text.includes('Manual'))).toHaveLength(1);
    const after = standIn.sent.slice(before);
    expect(after.map((sent) => sent.chat_id)).toEqual([8201]);

    // a claim in a later window: one more summary, of that claim alone
    // (sent at the clock the sweeps ran at: within the window after the one summarised)
    await pendingClaim(now);
    const later = new Date(now.getTime() + CLAIMS_BATCH_MS);
    await Promise.all([runAlertRound(api, 'instance-a', later), runAlertRound(api, 'instance-b', later)]);
    expect(textsTo(8201).filter((text) => text.includes('Manual'))).toEqual([
      '2 new Manual claims wait for review (2 waiting in all). Open Reviews in the console.',
      '1 new Manual claim waits for review (3 waiting in all). Open Reviews in the console.',
    ]);
    // the outsider's chat holds the link's confirmation alone
    expect(textsTo(8202)).toHaveLength(1);
  });
});

describe('payouts stopped', () => {
  it('tells each permitted operator once per stop, with its reason, and again after payouts ran and stopped again', async () => {
    await linkedOperator(['withdraws:read'], 8301);
    const stop = async (reason: string) => {
      await setAppConfigFields({ payoutsStopped: reason });
      await Promise.all([runAlertRound(api, 'a', new Date()), runAlertRound(api, 'b', new Date())]);
    };
    await stop('not enough TON in the hot wallet');
    await stop('not enough TON in the hot wallet');
    await stop('');
    await stop('the daily cap of GIFT is reached');
    expect(textsTo(8301).filter((text) => text.startsWith('Payouts'))).toEqual([
      'Payouts stopped: not enough TON in the hot wallet. Approved withdrawals wait.',
      'Payouts stopped: the daily cap of GIFT is reached. Approved withdrawals wait.',
    ]);
    await setAppConfigFields({ payoutsStopped: '' });
  });

  it("tells the shop's operators once of a Star payment that matches no purchase", async () => {
    await linkedOperator(['star-purchases:read'], 8401);
    await linkedOperator(['withdraws:read'], 8402);
    const player = await createPlayer();
    // an invoice waits, so the reconciliation reads Telegram's list; the stray payment names no purchase
    await StarPurchaseModel.create({ user: player._id, offer: player._id, title: 'Freeze', kind: 'streakFreeze', stars: 20 });
    standIn.starTransactions.push({
      id: 'charge-stray',
      amount: 20,
      date: Math.floor(Date.now() / 1000),
      source: { type: 'user', user: { id: player.telegramId }, invoice_payload: 'stray' },
    });
    await reconcileStarPayments(new Date());
    await Promise.all([runAlertRound(api, 'a', new Date()), runAlertRound(api, 'b', new Date())]);
    await runAlertRound(api, 'a', new Date());
    expect(textsTo(8401).filter((text) => text.includes('Stars'))).toEqual([
      'A payment of 20 Stars (charge charge-stray) names no purchase: nothing was granted. Check it, and refund it in Telegram if due.',
    ]);
    expect(textsTo(8402).filter((text) => text.includes('Stars'))).toEqual([]);
  });
});

describe('a brake change waiting', () => {
  it('tells each operator who may decide it once, in their language, never the one who asked nor the others', async () => {
    const asker = await linkedOperator(['gift-coins:write'], 8501);
    await linkedOperator(['gift-coins:write'], 8502);
    const persian = await linkedOperator(['gift-coins:write'], 8503);
    await persian.console.put('/alerts/me', { kinds: ['approvals'], language: 'fa' });
    await linkedOperator(['gift-coins:read', 'missions:write'], 8504);

    // the dashboard's live figures were recounted just before the change was asked
    await refreshLiveFigures(new Date(), { force: true });
    // a coin's gift brake turned off (0: never) waits for a second operator
    const coin = await asker.console.post('/gift-coins', { name: 'Points', symbol: 'LOOSE', network: 'jetton', giftApprovalAbove: '0' });
    expect(coin.body.waitingChange).toMatchObject({ id: expect.any(String) });
    const told = (chatId: number) => textsTo(chatId).filter((text) => text.includes('LOOSE'));

    // an alert pass reads the brake changes the live figures hold, not the records they wait on: the change arrives with the
    // next recount (the figures job's, every 30 s)
    // (the coins and App Config are read by the hot wallet's and the payouts' alerts too: the brake reads only of the others)
    const brakeReads = /^(missions|stakingcoins|staroffers|leagueweeks)\.find/;
    const pass = await commandsDuring(() => runAlertRound(api, 'a', new Date()));
    expect(pass).toContain('livefigures.findOne');
    expect(pass.filter((command) => brakeReads.test(command))).toEqual([]);
    expect(told(8502)).toEqual([]);

    await refreshLiveFigures(new Date(), { force: true });
    await Promise.all(['a', 'b', 'c'].map((holder) => runAlertRound(api, holder, new Date())));
    await runAlertRound(api, 'a', new Date());

    expect(told(8502)).toEqual([
      `${asker.account.username} asked to change the brakes of coin LOOSE, loosening a money brake: it waits for your approval (Gift Coins in the console).`,
    ]);
    expect(told(8503)).toEqual([
      `${asker.account.username} تغییر ترمزهای سکهٔ LOOSE را خواسته که یک ترمز پولی را شل می‌کند و منتظر تأیید شماست (سکه‌های هدیه در کنسول).`,
    ]);
    // the asker, and an operator who reads the coins but decides only missions
    expect(told(8501)).toEqual([]);
    expect(told(8504)).toEqual([]);
    expect((await asker.console.get('/alerts/me')).body.available).toEqual(['approvals']);
  });
});

describe('GET /api/admin/alerts/counts', () => {
  it('answers only what the permissions allow, through indexed counts and no list read', async () => {
    await pendingClaim();
    // the live figures as the figures job keeps them (recounted every 30 s): the badge reads their brake changes
    await refreshLiveFigures(new Date(), { force: true });
    const reviewer = consoleApi(app, (await createOperator(['user-missions:read'])).token);
    const everything = consoleApi(app, (await createOperator(['*'])).token);

    // what the token check reads (the account, its session) is left out: the rest is the endpoint's own
    const signIn = new Set(['accounts', 'operatorsessions']);
    const sent: Array<{ collection: string; method: string }> = [];
    const previous = mongoose.get('debug') as unknown as (...args: unknown[]) => void;
    mongoose.set('debug', (collection: string, method: string, ...args: unknown[]) => {
      if (!signIn.has(collection)) sent.push({ collection, method });
      previous(collection, method, ...args);
    });
    const own = await reviewer.get('/alerts/counts');
    const reviewerCommands = sent.splice(0);
    const all = await everything.get('/alerts/counts');
    mongoose.set('debug', previous as never);

    expect(own.body).toEqual({ id: 'counts', claims: expect.any(Number) });
    expect(own.body.claims).toBeGreaterThan(0);
    expect(Object.keys(all.body).sort()).toEqual(['approvals', 'claims', 'id', 'payoutsStopped', 'withdrawals']);
    // the reviewer's answer: one count of the claims waiting, nothing else
    expect(reviewerCommands).toEqual([{ collection: 'usermissions', method: 'countDocuments' }]);
    // everyone's: four counts, the App Config record and the live figures (each count's index is checked by test/queryPlans.ts
    // after this file)
    expect(sent.map((command) => `${command.collection}.${command.method}`).sort()).toEqual([
      'accountgrants.countDocuments',
      'appconfigs.findOne',
      'giftapprovals.countDocuments',
      'livefigures.findOne',
      'usermissions.countDocuments',
      'withdrawals.countDocuments',
    ]);
  });

  it('counts the brake changes waiting for the operator among their approvals, as the dashboard counts them', async () => {
    const asker = await createOperator(['gift-coins:write']);
    const second = consoleApi(app, (await createOperator(['gift-coins:write'])).token);
    const missionsOnly = consoleApi(app, (await createOperator(['missions:write'])).token);
    const before = (await second.get('/alerts/counts')).body.approvals;
    expect(before).toEqual(expect.any(Number));

    const coin = await consoleApi(app, asker.token).post('/gift-coins', {
      name: 'Badge',
      symbol: 'BADGE',
      network: 'jetton',
      giftApprovalAbove: '0',
    });
    expect(coin.body.waitingChange).toMatchObject({ id: expect.any(String) });
    // counted with the live figures' next recount, as the dashboard's card is
    await refreshLiveFigures(new Date(), { force: true });
    const dashboard = await second.get('/dashboard');
    expect(dashboard.body.changesWaiting.newest.map((change: { name: string }) => change.name)).toContain('BADGE');
    expect((await second.get('/alerts/counts')).body.approvals).toBe(before + 1);
    // not for the operator who asked, nor for one who decides another resource's changes only
    const asked = (await consoleApi(app, asker.token).get('/alerts/counts')).body.approvals;
    expect(asked).toBe(before);
    expect((await missionsOnly.get('/alerts/counts')).body).toEqual({ id: 'counts', approvals: 0 });
  });
});
