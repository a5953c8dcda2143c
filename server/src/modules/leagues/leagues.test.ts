import { randomBytes } from 'node:crypto';
import type { Types } from 'mongoose';
import { fromMicros, toMicros, type LedgerReason } from '@gift/shared';
import { createApp } from '../../app';
import { onFault } from '../../lib/faults';
import { setAppConfigFields } from '../config/config.service';
import { balanceOf, postEntry, recoverPendingEntries } from '../ledger/ledger.service';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { NotificationModel } from '../notifications/notification.model';
import { setPlayerStatus } from '../users/playerStatus.service';
import { refreshLiveFigures } from '../dashboard/dashboard.service';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator } from '../../../test/operators';
import { commandsDuring } from '../../../test/queryPlans';
import { leagueWeekOf } from './leagueWeek';
import { closeEndedWeeks } from './leaguePrizes.service';
import { LeagueWeekModel, RankCountsModel, SeatModel, StandingModel } from './leagues.models';
import { followLeftScores, MOVE_LEASE_MS } from './rankCounts.service';
import { COUNT_LAG_MS, countStandings, leagueRules, rankOf, SETTLE_AFTER_MS } from './standings.service';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

/** A credit of `amount` to the player for `reason`, as the product's own credits are made. */
const earn = (user: { _id: Types.ObjectId }, coin: { _id: Types.ObjectId }, amount: string, reason: LedgerReason = 'mission') =>
  postEntry({
    userId: user._id,
    coinId: coin._id,
    amount: toMicros(amount),
    reason,
    idempotencyKey: `earn:${randomBytes(6).toString('hex')}`,
  });

/** A league coin (the mining coin) whose gift approval threshold is 100. */
async function leagueCoin() {
  const coin = await createCoin({ giftApprovalAbove: '100' });
  await setAppConfigFields({ miningCoin: coin._id, timezone: 'Asia/Tehran' });
  return coin;
}

/** Counts every line written so far, as the job's pass after the lag would. */
const countNow = async () => countStandings(new Date(Date.now() + COUNT_LAG_MS + 1000), await leagueRules());

/** A moment after which the current week is over and settled. */
const afterTheWeek = async () => new Date(leagueWeekOf(new Date(), (await leagueRules()).timezone).end.getTime() + SETTLE_AFTER_MS + 1000);

/** Players with these earnings this week, in order. */
async function playersEarning(coin: { _id: Types.ObjectId }, amounts: string[]) {
  const players = await Promise.all(amounts.map(() => createPlayer({ messagePermission: true })));
  for (const [i, amount] of amounts.entries()) await earn(players[i]!, coin, amount);
  return players;
}

afterEach(() => onFault(null));
// each test plays a week of its own
beforeEach(() =>
  Promise.all([LeagueWeekModel.deleteMany({}), StandingModel.deleteMany({}), SeatModel.deleteMany({}), RankCountsModel.deleteMany({})]),
);

describe('league weeks', () => {
  it('run Monday to Monday in the App Config timezone, a clock change included', () => {
    // Tehran is UTC+3:30: Monday 30 November begins at 20:30 UTC on Sunday
    expect(leagueWeekOf(new Date('2026-11-29T20:29:59Z'), 'Asia/Tehran').key).toBe('2026-11-23');
    const week = leagueWeekOf(new Date('2026-11-29T20:30:00Z'), 'Asia/Tehran');
    expect([week.key, week.start.toISOString(), week.end.toISOString()]).toEqual([
      '2026-11-30',
      '2026-11-29T20:30:00.000Z',
      '2026-12-06T20:30:00.000Z',
    ]);
    // New York leaves summer time on Sunday 1 November 2026: the week is an hour longer
    const fall = leagueWeekOf(new Date('2026-10-30T12:00:00Z'), 'America/New_York');
    expect([fall.key, fall.start.toISOString(), fall.end.toISOString()]).toEqual([
      '2026-10-26',
      '2026-10-26T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
    ]);
    expect(leagueWeekOf(new Date('2026-11-30T12:00:00Z'), 'UTC').key).toBe('2026-11-30');
  });
});

describe('standings and ranks', () => {
  it('ranks by what each player earned this week in the main coin, counted once however often the ledger is read', async () => {
    const coin = await leagueCoin();
    const other = await createCoin();
    const players = await playersEarning(coin, ['5', '9', '1', '7', '3', '7', '2', '8']);
    const [five] = players;
    // neither a gift nor another coin counts; a second mission reward does
    await earn(five!, coin, '1000', 'gift');
    await earn(five!, other, '1000');
    await earn(five!, coin, '1', 'mining');
    // the job's passes and the player's own reads, any number of times and at once: one figure each
    await Promise.all([countNow(), countNow(), playerCaller(five!).leagues.current()]);
    await countNow();
    const board = await playerCaller(five!).leagues.current();
    expect(board.league).toBe('bronze');
    expect(board.me).toEqual({ rank: 5, score: '6' });
    expect(board.entries.map((entry) => [entry.rank, entry.score])).toEqual([
      [1, '9'],
      [2, '8'],
      [3, '7'],
      [4, '7'],
      [5, '6'],
      [6, '3'],
      [7, '2'],
      [8, '1'],
    ]);
    expect(board.around.map((row) => [row.rank, row.score, row.me])).toEqual([
      [2, '8', false],
      [3, '7', false],
      [4, '7', false],
      [5, '6', true],
      [6, '3', false],
      [7, '2', false],
      [8, '1', false],
    ]);
    // a player who earned nothing yet is in Bronze, unranked
    const idle = await createPlayer();
    expect((await playerCaller(idle).leagues.current()).me).toEqual({ rank: null, score: '0' });
  });

  it('reads a rank and the players around through the index: a few reads, whatever the league holds', async () => {
    const coin = await leagueCoin();
    const players = await playersEarning(
      coin,
      Array.from({ length: 30 }, (_, i) => String(i + 1)),
    );
    await countNow();
    const commands = await commandsDuring(() => playerCaller(players[14]!).leagues.current());
    // the standings are counted and read along their index (the index test of this file checks each query's plan)
    expect(commands.filter((command) => command.startsWith('leaguestandings.')).length).toBeLessThanOrEqual(10);
    const board = await playerCaller(players[14]!).leagues.current();
    expect(board.me.rank).toBe(16);
    expect(board.around.map((row) => row.rank)).toEqual([13, 14, 15, 16, 17, 18, 19]);
  });

  /** Every standing's rank read from the rank counts equals the count over everyone above it (ties by id, as listed). */
  async function expectRanksExact() {
    const standings = await StandingModel.find({}).lean();
    expect(standings.every((standing) => standing.counted === standing.score && !standing.moving)).toBe(true);
    for (const standing of standings) {
      const place = { week: standing.week, league: standing.league, score: standing.score, _id: standing._id };
      const above = standings.filter(
        (other) =>
          other.week === standing.week &&
          other.league === standing.league &&
          (other.score > standing.score || (other.score === standing.score && String(other._id) > String(standing._id))),
      ).length;
      expect(await rankOf(place)).toBe(above + 1);
    }
  }

  it('keeps every rank exact while players earn, pages are read and passes count at once, ties included', async () => {
    const coin = await leagueCoin();
    const players = await playersEarning(coin, ['5', '5', '5', '2', '7', '7', '1', '5', '3', '5']);
    await countNow();
    // more earnings, counted by two passes and by each player's own page at once, several times over
    for (let round = 0; round < 3; round++) {
      // the even ones earn alike (their ties stay ties), the odd ones more each round
      await Promise.all(players.map((player, i) => earn(player, coin, String(i % 2 ? round + 1 : 2))));
      await Promise.all([countNow(), countNow(), ...players.map((player) => playerCaller(player).leagues.current())]);
    }
    await expectRanksExact();
  });

  it('finishes a move of the rank counts a crash cut short, once (never counted twice), by the sweep after the lease', async () => {
    const coin = await leagueCoin();
    const players = await playersEarning(coin, ['4', '9', '1', '6']);
    await countNow();
    await earn(players[2]!, coin, '7');
    // the process dies right after the counts took the move: the standing holds a claimed move, applied, not marked done
    const update = StandingModel.updateOne.bind(StandingModel);
    const spy = jest.spyOn(StandingModel, 'updateOne').mockImplementation(((...args: Parameters<typeof update>) => {
      if (JSON.stringify(args[1]).includes('"counted"')) throw new Error('crash after the counts');
      return update(...args);
    }) as typeof StandingModel.updateOne);
    // the player's own page counts the new earning (the job's pass would too)
    await expect(playerCaller(players[2]!).leagues.current()).rejects.toThrow();
    spy.mockRestore();
    expect((await StandingModel.findOne({ user: players[2]!._id }).lean())!.moving).not.toBeNull();
    // within the lease the move is its writer's: nothing else carries it out
    expect(await followLeftScores(new Date())).toBe(0);
    // after it, the sweep and a pass at once finish it exactly once
    const later = new Date(Date.now() + MOVE_LEASE_MS + 1000);
    await Promise.all([followLeftScores(later), followLeftScores(later)]);
    await expectRanksExact();
    expect((await playerCaller(players[2]!).leagues.current()).me).toEqual({ rank: 2, score: '8' });
    expect(await RankCountsModel.countDocuments({ moves: { $ne: [] } })).toBe(0);
  });

  /** A writer's stall: `hold` parks it until `release`; `reached` resolves once it is parked. */
  function stall() {
    let release!: () => void;
    let arrive!: () => void;
    const reached = new Promise<void>((resolve) => (arrive = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hold = () => {
      arrive();
      return gate;
    };
    return { reached, release, hold };
  }

  it('applies a move once when its writer stalls past the lease while others take it over and finish it', async () => {
    const coin = await leagueCoin();
    const players = await playersEarning(coin, ['4', '9', '1', '6']);
    await countNow();
    await earn(players[2]!, coin, '7');
    // the first two writers to reach the counts with the move stall there (a GC pause, SIGSTOP), each until released
    const stalls = [stall(), stall()];
    const update = RankCountsModel.updateOne.bind(RankCountsModel);
    let stalled = 0;
    const spy = jest.spyOn(RankCountsModel, 'updateOne').mockImplementation(((...args: Parameters<typeof update>) => {
      if (!JSON.stringify(args[1]).includes('"$inc"') || stalled >= stalls.length) return update(...args);
      return stalls[stalled++]!.hold().then(() => update(...args));
    }) as unknown as typeof RankCountsModel.updateOne);
    // the player's page claims the move and stalls before the counts take it
    const first = playerCaller(players[2]!).leagues.current();
    await stalls[0]!.reached;
    // past its lease the sweep takes the move over, and stalls too
    const lease = (n: number) => new Date(Date.now() + n * (MOVE_LEASE_MS + 1000));
    const second = followLeftScores(lease(1));
    await stalls[1]!.reached;
    // past the second lease, a third writer takes it over and finishes it
    await followLeftScores(lease(2));
    expect((await StandingModel.findOne({ user: players[2]!._id }).lean())!.moving).toBeNull();
    // the stalled writers wake, the later first: neither applies the move again
    stalls[1]!.release();
    await second;
    stalls[0]!.release();
    await first;
    spy.mockRestore();
    await expectRanksExact();
    const counts = await RankCountsModel.find({}).lean<Array<{ c: Record<string, number> }>>();
    expect(counts.flatMap((record) => Object.values(record.c)).reduce((sum, count) => sum + count, 0)).toBe(4);
    expect(await RankCountsModel.countDocuments({ moves: { $ne: [] } })).toBe(0);
    expect((await playerCaller(players[2]!).leagues.current()).me).toEqual({ rank: 2, score: '8' });
  });

  it("shows the friends' board: the player, their inviter and the friends they invited", async () => {
    const coin = await leagueCoin();
    const inviter = await createPlayer({ name: 'Inviter' });
    const me = await createPlayer({ name: 'Me', referrer: inviter._id });
    const friend = await createPlayer({ name: 'Friend', referrer: me._id });
    const stranger = await createPlayer({ name: 'Stranger' });
    await earn(inviter, coin, '4');
    await earn(friend, coin, '10');
    await earn(stranger, coin, '50');
    await countNow();
    const board = await playerCaller(me).leagues.friends();
    expect(board.map((row) => [row.rank, row.name, row.score, row.me, row.inviter])).toEqual([
      [1, 'Friend', '10', false, false],
      [2, 'Inviter', '4', false, true],
      [3, 'Me', '0', true, false],
    ]);
  });
});

describe("the week's end", () => {
  it('promotes the top share and relegates the bottom share of each league; players who earned nothing keep theirs', async () => {
    const coin = await leagueCoin();
    const bronze = await playersEarning(coin, ['10', '9', '8', '7', '6', '5', '4', '3', '2', '1']);
    const silver = await Promise.all(Array.from({ length: 5 }, () => createPlayer()));
    const week = leagueWeekOf(new Date(), 'Asia/Tehran').key;
    await SeatModel.insertMany(silver.map((player) => ({ _id: player._id, league: 'silver', week })));
    for (const [i, player] of silver.entries()) await earn(player, coin, String(5 - i));
    await closeEndedWeeks(await afterTheWeek());
    const seats = new Map((await SeatModel.find({}).lean()).map((seat) => [String(seat._id), seat.league]));
    // 20% of 10 go up; Bronze has no bottom
    expect(bronze.map((player) => seats.get(String(player._id)) ?? 'bronze')).toEqual([
      'silver',
      'silver',
      ...Array<string>(8).fill('bronze'),
    ]);
    // 20% of 5 is one up and one down
    expect(silver.map((player) => seats.get(String(player._id)))).toEqual(['gold', 'silver', 'silver', 'silver', 'bronze']);
    expect(await LeagueWeekModel.countDocuments({ week, state: 'closed' })).toBe(1);
  });
});

describe("the leagues' shares in App Config", () => {
  it('are set in the console from 0 to 50 percent, and the next week end moves that share; a bad one changes nothing', async () => {
    const api = consoleApi(app, (await createOperator()).token);
    const current = (await api.get('/app-config/current')).body;
    // (an earlier test of this file chose a mining coin: mining then pays a positive amount)
    const leagues = { promotePercent: 50, relegatePercent: '0' };
    const saved = await api.put('/app-config/current', { ...current, earnAmount: '10', leagues });
    expect([saved.status, saved.body.leagues]).toEqual([200, { promotePercent: 50, relegatePercent: 0 }]);
    for (const bad of [{ promotePercent: 51 }, { relegatePercent: -1 }, { promotePercent: 2.5 }]) {
      const refused = await api.put('/app-config/current', { ...saved.body, leagues: { ...saved.body.leagues, ...bad } });
      expect(refused.status).toBe(400);
    }
    expect((await leagueRules()).promotePercent).toBe(50);
    // half of Bronze goes up at the week's end
    const coin = await leagueCoin();
    const players = await playersEarning(coin, ['4', '3', '2', '1']);
    await closeEndedWeeks(await afterTheWeek());
    const seats = new Map((await SeatModel.find({}).lean()).map((seat) => [String(seat._id), seat.league]));
    expect(players.map((player) => seats.get(String(player._id)) ?? 'bronze')).toEqual(['silver', 'silver', 'bronze', 'bronze']);
    await setAppConfigFields({ leagues: { promotePercent: 20, relegatePercent: 20 } });
  });
});

describe('prizes', () => {
  async function prizeTable(amount: string, toRank = 3) {
    const coin = await leagueCoin();
    const { token } = await createOperator(['leagues:read', 'leagues:write']);
    const api = consoleApi(app, token);
    const saved = await api.put('/league-weeks/current', { prizes: [{ league: 'bronze', fromRank: 1, toRank, coin: coin.id, amount }] });
    return { coin, api, saved };
  }

  it('pays each prize once, to the week-end ranks, however many passes run at once, and tells each winner once', async () => {
    const { coin, saved } = await prizeTable('5');
    expect([saved.status, saved.body.prizes, saved.body.waitingChange]).toEqual([
      200,
      [{ league: 'bronze', fromRank: 1, toRank: 3, coin: coin.id, amount: '5' }],
      null,
    ]);
    const players = await playersEarning(coin, ['1', '4', '2', '3']);
    const after = await afterTheWeek();
    await Promise.all(Array.from({ length: 20 }, () => closeEndedWeeks(after)));
    await closeEndedWeeks(after);
    const balances = await Promise.all(players.map((player) => balanceOf(player._id, coin._id)));
    // ranks 1 to 3 were the players earning 4, 3 and 2; the last one won nothing
    expect(balances.map((balance) => fromMicros(balance))).toEqual(['1', '9', '7', '8']);
    expect(await LedgerEntryModel.countDocuments({ reason: 'league_prize' })).toBe(3);
    const messages = await NotificationModel.find({ event: 'prize-won' }).lean();
    expect(messages.map((message) => (message.facts as { rank: number }).rank).sort()).toEqual([1, 2, 3]);
    // the prize table of a week that is over no longer changes
    const { api } = await prizeTable('6');
    const week = (await LeagueWeekModel.findOne({ state: 'closed' }).lean())!;
    const late = await api.put(`/league-weeks/${String(week._id)}`, { prizes: [] });
    expect(late.status).toBe(400);
    expect((await LeagueWeekModel.findById(week._id).lean())!.prizes).toHaveLength(1);
  });

  it.each(['ledger:after-record', 'ledger:after-apply', 'ledger:after-step'])(
    'pays a prize once after a crash at %s, by the next pass or the sweep',
    async (point) => {
      const { coin } = await prizeTable('5', 1);
      const [winner] = await playersEarning(coin, ['3']);
      const after = await afterTheWeek();
      onFault((reached) => {
        if (reached === point) throw new Error(`crash at ${reached}`);
      });
      await expect(closeEndedWeeks(after)).rejects.toThrow('crash');
      onFault(null);
      // the sweep and the next pass both come by
      await recoverPendingEntries(0);
      await Promise.all([closeEndedWeeks(after), closeEndedWeeks(after)]);
      expect(fromMicros(await balanceOf(winner!._id, coin._id))).toBe('8');
      expect(await LedgerEntryModel.countDocuments({ reason: 'league_prize', user: winner!._id })).toBe(1);
      expect(await NotificationModel.countDocuments({ event: 'prize-won', user: winner!._id })).toBe(1);
      expect(await LeagueWeekModel.countDocuments({ state: 'closed' })).toBe(1);
    },
  );

  it('withholds the prize of a winner frozen or banned at the week end: nobody below moves up into it', async () => {
    const { coin } = await prizeTable('5');
    const players = await playersEarning(coin, ['4', '3', '2', '1']);
    const [first, frozen, banned, fourth] = players;
    const now = new Date();
    await setPlayerStatus(frozen!._id, { status: 'frozen', statusReason: 'Checking' }, now);
    await setPlayerStatus(banned!._id, { status: 'banned', statusReason: 'Bots' }, now);
    const after = await afterTheWeek();
    await Promise.all([closeEndedWeeks(after), closeEndedWeeks(after)]);
    const balances = await Promise.all([first, frozen, banned, fourth].map((player) => balanceOf(player!._id, coin._id)));
    // rank 1 is paid; ranks 2 and 3 are withheld; the fourth player stays without a prize
    expect(balances.map((balance) => fromMicros(balance))).toEqual(['9', '3', '2', '1']);
    const ids = players.map((player) => player._id);
    expect(await LedgerEntryModel.countDocuments({ reason: 'league_prize', user: { $in: ids } })).toBe(1);
    expect(await NotificationModel.countDocuments({ event: 'prize-won', user: { $in: ids } })).toBe(1);
    expect(await LeagueWeekModel.countDocuments({ state: 'closed' })).toBe(1);
  });

  it("counts a table toward the operator's daily limit in its coin, as a gift: past it, the table waits", async () => {
    const coin = await createCoin({ giftApprovalAbove: '100', operatorDailyLimit: '50' });
    await setAppConfigFields({ miningCoin: coin._id, timezone: 'Asia/Tehran' });
    const api = consoleApi(app, (await createOperator(['leagues:read', 'leagues:write'])).token);
    const table = (amount: string) => ({ prizes: [{ league: 'bronze', fromRank: 1, toRank: 2, coin: coin.id, amount }] });
    // 2 × 20 = 40 of the 50 the operator may create alone today; saved again, it is not counted twice
    for (let save = 0; save < 2; save++) {
      const saved = await api.put('/league-weeks/current', table('20'));
      expect([saved.status, saved.body.prizes.length, saved.body.waitingChange]).toEqual([200, 1, null]);
    }
    // 2 × 10 more would be 60: it waits for a second operator, the live table stays
    const over = await api.put('/league-weeks/current', table('10'));
    expect([over.status, over.body.prizes[0].amount, over.body.waitingChange.set.prizes[0].amount]).toEqual([200, '20', '10']);
  });

  it('waits for a second operator when a prize, or the week in total, is above the coin gift threshold', async () => {
    // 150 is above the threshold of 100 by itself
    const { coin, api, saved } = await prizeTable('150', 1);
    expect(saved.status).toBe(200);
    expect(saved.body.prizes).toEqual([]);
    expect(saved.body.waitingChange.set.prizes).toEqual([{ league: 'bronze', fromRank: 1, toRank: 1, coin: coin.id, amount: '150' }]);
    // 30 to each of ranks 1 to 5 is 150 in the week
    const total = await api.put('/league-weeks/current', {
      prizes: [{ league: 'bronze', fromRank: 1, toRank: 5, coin: coin.id, amount: '30' }],
    });
    expect(total.body.prizes).toEqual([]);
    const changeId = total.body.waitingChange.id as string;
    // the operator who asked cannot approve it
    const own = await api.post(`/league-weeks/${total.body.id}/change/approve`, { id: changeId });
    expect(own.status).toBe(403);
    const second = consoleApi(app, (await createOperator(['leagues:read', 'leagues:write'])).token);
    // the console approves the week it edits as 'current'
    const approved = await second.post('/league-weeks/current/change/approve', { id: changeId });
    expect([approved.status, approved.body.prizes.length, approved.body.waitingChange]).toEqual([200, 1, null]);
    // within the brakes: applied at once
    const small = await api.put('/league-weeks/current', {
      prizes: [{ league: 'gold', fromRank: 1, toRank: 2, coin: coin.id, amount: '10' }],
    });
    expect([small.body.prizes.length, small.body.waitingChange]).toEqual([1, null]);
    // without the leagues permission: refused, nothing changes
    const outsider = consoleApi(app, (await createOperator(['users:read'])).token);
    expect((await outsider.put('/league-weeks/current', { prizes: [] })).status).toBe(403);
    expect((await outsider.get('/league-standings')).status).toBe(403);
  });

  it('lists a change still waiting when its week ended to the second operator, who can only turn it down', async () => {
    const { saved } = await prizeTable('150', 1);
    const changeId = saved.body.waitingChange.id as string;
    await closeEndedWeeks(await afterTheWeek());
    expect((await LeagueWeekModel.findById(saved.body.id).lean())!.state).toBe('closed');
    const second = consoleApi(app, (await createOperator(['leagues:read', 'leagues:write'])).token);
    const waiting = async () => {
      // the figures job's next recount, which the dashboard's card, the menu's badge and the approvals alert read
      await refreshLiveFigures(new Date(), { force: true });
      const { changesWaiting } = (await second.get('/dashboard')).body;
      return changesWaiting.newest.filter((change: { resource: string }) => change.resource === 'leagues');
    };

    expect(await waiting()).toEqual([
      { id: changeId, resource: 'leagues', record: saved.body.id, name: saved.body.week, by: expect.any(String), at: expect.any(String) },
    ]);
    expect((await second.get('/alerts/counts')).body.approvals).toBe(1);
    // the week is over: an approval is refused, the change is turned down on the week's own page
    expect((await second.post(`/league-weeks/${saved.body.id}/change/approve`, { id: changeId })).status).toBe(400);
    const rejected = await second.post(`/league-weeks/${saved.body.id}/change/reject`, { id: changeId, rejectReason: 'The week is over' });
    expect([rejected.status, rejected.body.waitingChange]).toEqual([200, null]);
    expect(await waiting()).toEqual([]);
  });
});
