import { performance } from 'node:perf_hooks';
import request from 'supertest';
import { createApp } from './app';
import { AppConfigModel } from './modules/config/appConfig.model';
import { CategoryModel, CoverModel, PartnerModel } from './modules/content/content.models';
import { MissionModel } from './modules/missions/mission.models';
import { UserModel } from './modules/users/user.model';
import { createCoin, createPlayer } from '../test/factories';
import { silentLogger, testEnv } from '../test/helpers';
import { tmaHeader } from '../test/telegram';
import { databaseCommandsDuring, monitorDatabaseCommands } from '../test/commandCount';

/**
 * The hot calls' budgets of database commands (issue 33): each call's commands, counted through the driver's command
 * monitoring over the app's HTTP door (sign-in, rate limits and all), each command counted, those sent together included.
 * A change that adds a command to one of them fails here, naming the call and listing what it sent.
 */
const BUDGETS = {
  'home.get': 5,
  'home.currency': 5,
  'missions.claim (first claim, Auto ⭐)': 12,
} as const;

/** Commands that write: a read-only call sends none (its rate limit is counted in memory). */
const WRITES = /^(insert|update|delete|findAndModify)\b/;

function expectWithinBudget(call: keyof typeof BUDGETS, commands: string[]) {
  const budget = BUDGETS[call];
  if (commands.length > budget)
    throw new Error(`${call} sent ${commands.length} database commands, over its budget of ${budget}:\n  ${commands.join('\n  ')}`);
}

beforeAll(monitorDatabaseCommands);
// the App Config's and the coins' short-lived copies live while the clock stands still: the counts do not depend on the machine's speed
afterEach(() => jest.restoreAllMocks());

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

/** What the demo gives a home: a cover, a partner, a category with missions (an Auto ⭐ among them), a streak milestone. */
async function seedHome() {
  const coin = await createCoin({ symbol: 'GIFT', usdPrice: '0.5' });
  const category = await CategoryModel.create({ title: 'Social' });
  await CoverModel.create({ title: 'Welcome', image: 'https://img.example/c.png' });
  await PartnerModel.create({ name: 'Partner', image: 'https://img.example/p.png' });
  const [star] = await MissionModel.create([
    {
      category: category._id,
      coin: coin._id,
      title: 'Join',
      reward: 1_000_000,
      verifyType: 'auto',
      mustDone: true,
      link: 'https://example.com',
    },
    {
      category: category._id,
      coin: coin._id,
      title: 'Watch',
      reward: 2_000_000,
      verifyType: 'time',
      verifyDuration: 1,
      link: 'https://example.com',
    },
  ]);
  await AppConfigModel.findOneAndUpdate(
    { key: 'app' },
    { $set: { streakMilestones: [{ days: 3, coin: coin._id, amount: 5_000_000 }] } },
    { upsert: true, setDefaultsOnInsert: true },
  );
  return { coin, star: star! };
}

/** A returning player who opened the app a moment ago (their launch's refresh is done), signed in as the Mini App does. */
async function returningPlayer() {
  const player = await createPlayer({ lastSeenAt: new Date() });
  const authorization = tmaHeader({ user: { id: player.telegramId, first_name: 'Test', username: player.username } });
  // the first launch in a minute refreshes the player; the calls measured are the ones after it
  await request(app).get('/trpc/home.get').set('Authorization', authorization).expect(200);
  return { player, authorization };
}

describe('database commands of the hot calls', () => {
  it('home sends at most 5, writing nothing; home.currency at most 5', async () => {
    await seedHome();
    jest.spyOn(performance, 'now').mockReturnValue(performance.now());
    const { authorization } = await returningPlayer();

    const home = await databaseCommandsDuring(() => request(app).get('/trpc/home.get').set('Authorization', authorization));
    expect(home.result.status).toBe(200);
    expect(home.result.body.result.data.json.starMissions).toEqual([expect.objectContaining({ title: 'Join' })]);
    expectWithinBudget('home.get', home.commands);
    expect(home.commands.filter((command) => WRITES.test(command))).toEqual([]);

    const currency = await databaseCommandsDuring(() => request(app).get('/trpc/home.currency').set('Authorization', authorization));
    expect(currency.result.status).toBe(200);
    expect(currency.result.body.result.data.json).toEqual([expect.objectContaining({ symbol: 'GIFT', balance: '0' })]);
    expectWithinBudget('home.currency', currency.commands);
    expect(currency.commands.filter((command) => WRITES.test(command))).toEqual([]);
  });

  it('a first claim sends at most 12, and credits and counts it', async () => {
    const { coin, star } = await seedHome();
    jest.spyOn(performance, 'now').mockReturnValue(performance.now());
    const { player, authorization } = await returningPlayer();

    const claim = await databaseCommandsDuring(() =>
      request(app)
        .post('/trpc/missions.claim')
        .set('Authorization', authorization)
        .send({ json: { missionId: String(star._id) } }),
    );
    expect(claim.result.status).toBe(200);
    expect(claim.result.body.result.data.json).toEqual({ status: 'done', reward: '1', coinId: String(coin._id) });
    expectWithinBudget('missions.claim (first claim, Auto ⭐)', claim.commands);
    expect(await UserModel.findById(player._id, { missionsCount: 1, doneMissionsCount: 1 }).lean()).toMatchObject({
      missionsCount: 1,
      doneMissionsCount: 1,
    });
  });

  it('names the call over its budget and lists its commands', () => {
    expect(() => expectWithinBudget('home.get', ['find users', 'find a', 'find b', 'find c', 'find d', 'find e'])).toThrow(
      'home.get sent 6 database commands, over its budget of 5:\n  find users\n  find a',
    );
  });
});
