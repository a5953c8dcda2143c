import type { Types } from 'mongoose';
import { LEAGUES, type League, type LedgerReason } from '@gift/shared';
import { idOfKey, type Id } from '../../db/ids';
import { isDuplicateKey, upsertWithRetry } from '../../db/mongoErrors';
import { getAppConfig } from '../config/config.service';
import { earnedBetween, earnersBetween } from '../ledger/earnings.service';
import { leagueWeekOf, weekAfter, type LeagueWeek } from './leagueWeek';
import { followScore, standingsAbove } from './rankCounts.service';
import { LeagueWeekModel, SeatModel, StandingModel } from './leagues.models';

/** What counts as earning in a league week: rewards and mining, never gifts, stakes or prizes. */
const EARNING_REASONS: readonly LedgerReason[] = ['mission', 'mining', 'referral', 'streak'];

/** How long after a line is written the standings count it: a line is written a moment after its time is taken. */
export const COUNT_LAG_MS = 30_000;

/** How long after a week's end its standings are settled, and its promotions and prizes done. */
export const SETTLE_AFTER_MS = 5 * 60_000;

/** The league rules a pass reads once: the timezone, the coin players are ranked in, and the shares moving up and down. */
export interface LeagueRules {
  timezone: string;
  /** The app's main coin: the one mining pays (App Config); null: no leagues until it is set. */
  coin: Types.ObjectId | null;
  promotePercent: number;
  relegatePercent: number;
}

export async function leagueRules(): Promise<LeagueRules> {
  const config = await getAppConfig();
  const shares = (config as unknown as { leagues?: { promotePercent?: number; relegatePercent?: number } }).leagues;
  return {
    timezone: config.timezone || 'UTC',
    coin: (config.miningCoin as Types.ObjectId | null) ?? null,
    promotePercent: shares?.promotePercent ?? 20,
    relegatePercent: shares?.relegatePercent ?? 20,
  };
}

export const standingId = (week: string, user: Id) => idOfKey('league-standing', week, String(user));
const weekId = (week: string) => idOfKey('league-week', week);

/** The week's record, created open the first time it is asked for. */
export async function weekRecord(week: string) {
  return upsertWithRetry(() =>
    LeagueWeekModel.findOneAndUpdate(
      { _id: weekId(week) },
      { $setOnInsert: { week, state: 'open' } },
      { upsert: true, returnDocument: 'after', setDefaultsOnInsert: true },
    ).lean(),
  );
}

export const findWeek = (week: string) => LeagueWeekModel.findById(weekId(week)).lean();

/** Whether an earlier week is still to be settled: until it is, no one's league for this week is known. */
async function earlierWeekOpen(week: string): Promise<boolean> {
  return !!(await LeagueWeekModel.exists({ state: { $in: ['open', 'closing'] }, week: { $lt: week } }));
}

/** The league each of these players plays `week` in (no seat: Bronze). */
async function leaguesOf(players: Types.ObjectId[]): Promise<Map<string, League>> {
  const seats = await SeatModel.find({ _id: { $in: players } }, { league: 1 }).lean();
  return new Map(seats.map((seat) => [String(seat._id), seat.league]));
}

/**
 * Raises a standing's score to `score` (never lowering it), marking that its rank counts are to follow, or creates it with it.
 * A creator racing this one may insert it first, with less: the raise is then tried once more.
 */
async function raiseScore(id: Types.ObjectId, score: number, fresh: { week: string; user: Types.ObjectId; league: League; outcome: null }) {
  const raise = () => StandingModel.updateOne({ _id: id, score: { $lt: score } }, { $set: { score, pending: new Date() } });
  if ((await raise()).matchedCount) return;
  const before = await upsertWithRetry(() =>
    StandingModel.findOneAndUpdate(
      { _id: id },
      { $setOnInsert: { ...fresh, score, pending: new Date() } },
      { upsert: true, returnDocument: 'before', projection: { score: 1 } },
    ).lean(),
  );
  if (before && before.score < score) await raise();
}

/**
 * Sets each player's standing in the week to what the ledger says they earned in it so far, never lowering it: the total is
 * derived afresh, so a repeat, a retry after a crash, or several writers at once leave the same figure (never a sum counted twice).
 */
async function refreshStandings(players: Types.ObjectId[], week: LeagueWeek, coin: Id, until: Date): Promise<number> {
  let written = 0;
  for (let start = 0; start < players.length; start += 500) {
    const batch = players.slice(start, start + 500);
    const [totals, leagues] = await Promise.all([
      earnedBetween(batch, EARNING_REASONS, coin, week.start, until < week.end ? until : week.end),
      leaguesOf(batch),
    ]);
    for (const user of batch) {
      const total = totals.get(String(user)) ?? 0n;
      if (total <= 0n) continue;
      const id = standingId(week.key, user);
      await raiseScore(id, Number(total), { week: week.key, user, league: leagues.get(String(user)) ?? 'bronze', outcome: null });
      await followScore(id);
      written++;
    }
  }
  return written;
}

/**
 * The job's counting: the standings of the current week follow the ledger lines written since the last pass (older than
 * COUNT_LAG_MS). Counting a week waits for the week before it to be settled, since that decides who plays in which league.
 */
export async function countStandings(now: Date, rules: LeagueRules): Promise<number> {
  if (!rules.coin) return 0;
  const week = leagueWeekOf(now, rules.timezone);
  if (await earlierWeekOpen(week.key)) return 0;
  const record = await weekRecord(week.key);
  const from = record.countedUntil ?? week.start;
  const to = new Date(Math.min(now.getTime() - COUNT_LAG_MS, week.end.getTime()));
  if (to <= from) return 0;
  return countWindow(record._id, week, rules.coin, from, to);
}

/** Counts the lines written in [from, to) into the week's standings, then moves the week's mark to `to`. */
async function countWindow(id: Types.ObjectId, week: LeagueWeek, coin: Id, from: Date, to: Date): Promise<number> {
  const earners = await earnersBetween(EARNING_REASONS, coin, from, to);
  const written = await refreshStandings(earners, week, coin, to);
  // a later mark set by another pass stays: a mark only moves forward
  await LeagueWeekModel.updateOne(
    { _id: id, $or: [{ countedUntil: null }, { countedUntil: { $lt: to } }] },
    { $set: { countedUntil: to } },
  );
  return written;
}

/** Brings a week that is over to its final standings: every line written before its end is counted. */
export async function settleWeek(week: LeagueWeek, coin: Id): Promise<void> {
  const record = await weekRecord(week.key);
  const from = record.countedUntil ?? week.start;
  if (from < week.end) await countWindow(record._id, week, coin, from, week.end);
}

/** The player's own standing brought up to now (their page shows what they earned a moment ago), unless the week waits. */
export async function refreshOwnStanding(player: Types.ObjectId, week: LeagueWeek, rules: LeagueRules, now: Date): Promise<void> {
  if (!rules.coin || (await earlierWeekOpen(week.key))) return;
  await refreshStandings([player], week, rules.coin, now);
}

type Place = { week: string; league: League; score: number; _id: Types.ObjectId };

/**
 * Where a standing stands: players of the week's league with a higher score, or the same score and a higher id, are above it;
 * read from the rank counts (rankCounts.service.ts), never a count over everyone above.
 */
export async function rankOf(place: Place): Promise<number> {
  return (await standingsAbove(place)) + 1;
}

type StandingRow = { _id: Types.ObjectId; user: Types.ObjectId; score: number; league: League };
const ROW = { user: 1, score: 1, league: 1 };

/** The week's league from `skip` on in rank order (score down, then id down), `limit` of them, read in the index's order. */
export function standingsInOrder(week: string, league: League, skip: number, limit: number) {
  return StandingModel.find({ week, league }, ROW).sort({ score: -1, _id: -1 }).skip(skip).limit(limit).lean<StandingRow[]>();
}

/** Up to `count` standings next to this one on one side, nearest first: the tied ones first, then the next scores. */
async function nextTo({ week, league, score, _id }: Place, count: number, side: 1 | -1): Promise<StandingRow[]> {
  const tied = await StandingModel.find({ week, league, score, _id: side === 1 ? { $gt: _id } : { $lt: _id } }, ROW)
    .sort({ _id: side })
    .limit(count)
    .lean<StandingRow[]>();
  if (tied.length >= count) return tied;
  const next = await StandingModel.find({ week, league, score: side === 1 ? { $gt: score } : { $lt: score } }, ROW)
    .sort({ score: side, _id: side })
    .limit(count - tied.length)
    .lean<StandingRow[]>();
  return tied.concat(next);
}

/** Up to `count` standings just above and just below this one, nearest first, each read along the index from the standing. */
export async function around(place: Place, count: number) {
  const [above, below] = await Promise.all([nextTo(place, count, 1), nextTo(place, count, -1)]);
  return { above, below };
}

/** The standing of a player in a week, or null before they earned anything in it. */
export const standingOf = (week: string, user: Id) => StandingModel.findById(standingId(week, user), ROW).lean<StandingRow | null>();

/** The standings of these players in a week (a friends' board), by id. */
export const standingsOf = (week: string, users: Id[]) =>
  StandingModel.find({ _id: { $in: users.map((user) => standingId(week, user)) } }, { user: 1, score: 1, league: 1 }).lean<StandingRow[]>();

/** The league a player plays the week in: their standing's, else their seat's, else Bronze. */
export async function leagueOf(user: Types.ObjectId, standing: { league: string } | null): Promise<League> {
  if (standing) return standing.league as League;
  const seat = await SeatModel.findById(user, { league: 1 }).lean();
  return seat?.league ?? 'bronze';
}

/**
 * Seats the player in `league` from `week` on, unless their seat already names a later week (a later end moved them since).
 * An update of the seat they hold, or the first seat inserted: never an upsert on a range, which would insert a second one.
 */
async function seatFrom(user: Types.ObjectId, league: League, week: string): Promise<void> {
  const moved = await SeatModel.updateOne({ _id: user, week: { $lte: week } }, { $set: { league, week } });
  if (moved.matchedCount) return;
  try {
    const created = await SeatModel.updateOne({ _id: user }, { $setOnInsert: { league, week } }, { upsert: true });
    // created a moment ago by a concurrent pass, perhaps with the seat before: set it as this pass would have
    if (!created.upsertedCount) await SeatModel.updateOne({ _id: user, week: { $lte: week } }, { $set: { league, week } });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
}

/** One league up, one down, or the same; Diamond has no top, Bronze no bottom. */
const moved = (league: League, step: 1 | -1 | 0): League =>
  LEAGUES[Math.min(LEAGUES.length - 1, Math.max(0, LEAGUES.indexOf(league) + step))]!;

/**
 * The week's end for promotions: in each league the top share moves up one league and the bottom share down one, from the
 * settled standings (the same order for every pass, so passes at once write the same). A player's seat names the week it holds
 * from, and is never moved back by a slower pass of an earlier week. Players who earned nothing keep their league.
 */
export async function promoteAndRelegate(week: string, rules: LeagueRules): Promise<number> {
  const next = weekAfter(week);
  let moves = 0;
  for (const league of LEAGUES) {
    const players = await StandingModel.countDocuments({ week, league });
    if (!players) continue;
    const up = league === 'diamond' ? 0 : Math.floor((players * rules.promotePercent) / 100);
    const down = league === 'bronze' ? 0 : Math.min(players - up, Math.floor((players * rules.relegatePercent) / 100));
    for (let skip = 0; skip < players; skip += 1000) {
      const page = await standingsInOrder(week, league, skip, 1000);
      for (const [index, standing] of page.entries()) {
        const position = skip + index + 1;
        const outcome = position <= up ? 'promoted' : position > players - down ? 'relegated' : 'stayed';
        const seat = moved(league, outcome === 'promoted' ? 1 : outcome === 'relegated' ? -1 : 0);
        await StandingModel.updateOne({ _id: standingId(week, standing.user) }, { $set: { outcome } });
        await seatFrom(standing.user, seat, next);
        if (outcome !== 'stayed') moves++;
      }
    }
  }
  return moves;
}
