import mongoose from 'mongoose';
import request from 'supertest';
import { toMicros } from '@gift/shared';
import { createApp } from '../app';
import { CategoryModel } from '../modules/content/content.models';
import { LedgerEntryModel } from '../modules/ledger/ledger.models';
import { MissionModel, UserMissionModel } from '../modules/missions/mission.models';
import { createCoin, createPlayer } from '../../test/factories';
import { silentLogger, testEnv } from '../../test/helpers';
import { startDatabaseProxy, type DatabaseProxy } from '../../test/databaseProxy';
import { expectLedgerMatchesBalances } from '../../test/ledgerInvariant';
import { createOperator } from '../../test/operators';
import { tmaHeader } from '../../test/telegram';
import { connectionOptions, withDatabaseName } from './connect';

/**
 * The app talks to this file's database through a TCP proxy that can cut the connection (a database down or
 * unreachable) or hang it (a database or link that stops answering), connected with the product's own options.
 * Bounds on time are generous: they tell an answer in seconds from a hang, not how fast it is.
 */
const ANSWERS_WITHIN_MS = 15_000;

describe('database trouble', () => {
  const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
  let proxy: DatabaseProxy;
  let direct: string;

  beforeAll(async () => {
    direct = withDatabaseName(process.env.TEST_MONGO_URL!, mongoose.connection.name);
    proxy = await startDatabaseProxy(direct);
    await mongoose.disconnect();
    await mongoose.connect(proxy.uri, connectionOptions(proxy.uri));
  });

  afterAll(async () => {
    proxy.restore();
    await mongoose.disconnect();
    await mongoose.connect(direct);
    await proxy.close();
  });

  afterEach(async () => {
    proxy.restore();
    await databaseBack();
  });

  /** Waits until /healthz says the database is back, as a load balancer would. */
  async function databaseBack() {
    const giveUp = Date.now() + 30_000;
    while ((await request(app).get('/healthz')).status !== 200) {
      if (Date.now() > giveUp) throw new Error('the database did not come back within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function autoMission() {
    const [coin, category] = await Promise.all([createCoin(), CategoryModel.create({ title: 'Outage' })]);
    const mission = new MissionModel();
    mission.set({ category: category._id, coin: coin._id, title: 'Join us', link: 'https://example.com', reward: '3', verifyType: 'auto' });
    await mission.save();
    return { coin, mission };
  }

  const claim = (player: { telegramId: number; username?: string | null }, missionId: string) =>
    request(app)
      .post('/trpc/missions.claim')
      .set('Authorization', tmaHeader({ user: { id: player.telegramId, first_name: 'Test', username: player.username ?? undefined } }))
      .send({ json: { missionId } });

  /** What a player's app and an operator's console get while the database is in trouble, and how long it takes. */
  async function callsDuringTrouble(player: { telegramId: number }, token: string) {
    const started = Date.now();
    const [home, users, health] = await Promise.all([
      request(app)
        .get('/trpc/home.get')
        .set('Authorization', tmaHeader({ user: { id: player.telegramId, first_name: 'Test' } })),
      request(app).get('/api/admin/users').set('Authorization', `Bearer ${token}`),
      request(app).get('/healthz'),
    ]);
    return { home, users, health, ms: Date.now() - started };
  }

  function expectServiceUnavailable({ home, users, health, ms }: Awaited<ReturnType<typeof callsDuringTrouble>>) {
    expect(ms).toBeLessThan(ANSWERS_WITHIN_MS);
    // the player's app: 503 with the product's code, which it translates, and when to retry
    expect(home.status).toBe(503);
    expect(home.headers['retry-after']).toBe('5');
    expect(home.body.error.json).toMatchObject({
      message: 'The service is briefly unavailable, try again in a few seconds',
      data: { appCode: 'UNAVAILABLE', httpStatus: 503 },
    });
    // the console: the same error, in its REST shape
    expect(users.status).toBe(503);
    expect(users.headers['retry-after']).toBe('5');
    expect(users.body).toEqual({ message: 'The service is briefly unavailable, try again in a few seconds', code: 'UNAVAILABLE' });
    // the health check answers, and says why it fails
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'degraded', database: 'down', reason: expect.any(String) });
  }

  it('answers 503 with a retry hint within seconds while the database is cut off, and serves again once it is back', async () => {
    const player = await createPlayer();
    const { token } = await createOperator();
    proxy.cut();
    expectServiceUnavailable(await callsDuringTrouble(player, token));
    proxy.restore();
    await databaseBack();
    await request(app).get('/api/admin/users').set('Authorization', `Bearer ${token}`).expect(200);
  });

  it('answers 503 with a retry hint within seconds while the database hangs, and /healthz says it did not answer', async () => {
    const player = await createPlayer();
    const { token } = await createOperator();
    proxy.hang();
    const answers = await callsDuringTrouble(player, token);
    expectServiceUnavailable(answers);
    expect(answers.health.body.reason).toBe('no answer to a ping within 2000 ms');
    proxy.restore();
    await databaseBack();
    await request(app).get('/api/admin/users').set('Authorization', `Bearer ${token}`).expect(200);
  });

  it('credits a claim refused during a cut once, when the player retries after it', async () => {
    const player = await createPlayer();
    const { coin, mission } = await autoMission();
    proxy.cut();
    const refused = await claim(player, String(mission._id));
    expect(refused.status).toBe(503);
    proxy.restore();
    await databaseBack();
    const retried = await claim(player, String(mission._id));
    expect(retried.status).toBe(200);
    expect(await claim(player, String(mission._id)).then((res) => res.body.error.json.data.appCode)).toBe('ALREADY_DONE');

    const balances = await expectLedgerMatchesBalances(player._id);
    expect(balances.get(String(coin._id))).toBe(toMicros('3'));
    expect(await LedgerEntryModel.countDocuments({ user: player._id })).toBe(1);
  });

  it('credits every player once when their claims are cut off mid-flight and retried until answered', async () => {
    const players = await Promise.all(Array.from({ length: 12 }, () => createPlayer()));
    const { coin, mission } = await autoMission();
    const missionId = String(mission._id);
    const first = Promise.all(players.map((player) => claim(player, missionId)));
    // the cut falls once a few claims are credited: others are half-way or not started
    while ((await LedgerEntryModel.countDocuments({ coin: coin._id })) < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    proxy.cut();
    const statuses = (await first).map((res) => res.status);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    proxy.restore();
    await databaseBack();

    // each player taps Claim again until the app shows an answer: a credit, or 'Already done' when the first one landed
    for (const player of players) {
      const again = await claim(player, missionId);
      expect([200, 409]).toContain(again.status);
      if (again.status === 409) expect(again.body.error.json.data.appCode).toBe('ALREADY_DONE');
    }
    for (const player of players) {
      const balances = await expectLedgerMatchesBalances(player._id);
      expect(balances.get(String(coin._id))).toBe(toMicros('3'));
      expect(await UserMissionModel.findOne({ user: player._id, mission: mission._id }).lean()).toMatchObject({ status: 'done' });
    }
    expect(await LedgerEntryModel.countDocuments({ reason: 'mission', coin: coin._id })).toBe(players.length);
  });
});
