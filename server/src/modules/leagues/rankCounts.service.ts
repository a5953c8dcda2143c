import { randomBytes } from 'node:crypto';
import type { Types } from 'mongoose';
import type { League } from '@gift/shared';
import { idOfKey } from '../../db/ids';
import { upsertWithRetry } from '../../db/mongoErrors';
import { RankCountsModel, StandingModel } from './leagues.models';

/**
 * A player's rank without counting everyone above: each week's league keeps how many standings hold a score in each score
 * bucket (LeagueRankCounts, one record), so a rank is the sum of the buckets above the player's (one read) plus a count along
 * the standings' index within the player's own bucket (scores less than 1/64 above theirs, and their ties).
 *
 * Exactly once without transactions: a standing records the score its bucket counts hold (`counted`). A writer that finds its
 * score ahead claims the move `counted → score` on the standing (one conditional update: one claimant), applies it to the
 * counts with the move's name as a marker (the record takes a move once, however often it is retried), then sets `counted` and
 * drops the marker. A move left by a crash is taken over after MOVE_LEASE_MS with a new token and the standing's next epoch.
 *
 * A writer stalled past its lease (a GC pause, SIGSTOP) may wake after a takeover finished its move and dropped the marker: the
 * marker no longer refuses it. So the counts also keep a fence per standing, the highest epoch that applied a move of it, set
 * in the same update that applies the move; a writer of a lower epoch is refused. Epochs only grow, one claimant each (the
 * takeover is one conditional update), and the first writer of a move holds the standing's epoch as it is: a fence exists
 * only for standings whose move was ever taken over, so the record stays small.
 */

/** How long a claimed move is its writer's alone; a move older than this was left by a crash and is taken over. */
export const MOVE_LEASE_MS = 5 * 60_000;
/** Buckets per doubling of the score: a bucket spans 1/64 of its scores (at most 3,072 buckets below 2^53). */
const STEPS_BITS = 6n;

type Place = { week: string; league: League; score: number; _id: Types.ObjectId };
type Move = { from: number | null; to: number; at: Date; token: string; epoch: number };

/** A score's bucket and where the bucket ends (its first score above): below 64 one score each, then 64 per doubling. */
function bucketOf(score: number): { bucket: number; end: number } {
  const value = BigInt(score);
  const shift = BigInt(Math.max(0, value.toString(2).length - Number(STEPS_BITS) - 1));
  const top = value >> shift;
  return { bucket: Number(shift * (1n << STEPS_BITS) + top), end: Number((top + 1n) << shift) };
}

const countsId = (week: string, league: string) => idOfKey('league-rank-counts', week, league);

/**
 * How many standings of the week's league rank above this place: those in higher buckets, read from the counts, and those in
 * its bucket with a higher score, or its score and a higher id (ties in id order, as the board lists them), along the index.
 */
export async function standingsAbove({ week, league, score, _id }: Place): Promise<number> {
  const { bucket, end } = bucketOf(score);
  const [counts, near] = await Promise.all([
    RankCountsModel.findById(countsId(week, league), { c: 1 }).lean<{ c?: Record<string, number> } | null>(),
    StandingModel.countDocuments({ week, league, $or: [{ score: { $gt: score, $lt: end } }, { score, _id: { $gt: _id } }] }),
  ]);
  let above = near;
  for (const [other, count] of Object.entries(counts?.c ?? {})) if (Number(other) > bucket) above += count;
  return above;
}

/**
 * Applies a move to the counts unless they took it already (its marker) or a writer of a later epoch applied a move of this
 * standing (its fence: this writer was taken over). A record not there yet is created empty first; the move is then tried once
 * more, still under its marker and fence.
 */
async function applyToCounts(
  week: string,
  league: string,
  inc: Record<string, number>,
  move: string,
  fence: { standing: string; epoch: number },
) {
  const id = countsId(week, league);
  const fenced = `fences.${fence.standing}`;
  const apply = () =>
    RankCountsModel.updateOne(
      { _id: id, moves: { $ne: move }, [fenced]: { $not: { $gt: fence.epoch } } },
      // epoch 0 sets no fence: only standings whose move was ever taken over have one
      { $inc: inc, $push: { moves: move }, ...(fence.epoch ? { $max: { [fenced]: fence.epoch } } : {}) },
    );
  if ((await apply()).matchedCount) return;
  await upsertWithRetry(() =>
    RankCountsModel.updateOne({ _id: id }, { $setOnInsert: { week, league, c: {}, moves: [], fences: {} } }, { upsert: true }),
  );
  await apply();
}

/** Carries out a claimed move while its token holds, then marks the standing counted and drops the move's marker. */
async function carryOut(standing: { _id: Types.ObjectId; week: string; league: string }, move: Move): Promise<void> {
  const name = `${String(standing._id)}:${move.from ?? '-'}>${move.to}`;
  const to = bucketOf(move.to).bucket;
  const from = move.from === null ? null : bucketOf(move.from).bucket;
  const held = { _id: standing._id, 'moving.token': move.token };
  // a move within one bucket changes no count
  if (from !== to)
    await applyToCounts(standing.week, standing.league, { [`c.${to}`]: 1, ...(from === null ? {} : { [`c.${from}`]: -1 }) }, name, {
      standing: String(standing._id),
      epoch: move.epoch,
    });
  const done = await StandingModel.updateOne(held, { $set: { counted: move.to, moving: null } });
  if (done.modifiedCount && from !== to)
    await RankCountsModel.updateOne({ _id: countsId(standing.week, standing.league) }, { $pull: { moves: name } });
}

type Counting = {
  _id: Types.ObjectId;
  week: string;
  league: string;
  score: number;
  counted?: number | null;
  moving?: Move | null;
  pending?: Date | null;
  epoch?: number;
};

/**
 * Brings a standing's bucket count to its score: claims and carries out each move until `counted` equals the score. Safe from
 * any number of writers at once and after a crash; returns at once while another live writer holds the standing's move.
 */
export async function followScore(id: Types.ObjectId, now = new Date()): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const standing = await StandingModel.findById(id, {
      week: 1,
      league: 1,
      score: 1,
      counted: 1,
      moving: 1,
      pending: 1,
      epoch: 1,
    }).lean<Counting | null>();
    if (!standing) return;
    const counted = standing.counted ?? null;
    let move = standing.moving ?? null;
    const token = randomBytes(8).toString('hex');
    if (!move) {
      if (counted === standing.score) {
        if (standing.pending)
          await StandingModel.updateOne({ _id: id, score: standing.score, counted, moving: null }, { $set: { pending: null } });
        return;
      }
      move = { from: counted, to: standing.score, at: now, token, epoch: standing.epoch ?? 0 };
      const claimed = await StandingModel.updateOne({ _id: id, moving: null, counted, score: standing.score }, { $set: { moving: move } });
      if (!claimed.modifiedCount) continue;
    } else {
      if (now.getTime() - new Date(move.at).getTime() < MOVE_LEASE_MS) return;
      // the next epoch: the writer it takes over from, if it wakes, is refused by the fence this one sets on applying
      const epoch = (standing.epoch ?? 0) + 1;
      const taken = await StandingModel.updateOne(
        { _id: id, 'moving.token': move.token },
        { $set: { 'moving.at': now, 'moving.token': token, 'moving.epoch': epoch, epoch } },
      );
      if (!taken.modifiedCount) continue;
      move = { ...move, at: now, token, epoch };
    }
    await carryOut(standing, move);
  }
}

/** The sweep: standings whose counts a crash left behind (a score moved, its move not finished within the lease) follow now. */
export async function followLeftScores(now: Date): Promise<number> {
  const left = await StandingModel.find({ pending: { $lt: new Date(now.getTime() - MOVE_LEASE_MS) } }, { _id: 1 })
    .limit(500)
    .lean();
  for (const standing of left) await followScore(standing._id, now);
  return left.length;
}

/**
 * Builds a week's bucket counts afresh from its standings, each counted at its score (a full read of the week: for the
 * benchmark's and the demo's bulk-inserted standings, and for a repair while the week is not being counted).
 */
export async function rebuildRankCounts(week: string): Promise<void> {
  const counts = new Map<string, Record<string, number>>();
  // the fences carried over: a writer stalled since before the rebuild stays refused
  const fences = new Map<string, Record<string, number>>();
  const stale: Array<{ _id: Types.ObjectId; score: number }> = [];
  const standings = StandingModel.find({ week }, { league: 1, score: 1, counted: 1, epoch: 1 })
    .sort({ score: -1, _id: -1 })
    .lean<Array<{ _id: Types.ObjectId; league: string; score: number; counted?: number | null; epoch?: number }>>()
    .cursor();
  for await (const standing of standings) {
    if (standing.counted !== standing.score) stale.push({ _id: standing._id, score: standing.score });
    const league = counts.get(standing.league) ?? {};
    const { bucket } = bucketOf(standing.score);
    league[bucket] = (league[bucket] ?? 0) + 1;
    counts.set(standing.league, league);
    if (standing.epoch) {
      const fenced = fences.get(standing.league) ?? {};
      fenced[String(standing._id)] = standing.epoch;
      fences.set(standing.league, fenced);
    }
  }
  await RankCountsModel.deleteMany({ week });
  await RankCountsModel.insertMany(
    [...counts].map(([league, c]) => ({ _id: countsId(week, league), week, league, c, moves: [], fences: fences.get(league) ?? {} })),
  );
  for (let start = 0; start < stale.length; start += 500)
    await StandingModel.bulkWrite(
      stale.slice(start, start + 500).map(({ _id, score }) => ({
        updateOne: { filter: { _id }, update: { $set: { counted: score, moving: null, pending: null } } },
      })),
      { ordered: false },
    );
}
