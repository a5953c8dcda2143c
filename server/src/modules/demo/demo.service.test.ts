import {
  BOOST_KINDS,
  coverInput,
  giftCoinInput,
  missionInput,
  partnerInput,
  stakingCoinInput,
  starOfferInput,
  VERIFY_TYPES,
} from '@gift/shared';
import { playerCaller } from '../../../test/factories';
import { silentLogger } from '../../../test/helpers';
import { GiftCoinModel } from '../coins/giftCoin.model';
import { AppConfigModel } from '../config/appConfig.model';
import { CategoryModel, CoverModel, PartnerModel } from '../content/content.models';
import { BalanceModel, LedgerEntryModel } from '../ledger/ledger.models';
import { LeagueWeekModel, StandingModel } from '../leagues/leagues.models';
import { MissionModel, UserMissionModel } from '../missions/mission.models';
import { StakingCoinModel } from '../staking/staking.models';
import { StarOfferModel } from '../shop/shop.models';
import { UserModel } from '../users/user.model';
import { seedDemoData, seedPlayers } from './demo.service';

describe('the demo data of the embedded database', () => {
  beforeAll(async () => {
    expect(await seedDemoData(silentLogger)).toBe(true);
  });

  it('is created once however many times the server starts', async () => {
    const counts = () =>
      Promise.all(
        [GiftCoinModel, MissionModel, CategoryModel, UserModel, LedgerEntryModel].map((m: { countDocuments: () => Promise<number> }) =>
          m.countDocuments(),
        ),
      );
    const before = await counts();
    expect(await seedDemoData(silentLogger)).toBe(false);
    const after = await counts();
    expect(after).toEqual(before);
    expect(await GiftCoinModel.distinct('symbol')).toEqual(expect.arrayContaining(['TON', 'GIFT', 'STAR']));
  });

  it('has a mission of every verify type, and ⭐ missions a new player can finish', async () => {
    const enabled = await MissionModel.find({ enabled: true }).lean();
    expect(new Set(enabled.map((m) => m.verifyType))).toEqual(new Set(VERIFY_TYPES));
    const stars = enabled.filter((m) => m.mustDone);
    expect(stars.length).toBeGreaterThanOrEqual(2);
    // a ⭐ mission the bot cannot check would lock every demo player out of the rest
    expect(stars.every((m) => ['auto', 'time'].includes(m.verifyType))).toBe(true);
  });

  it('keeps the YouTube code on the server and gives Telegram missions a public channel', async () => {
    const youtube = await MissionModel.findOne({ verifyType: 'youtube' }).select('+secretCode').lean();
    expect(youtube!.secretCode).not.toBe('');
    expect(JSON.stringify((await MissionModel.findById(youtube!._id))!.toJSON())).not.toContain(youtube!.secretCode);
    for (const mission of await MissionModel.find({ verifyType: 'telegram' }).lean())
      expect(mission.link).toMatch(/^https:\/\/t\.me\/[A-Za-z0-9_]{4,}$/);
  });

  it('passes the same checks an operator saving it in the console would', async () => {
    const asInput = (doc: { toJSON: () => Record<string, unknown> }) => doc.toJSON();
    for (const coin of await GiftCoinModel.find()) expect(giftCoinInput.safeParse(asInput(coin)).success).toBe(true);
    for (const mission of await MissionModel.find().select('+secretCode')) {
      const json = { ...asInput(mission), secretCode: mission.secretCode || undefined };
      expect(missionInput.safeParse(json).error).toBeUndefined();
    }
    for (const offer of await StakingCoinModel.find()) expect(stakingCoinInput.safeParse(asInput(offer)).error).toBeUndefined();
    for (const cover of await CoverModel.find()) expect(coverInput.safeParse(asInput(cover)).error).toBeUndefined();
    for (const partner of await PartnerModel.find()) expect(partnerInput.safeParse(asInput(partner)).error).toBeUndefined();
    const offers = await StarOfferModel.find();
    expect(offers.map((offer) => offer.kind).sort()).toEqual([...BOOST_KINDS].sort());
    for (const offer of offers) expect(starOfferInput.safeParse(asInput(offer)).error).toBeUndefined();
  });

  it('configures referrals and mining in GIFT', async () => {
    const config = (await AppConfigModel.findOne({ key: 'app' }))!.toJSON();
    const gift = await GiftCoinModel.findOne({ symbol: 'GIFT' }).lean();
    expect(config).toMatchObject({
      botUsername: 'GiftRewardsBot',
      miniAppName: 'app',
      referrerCoin: String(gift!._id),
      referrerCoinAmount: '50',
      miningCoin: String(gift!._id),
      earnDurationHours: 8,
      earnAmount: '240',
      defaultInviteLimit: 100,
    });
  });

  it('gives every demo player a balance equal to the sum of their ledger, and counters that match their missions', async () => {
    const players = await UserModel.find().lean();
    expect(players.length).toBeGreaterThanOrEqual(3);
    const entries = await LedgerEntryModel.find({ state: 'posted' }).lean();
    expect(entries.length).toBeGreaterThan(10);
    const balances = await BalanceModel.find().lean();
    let checked = 0;
    for (const player of players) {
      const totals = new Map<string, bigint>();
      for (const entry of entries.filter((e) => String(e.user) === String(player._id))) {
        totals.set(String(entry.coin), (totals.get(String(entry.coin)) ?? 0n) + BigInt(entry.amount));
      }
      const held = balances.filter((b) => String(b.user) === String(player._id));
      expect(new Map(held.map((b) => [String(b.coin), BigInt(b.amount)]))).toEqual(totals);
      checked += held.length;
      const missions = await UserMissionModel.find({ user: player._id }).lean();
      expect(player.missionsCount).toBe(missions.length);
      expect(player.doneMissionsCount).toBe(missions.filter((m) => m.status === 'done').length);
      expect(player.referrersCount).toBe(players.filter((p) => String(p.referrer) === String(player._id)).length);
    }
    expect(checked).toBeGreaterThan(0);
    expect(balances.every((b) => b.amount >= 0)).toBe(true);
  });

  it('spreads the demo players over the last days so the dashboard trend has a shape', async () => {
    const days = new Set((await UserModel.find().lean()).map((p) => p.createdAt.toISOString().slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(3);
  });

  it('leaves the console something to review: a pending manual mission', async () => {
    expect(await UserMissionModel.countDocuments({ status: 'pending' })).toBeGreaterThan(0);
  });

  it("gives the demo a league board this week: a few dozen players ranked, a demo player among them, and the week's prizes", async () => {
    const player = (await UserModel.findOne({ telegramId: { $lt: 7_100_000_000 } }))!;
    const board = await playerCaller(player).leagues.current();
    expect(board.league).toBe('bronze');
    expect(board.entries).toHaveLength(10);
    expect(board.me.rank).toEqual(expect.any(Number));
    expect(board.around.length).toBeGreaterThanOrEqual(4);
    expect(await StandingModel.countDocuments({ week: board.week })).toBeGreaterThanOrEqual(36);
    const week = (await LeagueWeekModel.findOne({ week: board.week }).lean())!;
    expect(week.prizes.map((prize) => [prize.league, prize.fromRank, prize.toRank])).toEqual([
      ['bronze', 1, 1],
      ['bronze', 2, 3],
      ['bronze', 4, 10],
      ['silver', 1, 3],
    ]);
  });

  it('inserts many benchmark players in batches, each a distinct Telegram id', async () => {
    const before = await UserModel.countDocuments();
    const seeded = await seedPlayers(2500, 1000);
    expect(seeded).toHaveLength(2500);
    expect(new Set(seeded.map((p) => p.telegramId)).size).toBe(2500);
    expect(await UserModel.countDocuments()).toBe(before + 2500);
    const more = await seedPlayers(10);
    expect(Math.min(...more.map((p) => p.telegramId))).toBeGreaterThan(Math.max(...seeded.map((p) => p.telegramId)));
  });
});
