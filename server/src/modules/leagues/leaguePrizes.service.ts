import type { Types } from 'mongoose';
import { fromMicros, toMicros, type League, type LeaguePrizesInput } from '@gift/shared';
import { objectId } from '../../db/ids';
import { AppError, badInput } from '../../lib/errors';
import { askChange, type ChangeTarget } from '../accounts/waitingChanges.service';
import type { Operator } from '../audit/audit.service';
import { aboveThreshold, countTowardDailyLimit } from '../coins/coinBrakes.service';
import { findCoin } from '../coins/giftCoins.service';
import { postEntry, type OperationKind } from '../ledger/ledger.service';
import { notify } from '../notifications/notifications.service';
import { leagueWeekNamed, leagueWeekOf, weekBefore } from './leagueWeek';
import { LeagueWeekModel } from './leagues.models';
import {
  findWeek,
  leagueRules,
  promoteAndRelegate,
  SETTLE_AFTER_MS,
  settleWeek,
  standingsInOrder,
  weekRecord,
  type LeagueRules,
} from './standings.service';

/** A prize as stored: the amount in micro-units. */
interface StoredPrize {
  league: League;
  fromRank: number;
  toRank: number;
  coin: Types.ObjectId;
  amount: number;
}

const WEEK_OVER = 'This week is over: its prizes can no longer change';

/** What a table pays in each coin at most: each prize times the ranks it covers (micro-units). */
function weekTotals(prizes: StoredPrize[]): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  for (const prize of prizes) {
    const coin = String(prize.coin);
    totals.set(coin, (totals.get(coin) ?? 0n) + BigInt(prize.amount) * BigInt(prize.toRank - prize.fromRank + 1));
  }
  return totals;
}

/**
 * Whether a table needs a second operator: a prize above its coin's gift threshold, a week's total in a coin above it, or a
 * week's total past what the operator may create alone in a day (the coin's daily limit, counted as gifts are: under a key of the
 * week and total, so saving the same total again does not count it twice).
 */
async function needsSecondOperator(week: string, prizes: StoredPrize[], operator: Operator, now: Date): Promise<boolean> {
  for (const prize of prizes) if (await aboveThreshold(String(prize.coin), BigInt(prize.amount))) return true;
  const totals = weekTotals(prizes);
  for (const [coin, total] of totals) if (await aboveThreshold(coin, total)) return true;
  for (const [coin, total] of totals)
    if (!(await countTowardDailyLimit(operator.id, coin, total, `league-prizes:${week}:${coin}:${total}`, now))) return true;
  return false;
}

/** A table as the console reads it: amounts as decimals, coins as ids. */
const presentPrizes = (prizes: StoredPrize[]) =>
  prizes.map((prize) => ({ ...prize, coin: String(prize.coin), amount: fromMicros(BigInt(prize.amount)) }));

/** A waiting prize change, as the audit and the console read it. */
const presentPrizeChange = (set: Record<string, unknown>) => ({ prizes: presentPrizes((set.prizes as StoredPrize[] | undefined) ?? []) });

/** A week as the console reads it: its prizes and any waiting change in decimals. */
export function presentLeagueWeek(doc: unknown) {
  const json = (doc as { toJSON?: () => Record<string, unknown> }).toJSON?.() ?? (doc as Record<string, unknown>);
  const waiting = json.waitingChange as { set: Record<string, unknown>; requestedBy: unknown } | null | undefined;
  return {
    ...json,
    prizes: presentPrizes((json.prizes as StoredPrize[] | undefined) ?? []),
    waitingChange: waiting ? { ...waiting, requestedBy: String(waiting.requestedBy), set: presentPrizeChange(waiting.set) } : null,
  };
}

/**
 * A week's prizes, decided by a second operator when they loosen the brakes: applied only while the week is being played
 * (an approval after its end is refused, the live table stays as it was paid).
 */
export const prizeChanges: ChangeTarget = {
  model: LeagueWeekModel,
  resource: 'leagues',
  what: 'this prize table',
  present: presentPrizeChange,
  apply: async (id, changeId, update) => {
    const week = await LeagueWeekModel.findById(id, { week: 1, state: 1 }).lean();
    const rules = await leagueRules();
    if (!week || week.state !== 'open' || leagueWeekNamed(week.week, rules.timezone).end <= new Date())
      throw badInput({ prizes: WEEK_OVER });
    const applied = await LeagueWeekModel.updateOne({ _id: id, 'waitingChange.id': changeId, state: 'open' }, { $set: update });
    return applied.modifiedCount === 1;
  },
};

/** The week the console edits by 'current': the one being played now. */
export async function currentWeekId(now = new Date()): Promise<string> {
  const rules = await leagueRules();
  return String((await weekRecord(leagueWeekOf(now, rules.timezone).key))._id);
}

/**
 * Saves a week's prize table. A table with a prize above its coin's gift threshold, or paying more than it in a week, waits for
 * a second operator (the live one stays); a table within the brakes applies at once and drops what waited. Refused once the week
 * is over.
 */
export async function savePrizes(id: string, input: LeaguePrizesInput, operator: Operator, now: Date) {
  const week = await LeagueWeekModel.findById(objectId(id), { week: 1, state: 1 }).lean();
  if (!week) return null;
  const rules = await leagueRules();
  if (week.state !== 'open' || leagueWeekNamed(week.week, rules.timezone).end <= now) throw badInput({ prizes: WEEK_OVER });
  for (const [index, prize] of input.prizes.entries())
    if (!(await findCoin(prize.coin, { _id: 1 }))) throw badInput({ [`prizes.${index}.coin`]: 'Choose an existing gift coin' });
  const prizes: StoredPrize[] = input.prizes.map((prize) => ({
    ...prize,
    coin: objectId(prize.coin),
    amount: Number(toMicros(prize.amount)),
  }));
  const set = (await needsSecondOperator(week.week, prizes, operator, now))
    ? { waitingChange: askChange({ prizes }, operator, now) }
    : { prizes, waitingChange: null };
  return LeagueWeekModel.findOneAndUpdate({ _id: week._id, state: 'open' }, { $set: set }, { returnDocument: 'after' });
}

/** The key of a week's prize to one player: one prize per player and week, however many passes pay it. */
const prizeKey = (week: string, user: Types.ObjectId) => `league-prize:${week}:${String(user)}`;

/** The player hears of their prize once the engine has paid it: a step of the kind, run once per operation, by any pass. */
const leaguePrizeKind: OperationKind = {
  kind: 'league_prize',
  steps: [
    {
      name: 'notify',
      run: async (operation) => {
        const posting = operation.postings.find((p) => p.account === 'player');
        if (!posting?.user) return;
        const coin = await findCoin(posting.coin, { symbol: 1 });
        const [, rank] = operation.note.split('#');
        await notify(posting.user, `prize-won:${operation.key}`, 'prize-won', {
          amount: fromMicros(BigInt(posting.amount)),
          symbol: coin?.symbol ?? '',
          rank: Number(rank),
        });
      },
    },
  ],
};

/** A prize the engine refused because its winner is frozen or banned when it is paid. */
const withheld = (error: unknown) => error instanceof AppError && (error.code === 'ACCOUNT_FROZEN' || error.code === 'ACCOUNT_BANNED');

/**
 * Pays the week's prize table from its settled standings, each prize under its own key; returns how many were paid now. A
 * winner frozen or banned when it is paid is not paid (the engine checks the hold right before applying): the rank's prize is
 * withheld, and no one below moves up into it.
 */
async function payPrizes(week: string, prizes: StoredPrize[]): Promise<number> {
  let paid = 0;
  for (const prize of prizes) {
    const winners = await standingsInOrder(week, prize.league, prize.fromRank - 1, prize.toRank - prize.fromRank + 1);
    for (const [index, winner] of winners.entries()) {
      if (winner.score <= 0) continue;
      try {
        const { applied } = await postEntry({
          userId: winner.user,
          coinId: prize.coin,
          amount: BigInt(prize.amount),
          reason: 'league_prize',
          refType: 'LeagueWeek',
          refId: week,
          idempotencyKey: prizeKey(week, winner.user),
          note: `${prize.league}#${prize.fromRank + index}`,
          guarded: true,
        });
        if (applied) paid++;
      } catch (error) {
        if (!withheld(error)) throw error;
      }
    }
  }
  return paid;
}

/**
 * The end of one week, carried out by any pass, any number at once, after any crash: the standings settled (every line written
 * before its end), the week closed to prize changes, promotions and relegations written, each prize paid once through the
 * ledger, the week marked closed. Each step derives the same result from the same settled standings, so a repeat redoes
 * nothing twice.
 */
async function closeWeek(weekKey: string, rules: LeagueRules, coin: Types.ObjectId): Promise<number> {
  await settleWeek(leagueWeekNamed(weekKey, rules.timezone), coin);
  await LeagueWeekModel.updateOne({ week: weekKey, state: 'open' }, { $set: { state: 'closing' } });
  // read after the week was closed to changes: every pass pays the same table
  const week = (await findWeek(weekKey))!;
  await promoteAndRelegate(weekKey, rules);
  const paid = await payPrizes(weekKey, week.prizes);
  await LeagueWeekModel.updateOne({ week: weekKey, state: 'closing' }, { $set: { state: 'closed', closedAt: new Date() } });
  return paid;
}

/** The job: every week over for SETTLE_AFTER_MS and not yet closed is closed, oldest first; returns the prizes paid now. */
export async function closeEndedWeeks(now: Date): Promise<number> {
  const rules = await leagueRules();
  // the week before this one is closed even when no pass counted it while it was played (the job was down all week)
  const previous = weekBefore(leagueWeekOf(now, rules.timezone).key);
  if (!(await findWeek(previous))) await weekRecord(previous);
  // a few weeks at most: the current one, and any that ended and are not yet closed
  const open = await LeagueWeekModel.find({ state: { $in: ['open', 'closing'] } }, { week: 1 }).lean();
  let paid = 0;
  for (const { week } of open.sort((a, b) => a.week.localeCompare(b.week))) {
    if (leagueWeekNamed(week, rules.timezone).end.getTime() + SETTLE_AFTER_MS > now.getTime()) break;
    if (!rules.coin) break;
    paid += await closeWeek(week, rules, rules.coin);
  }
  return paid;
}

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const leaguePrizeKinds: readonly OperationKind[] = [leaguePrizeKind];
