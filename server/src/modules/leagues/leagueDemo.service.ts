import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { toMicros, type League } from '@gift/shared';
import { postEntry } from '../ledger/ledger.service';
import { highestTelegramId, insertPlayers } from '../users/players.service';
import { leagueWeekOf } from './leagueWeek';
import { LeagueWeekModel } from './leagues.models';
import { COUNT_LAG_MS, countStandings, leagueRules, weekRecord } from './standings.service';

const FIRST_NAMES = ['Sara', 'Reza', 'Mina', 'Omid', 'Leila', 'Arash', 'Nika', 'Dariush', 'Emma', 'Liam', 'Noah', 'Ava'];
const LAST_NAMES = ['Karimi', 'Ahmadi', 'Rahimi', 'Moradi', 'Smith', 'Novak'];
/** How many demo players play this week's Bronze beside the demo's own players. */
const DEMO_LEAGUE_PLAYERS = 36;

/** The demo week's prizes (in the league coin): 1st, 2nd and 3rd, then ranks 4 to 10, in Bronze and Silver. */
const DEMO_PRIZES: Array<{ league: League; fromRank: number; toRank: number; amount: string }> = [
  { league: 'bronze', fromRank: 1, toRank: 1, amount: '30' },
  { league: 'bronze', fromRank: 2, toRank: 3, amount: '15' },
  { league: 'bronze', fromRank: 4, toRank: 10, amount: '5' },
  { league: 'silver', fromRank: 1, toRank: 3, amount: '20' },
];

/**
 * The demo's league board: a few dozen players who earned the league coin this week (mining credits through the ledger, as
 * real earnings are), the week's standings counted, and a prize table. Cheap: a few dozen entries, one counting pass.
 */
export async function seedDemoLeague(now: Date, coin: Types.ObjectId): Promise<number> {
  const first = Math.max((await highestTelegramId()) + 1, 7_100_000_000);
  const players = Array.from({ length: DEMO_LEAGUE_PLAYERS }, (_, index) => {
    const firstName = FIRST_NAMES[index % FIRST_NAMES.length]!;
    const lastName = LAST_NAMES[Math.floor(index / FIRST_NAMES.length) % LAST_NAMES.length]!;
    const username = `${firstName}_${lastName}_${index + 1}`.toLowerCase();
    return {
      _id: new Types.ObjectId(),
      telegramId: first + index,
      firstName,
      lastName,
      name: `${firstName} ${lastName}`,
      username,
      usernameLower: username,
      referralCode: randomBytes(6).toString('base64url'),
      createdAt: new Date(now.getTime() - (index + 3) * 86_400_000),
    };
  });
  await insertPlayers(players);
  for (const [index, player] of players.entries())
    await postEntry({
      userId: player._id,
      coinId: coin,
      // from about 5 to 95 GIFT, a few of them tied
      amount: toMicros(String(5 + ((index * 37) % 90) + (index % 3) * 0.25)),
      reason: 'mining',
      refType: 'Demo',
      refId: 'league',
      idempotencyKey: `demo-league:${player._id.toHexString()}`,
    });
  const rules = await leagueRules();
  const week = leagueWeekOf(now, rules.timezone);
  await weekRecord(week.key);
  await LeagueWeekModel.updateOne(
    { week: week.key },
    { $set: { prizes: DEMO_PRIZES.map((prize) => ({ ...prize, coin, amount: Number(toMicros(prize.amount)) })) } },
  );
  // every line written so far counted now, as the job's pass after the lag would
  await countStandings(new Date(Date.now() + COUNT_LAG_MS + 1), rules);
  return players.length;
}
