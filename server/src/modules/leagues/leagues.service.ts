import type { Types } from 'mongoose';
import { fromMicros, type League } from '@gift/shared';
import type { Id } from '../../db/ids';
import { findCoin } from '../coins/giftCoins.service';
import { playerLabels } from '../users/playerDays.service';
import { friendsPageOf } from '../users/players.service';
import { leagueWeekOf } from './leagueWeek';
import { around, leagueOf, leagueRules, rankOf, refreshOwnStanding, standingOf, standingsInOrder, standingsOf } from './standings.service';

/** How many players the top of a league shows, and how many above and below the player "around me" shows. */
const TOP = 10;
const AROUND = 3;
/** The friends' board: the inviter and up to this many invited friends. */
const FRIENDS = 50;

interface Player {
  _id: Types.ObjectId;
  name?: string | null;
  username?: string | null;
  referrer?: Types.ObjectId | null;
}

type Row = { user: Types.ObjectId; score: number };

const displayName = (label: { name: string; username: string } | undefined) => label?.name || label?.username || '';

/** Rows with their names and ranks, as a board lists them. */
async function named(rows: Array<Row & { rank: number }>, me: Types.ObjectId) {
  const labels = await playerLabels(rows.map((row) => row.user));
  return rows.map((row) => ({
    rank: row.rank,
    name: displayName(labels.get(String(row.user))),
    score: fromMicros(BigInt(row.score)),
    me: row.user.equals(me),
  }));
}

/**
 * The player's league this week: their league, rank and earnings, when the week ends, the top of the league and the players
 * just above and below them. Every rank is a count along the standings' index; nothing is scanned.
 */
export async function leagueBoard(player: Player, now: Date) {
  const rules = await leagueRules();
  const week = leagueWeekOf(now, rules.timezone);
  await refreshOwnStanding(player._id, week, rules, now);
  const standing = await standingOf(week.key, player._id);
  const league: League = await leagueOf(player._id, standing);
  const coin = rules.coin ? await findCoin(rules.coin, { symbol: 1, decimals: 1 }) : null;
  const top = (await standingsInOrder(week.key, league, 0, TOP)).map((row, index) => ({ ...row, rank: index + 1 }));
  let me: { rank: number | null; score: string } = { rank: null, score: '0' };
  let nearby: Array<Row & { rank: number }> = [];
  if (standing) {
    const key = { week: week.key, league, score: standing.score, _id: standing._id };
    const rank = await rankOf(key);
    const { above, below } = await around(key, AROUND);
    me = { rank, score: fromMicros(BigInt(standing.score)) };
    nearby = [
      ...above.map((row, index) => ({ ...row, rank: rank - index - 1 })).reverse(),
      { user: player._id, score: standing.score, rank },
      ...below.map((row, index) => ({ ...row, rank: rank + index + 1 })),
    ];
  }
  return {
    league,
    week: week.key,
    endsAt: week.end,
    coin: coin ? { symbol: coin.symbol, decimals: coin.decimals } : null,
    entries: await named(top, player._id),
    me,
    around: await named(nearby, player._id),
  };
}

/** The player, their inviter and the friends they invited, ranked by what each earned this week (any league). */
export async function friendsBoard(player: Player, now: Date) {
  const rules = await leagueRules();
  const week = leagueWeekOf(now, rules.timezone);
  const friends = await friendsPageOf(player._id, 0, FRIENDS);
  const ids: Id[] = [player._id, ...(player.referrer ? [player.referrer] : []), ...friends.map((friend) => friend._id)];
  const standings = new Map((await standingsOf(week.key, ids)).map((row) => [String(row.user), row]));
  const labels = await playerLabels(ids);
  const rows = ids.map((id) => {
    const standing = standings.get(String(id));
    return {
      id: String(id),
      name: displayName(labels.get(String(id))),
      score: BigInt(standing?.score ?? 0),
      league: standing?.league ?? null,
      me: String(id) === String(player._id),
      inviter: !!player.referrer && String(id) === String(player.referrer),
    };
  });
  rows.sort((a, b) => (a.score === b.score ? a.id.localeCompare(b.id) : a.score > b.score ? -1 : 1));
  return rows.map((row, index) => ({ ...row, rank: index + 1, score: fromMicros(row.score) }));
}
