import { Address } from '@ton/core';
import { Types } from 'mongoose';
import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { networkKey } from '../../lib/clientAddress';
import { AppConfigModel } from '../config/appConfig.model';
import { UserMissionModel } from '../missions/mission.models';
import { UserModel } from '../users/user.model';
import { recordPlayerWallet } from '../users/players.service';
import { upsertFromTelegram } from '../users/users.service';
import { WalletLinkModel } from '../wallet/wallet.models';
import { WithdrawalModel } from '../withdrawals/withdrawal.model';
import { createCoin, createPlayer } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { silentLogger, testEnv } from '../../../test/helpers';
import { assessDuePlayers, assessPlayer } from './risk.service';
import { estimatedTelegramSignUp } from './riskRules';

const NOW = new Date('2026-11-20T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const DAY = 86_400_000;

type Assessed = NonNullable<Awaited<ReturnType<typeof assessPlayer>>>;
const signalOf = (risk: Assessed, signal: string) => risk.signals.find((s) => s.signal === signal);

/** Friends of a referrer, joined at the given times, who did `missions` missions each. */
async function friendsOf(referrer: { _id: unknown }, joinedAt: Date[], missions = 0) {
  for (const createdAt of joinedAt)
    await createPlayer({ referrer: referrer._id, createdAt, missionsCount: missions, doneMissionsCount: missions });
}

describe('the risk score', () => {
  it('finds a farm: 50 accounts joining one referrer within a minute, several in the same second, none doing anything', async () => {
    const referrer = await createPlayer({ createdAt: ago(30 * DAY) });
    await friendsOf(
      referrer,
      Array.from({ length: 50 }, (_, i) => ago(10 * 60_000 - Math.floor(i / 5) * 5_000)),
    );
    const risk = (await assessPlayer(referrer._id, NOW))!;
    expect(risk.level).toBe('high');
    expect(signalOf(risk, 'friendBurst')).toMatchObject({
      strength: 1,
      points: 30,
      evidence: { perMinute: 50, friends: 50 },
      cluster: { referrer: String(referrer._id) },
    });
    expect(signalOf(risk, 'sameSecondJoins')).toMatchObject({ strength: 1, evidence: { sameSecond: 5 } });
    expect(signalOf(risk, 'idleFriends')).toMatchObject({ strength: 1, evidence: { idle: 50, friends: 50 } });
    // kept on the player, as the console shows it
    expect((await UserModel.findById(referrer._id).lean())!.risk).toMatchObject({ score: risk.score, level: 'high' });
  });

  it('keeps an honest player with 5 real friends low', async () => {
    const honest = await createPlayer({ createdAt: ago(60 * DAY), isPremium: true });
    await friendsOf(
      honest,
      [40, 31, 20, 9, 2].map((days) => ago(days * DAY)),
      3,
    );
    const risk = (await assessPlayer(honest._id, NOW))!;
    expect(risk).toMatchObject({ score: 0, level: 'low', signals: [] });
  });

  it('finds a wallet moved between players, and the console finds both by the wallet in any of its forms', async () => {
    const raw = `0:${'c7'.repeat(32)}`;
    const first = await createPlayer();
    const second = await createPlayer();
    await recordPlayerWallet(first._id, raw, ago(DAY));
    // the first player unlinked it; the second linked it
    await WalletLinkModel.create({ address: raw, user: second._id, network: '-239' });
    await recordPlayerWallet(second._id, raw, NOW);
    expect((await UserModel.findById(first._id).lean())!.riskDueAt).toEqual(ago(DAY));

    const risk = (await assessPlayer(second._id, NOW))!;
    expect(signalOf(risk, 'sharedWallet')).toMatchObject({
      points: 35,
      evidence: { players: 1, address: raw },
      cluster: { walletAddresses: raw },
    });
    expect(risk.level).toBe('review');

    const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
    const api = consoleApi(app, (await createOperator(['users:read'])).token);
    const friendly = Address.parseRaw(raw).toString({ bounceable: false });
    for (const typed of [friendly, raw.toUpperCase(), raw.slice(0, 20)]) {
      const found = await api.get('/users', { filter: { q: typed } });
      expect([typed, found.body.map((u: { id: string }) => u.id).sort()]).toEqual([typed, [String(first._id), String(second._id)].sort()]);
    }
    const cluster = await api.get('/users', { filter: { walletAddresses: raw } });
    expect(cluster.body).toHaveLength(2);
  });

  it('finds a burst of players from one network (IPv4 /24, IPv6 /64)', async () => {
    expect(networkKey('203.0.113.7')).toBe(networkKey('203.0.113.200'));
    expect(networkKey('::ffff:203.0.113.9')).toBe(networkKey('203.0.113.7'));
    expect(networkKey('203.0.114.7')).not.toBe(networkKey('203.0.113.7'));
    expect(networkKey('2001:db8:1:2::5')).toBe(networkKey('2001:db8:1:2:ffff::1'));
    expect(networkKey('2001:db8:1:3::5')).not.toBe(networkKey('2001:db8:1:2::5'));

    // twelve first launches from one network in six minutes, through the registration itself
    const launches = [];
    for (let i = 0; i < 12; i++) {
      const launch = { user: { id: 7_000_000 + i, first_name: `Burst ${i}` }, auth_date: Math.floor(NOW.getTime() / 1000) };
      launches.push(await upsertFromTelegram(launch, new Date(NOW.getTime() + i * 30_000), networkKey(`198.51.100.${i + 1}`)));
    }
    const elsewhere = await upsertFromTelegram(
      { user: { id: 7_100_000, first_name: 'Elsewhere' }, auth_date: 0 },
      NOW,
      networkKey('192.0.2.1'),
    );
    const risk = (await assessPlayer(launches[5]!.user._id, NOW))!;
    expect(signalOf(risk, 'networkBurst')).toMatchObject({ strength: 1, points: 25, evidence: { players: 12, minutes: 10 } });
    expect(risk.level).toBe('review');
    expect(signalOf((await assessPlayer(elsewhere.user._id, NOW))!, 'networkBurst')).toBeUndefined();
  });

  it('finds claims faster than a person, a withdrawal to a wallet linked minutes before, and a new Telegram account', async () => {
    const coin = await createCoin();
    // an id Telegram handed out this year, in an account that joined the day it was made
    const bot = await createPlayer({ telegramId: 9_300_000_000, createdAt: NOW });
    expect(estimatedTelegramSignUp(9_300_000_000)!.getTime()).toBeGreaterThan(Date.parse('2026-06-01'));
    expect(estimatedTelegramSignUp(100_000_000)!.getFullYear()).toBe(2014);
    for (let i = 0; i < 6; i++)
      await UserMissionModel.create({
        user: bot._id,
        mission: new Types.ObjectId(),
        category: new Types.ObjectId(),
        coin: coin._id,
        status: 'done',
        startedAt: ago(i * 60_000),
        claimedAt: new Date(ago(i * 60_000).getTime() + 800),
      });
    const raw = `0:${'d1'.repeat(32)}`;
    await WalletLinkModel.create({ address: raw, user: bot._id, network: '-239', linkedAt: ago(5 * 60_000) });
    await WithdrawalModel.create({
      user: bot._id,
      coin: coin._id,
      amount: Number(toMicros('3')),
      address: Address.parseRaw(raw).toString({ bounceable: false }),
      status: 'pending',
      idempotencyKey: `${String(bot._id)}:fresh`,
      createdAt: ago(2 * 60_000),
    });
    const risk = (await assessPlayer(bot._id, NOW))!;
    expect(signalOf(risk, 'fastClaims')).toMatchObject({ evidence: { fast: 6, claims: 6 } });
    expect(signalOf(risk, 'freshWalletWithdrawal')).toMatchObject({ points: 20 });
    expect(signalOf(risk, 'newAccount')).toMatchObject({ points: 10, evidence: { ageDays: expect.any(Number) } });
    expect(risk).toMatchObject({ score: 45, level: 'review' });
  });

  it('finds a deep, wide referral tree from the counts its players keep, and says how deep', async () => {
    const top = await createPlayer({ isPremium: true, createdAt: ago(200 * DAY) });
    // eight friends over weeks, each active, each with friends of their own (counted), one of them with a tree below too
    const friends = [];
    for (let i = 0; i < 8; i++)
      friends.push(await createPlayer({ referrer: top._id, createdAt: ago((100 - i * 10) * DAY), missionsCount: 4, referrersCount: 12 }));
    await createPlayer({ referrer: friends[0]!._id, createdAt: ago(5 * DAY), missionsCount: 1, referrersCount: 40 });
    const risk = (await assessPlayer(top._id, NOW))!;
    expect(signalOf(risk, 'deepTree')).toMatchObject({ evidence: { firstLevel: 8, secondLevel: 96, thirdLevel: 40 }, points: 6 });
    // an honest referrer's other signals stay quiet: only the tree speaks
    expect(risk.signals.map((s) => s.signal)).toEqual(['deepTree']);
    expect(risk.level).toBe('low');
  });

  it('reads its weights and levels from App Config', async () => {
    const raw = `0:${'e2'.repeat(32)}`;
    const [first, second] = [await createPlayer({ isPremium: true }), await createPlayer({ isPremium: true })];
    await recordPlayerWallet(first._id, raw, NOW);
    await recordPlayerWallet(second._id, raw, NOW);
    expect((await assessPlayer(second._id, NOW))!).toMatchObject({ score: 35, level: 'review' });
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { 'risk.weights.sharedWallet': 70 } }, { upsert: true });
    expect((await assessPlayer(second._id, NOW))!).toMatchObject({ score: 70, level: 'high' });
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { 'risk.weights.sharedWallet': 0 } });
    expect((await assessPlayer(second._id, NOW))!).toMatchObject({ score: 0, level: 'low', signals: [] });
    await AppConfigModel.updateOne({ key: 'app' }, { $unset: { risk: 1 } });
  });

  it('assesses again, in the sweep, the players whose records changed: a newcomer and their referrer', async () => {
    const referrer = await createPlayer();
    await UserModel.updateMany({}, { $set: { riskDueAt: null } });
    const newcomer = await upsertFromTelegram(
      { user: { id: 7_200_000, first_name: 'New' }, auth_date: 0, start_param: referrer.referralCode },
      NOW,
    );
    expect(await assessDuePlayers(new Date(NOW.getTime() + 1))).toBe(2);
    for (const id of [referrer._id, newcomer.user._id])
      expect((await UserModel.findById(id).lean())!).toMatchObject({ riskDueAt: null, risk: { assessedAt: new Date(NOW.getTime() + 1) } });
    expect(await assessDuePlayers(new Date(NOW.getTime() + 2))).toBe(0);
  });
});
