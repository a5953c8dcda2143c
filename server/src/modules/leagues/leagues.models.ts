import { model, Schema } from 'mongoose';
import { LEAGUES } from '@gift/shared';
import { applyConventions, money, ref, schemaOptions } from '../../db/schemaKit';
import { changeDecisionSchema, waitingChangeSchema } from '../accounts/waitingChanges.service';

/**
 * A player's standing in one week: the league they play it in and what they earned in it (micro-units of the league coin),
 * derived from the ledger and only ever raised ($max of the week's total). Its id is made of the week and the player (the
 * embedded database enforces only `_id`'s uniqueness), so any number of writers meet on one document.
 */
const standingSchema = applyConventions(
  new Schema(
    {
      week: { type: String, required: true },
      user: ref('User', { required: true }),
      league: { type: String, enum: LEAGUES, required: true },
      score: money(),
      /** Set at the week's end: where the player plays the next week. */
      outcome: { type: String, enum: ['promoted', 'relegated', 'stayed', null], default: null },
      /** The score the rank counts (LeagueRankCounts) hold for this standing; null: not counted yet (rankCounts.service.ts). */
      counted: { type: Number, default: null, hidden: true },
      /** The move of the rank counts from `counted` to `score` being carried out, held by the writer with its token and epoch. */
      moving: {
        type: new Schema({ from: Number, to: Number, at: Date, token: String, epoch: Number }, { _id: false }),
        default: null,
        hidden: true,
      },
      /** How many times a move of this standing was taken over from a writer past its lease (the rank counts' fence). */
      epoch: { type: Number, default: 0, hidden: true },
      /** Since when the score moved without the rank counts following yet: a sweep finishes what a crash left. */
      pending: { type: Date, default: null, hidden: true },
    },
    schemaOptions,
  ),
);
// a rank is a count over this index (the players of the week and league above a score, ties in a fixed order by id); players
// around one are read along it
standingSchema.index({ week: 1, league: 1, score: -1, _id: -1 });
// the console's lists: a week across leagues by score, and each filter in its default order
standingSchema.index({ week: 1, score: -1, _id: -1 });
standingSchema.index({ score: -1, _id: -1 });
for (const filter of ['week', 'league', 'user']) standingSchema.index({ [filter]: 1, createdAt: -1, _id: -1 });
standingSchema.index({ createdAt: -1, _id: -1 });
// the sweep of standings whose rank counts a crash left behind
standingSchema.index({ pending: 1 });
export const StandingModel = model('LeagueStanding', standingSchema);

/**
 * How many standings of a week's league hold a score in each score bucket (`c`, by bucket number; rankCounts.service.ts), so a
 * rank is the sum of the buckets above plus a count within the player's own bucket. `moves` names the moves being applied: a
 * move is applied once, however often it is retried. `fences` holds, per standing whose move was ever taken over, the highest
 * epoch that applied one: a writer taken over is refused when it wakes. One record per week and league, its id made of both.
 */
const rankCountsSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    week: { type: String, required: true },
    league: { type: String, enum: LEAGUES, required: true },
    c: { type: Schema.Types.Mixed, default: {} },
    moves: { type: [String], default: [] },
    fences: { type: Schema.Types.Mixed, default: {} },
  },
  { versionKey: false, minimize: false },
);
// a week's counts rebuilt at once
rankCountsSchema.index({ week: 1 });
export const RankCountsModel = model('LeagueRankCounts', rankCountsSchema);

/** The league a player plays in from `week` on (set by the end of the week before); no record: Bronze. */
const seatSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    league: { type: String, enum: LEAGUES, required: true },
    week: { type: String, required: true },
  },
  { versionKey: false },
);
export const SeatModel = model('LeagueSeat', seatSchema);

const prizeSchema = new Schema(
  {
    league: { type: String, enum: LEAGUES, required: true },
    fromRank: { type: Number, required: true },
    toRank: { type: Number, required: true },
    coin: ref('GiftCoin', { required: true }),
    amount: { type: Number, required: true },
  },
  { _id: false },
);

/**
 * One league week: its prize table (amounts in micro-units), a prize change waiting for a second operator, and how far its
 * standings were counted and its end carried out. Its id is made of the week's key.
 */
const weekSchema = applyConventions(
  new Schema(
    {
      week: { type: String, required: true },
      /** open: being played; closing: over, its standings settled, promotions and prizes under way; closed: all done. */
      state: { type: String, enum: ['open', 'closing', 'closed'], default: 'open' },
      prizes: { type: [prizeSchema], default: [] },
      /** Ledger lines written before this moment are counted in the standings. */
      countedUntil: { type: Date, default: null },
      closedAt: { type: Date, default: null },
      waitingChange: { type: waitingChangeSchema, default: null },
      lastChangeDecision: { type: changeDecisionSchema, default: null },
    },
    schemaOptions,
  ),
);
weekSchema.index({ week: -1, _id: -1 });
weekSchema.index({ state: 1, week: 1, _id: 1 });
weekSchema.index({ createdAt: -1, _id: -1 });
weekSchema.index({ 'lastChangeDecision.decidedAt': 1 });
// the weeks holding a prize change, the newest asked first (the dashboard's brake changes waiting, a week over included)
weekSchema.index({ 'waitingChange.requestedAt': -1 });
export const LeagueWeekModel = model('LeagueWeek', weekSchema);
