import type { Types } from 'mongoose';
import { fromMicros, type AdminResource, type AnalyticsQuery, type DashboardRange } from '@gift/shared';
import { listCoins } from '../coins/giftCoins.service';
import { postedTotalsByPlayer } from '../ledger/ledgerFigures.service';
import { missionFunnelBetween, missionTitles } from '../missions/missionFunnel.service';
import { countJoinedBetween } from '../users/players.service';
import { countActiveOn, playerLabels, referralsBetween } from '../users/playerDays.service';
import { upsertWithRetry } from '../../db/mongoErrors';
import { DailyAnalyticsModel } from './analytics.model';
import { dayKey, daysOf, rangeOf, rollUpEachClosedDay } from './dashboard.service';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The days after joining a cohort's retention is read on. */
const RETENTION_DAYS = [1, 7, 30] as const;
/** The referrers the list shows, the top ones by its order. */
const REFERRERS_SHOWN = 100;

const daysBefore = (day: Date, days: number) => dayKey(new Date(day.getTime() - days * DAY_MS));
const daysAfter = (day: string, days: number) => dayKey(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

type Micros = Array<{ coin: Types.ObjectId; amount: number }>;

/** Adds per-coin micro-units into `sums`, exactly. */
function addMicros(sums: Map<string, bigint>, rows: Micros | null | undefined) {
  for (const row of rows ?? []) sums.set(String(row.coin), (sums.get(String(row.coin)) ?? 0n) + BigInt(row.amount));
}

/** One day's analytics, from the records of that day alone: what `rollUpAnalytics` keeps. */
async function analyticsOf(day: Date, next: Date) {
  const [joined, [d1, d7, d30], missions, referrals, paid] = await Promise.all([
    countJoinedBetween(day, next),
    Promise.all(RETENTION_DAYS.map((days) => countActiveOn(dayKey(day), daysBefore(day, days)))),
    missionFunnelBetween(day, next),
    referralsBetween(day, next),
    postedTotalsByPlayer('referral', day, next),
  ]);
  const referrers = new Map<string, { referrer: Types.ObjectId; joined: number; qualified: number; paid: Micros }>();
  const of = (referrer: Types.ObjectId) => {
    const key = String(referrer);
    if (!referrers.has(key)) referrers.set(key, { referrer, joined: 0, qualified: 0, paid: [] });
    return referrers.get(key)!;
  };
  for (const row of referrals.joined) of(row._id).joined = row.count;
  for (const row of referrals.qualified) of(row._id).qualified = row.count;
  for (const row of paid) of(row._id.user).paid.push({ coin: row._id.coin, amount: row.total });
  return { day: dayKey(day), joined, active: { d1: d1!, d7: d7!, d30: d30! }, missions, referrers: [...referrers.values()] };
}

/**
 * Rolls up the analytics of every day over for an hour and not rolled up yet, oldest first (the dashboard's days' rule):
 * run by the figures job beside the dashboard's roll-up. Returns how many days it rolled up.
 */
export async function rollUpAnalytics(now: Date): Promise<number> {
  const latest = await DailyAnalyticsModel.findOne({}, { day: 1 }).sort({ day: -1 }).lean();
  return rollUpEachClosedDay(now, latest, async (day, next) => {
    const figures = await analyticsOf(day, next);
    await upsertWithRetry(() => DailyAnalyticsModel.updateOne({ day: figures.day }, { $setOnInsert: figures }, { upsert: true }));
  });
}

/** Per-coin micro-units as the console shows them: the coin's symbol and the exact amount, in the coins' order. */
function coinAmountsOf(coins: Map<string, { symbol: string; order: number }>) {
  return (sums: Map<string, bigint>) =>
    [...sums.entries()]
      .map(([coin, amount]) => ({ coin, symbol: coins.get(coin)?.symbol ?? '', amount: fromMicros(amount) }))
      .sort((a, b) => (coins.get(a.coin)?.order ?? 0) - (coins.get(b.coin)?.order ?? 0) || a.symbol.localeCompare(b.symbol));
}

type Rolled = Awaited<ReturnType<typeof analyticsOf>>;

function missionsOver(days: Rolled[], only: string | undefined) {
  const totals = new Map<string, { opened: number; go: number; claimed: number; approved: number; cost: Map<string, bigint> }>();
  for (const row of days.flatMap((day) => day.missions)) {
    const key = String(row.mission);
    if (only && key !== only) continue;
    const total = totals.get(key) ?? { opened: 0, go: 0, claimed: 0, approved: 0, cost: new Map<string, bigint>() };
    total.opened += row.opened ?? 0;
    total.go += row.go ?? 0;
    total.claimed += row.claimed ?? 0;
    total.approved += row.approved ?? 0;
    addMicros(total.cost, row.cost);
    totals.set(key, total);
  }
  return totals;
}

function referrersOver(days: Rolled[]) {
  const totals = new Map<string, { joined: number; qualified: number; paid: Map<string, bigint> }>();
  for (const row of days.flatMap((day) => day.referrers)) {
    const key = String(row.referrer);
    const total = totals.get(key) ?? { joined: 0, qualified: 0, paid: new Map<string, bigint>() };
    total.joined += row.joined ?? 0;
    total.qualified += row.qualified ?? 0;
    addMicros(total.paid, row.paid);
    totals.set(key, total);
  }
  return totals;
}

/** Qualified ÷ joined in whole percent, or null with none joined. */
const rateOf = ({ joined, qualified }: { joined: number; qualified: number }) => (joined ? Math.round((qualified * 100) / joined) : null);

const REFERRER_ORDER: Record<NonNullable<AnalyticsQuery['sort']>, (row: { joined: number; qualified: number }) => number[]> = {
  qualified: (row) => [row.qualified, row.joined],
  joined: (row) => [row.joined, row.qualified],
  rate: (row) => [rateOf(row) ?? -1, row.qualified],
};

/**
 * The analytics page in one answer, for the days of `range` (the dashboard's range rules): each mission's funnel (first
 * opens, Go, claims, approvals) and cost, the retention of each day's joiners on D1, D7 and D30 (null until that day is
 * rolled up), and the top referrers by `sort` (qualified ÷ joined, rewards paid). It reads the rolled-up days alone, through
 * the index on their day, so its cost follows the number of days and not of players or records; the days not rolled up yet
 * (today) are not in it: `through` names the newest day that is. Each part only when the account may read what it counts.
 */
export async function analyticsFigures(
  now: Date,
  canRead: (resource: AdminResource) => boolean,
  range: DashboardRange = {},
  query: AnalyticsQuery = {},
) {
  const { from, to } = rangeOf(now, range);
  const players = canRead('users');
  const missions = canRead('user-missions');
  const [rolled, latest, coinList] = await Promise.all([
    DailyAnalyticsModel.find({ day: { $gte: dayKey(from), $lte: daysAfter(dayKey(to), 30) } })
      .sort({ day: 1 })
      .lean<Rolled[]>(),
    DailyAnalyticsModel.findOne({}, { day: 1 }).sort({ day: -1 }).lean(),
    listCoins({ symbol: 1, order: 1 }),
  ]);
  const coinAmounts = coinAmountsOf(new Map(coinList.map((coin) => [String(coin._id), { symbol: coin.symbol, order: coin.order ?? 0 }])));
  const byDay = new Map(rolled.map((day) => [day.day, day]));
  const days = daysOf(from, to);
  const inRange = days.flatMap((day) => byDay.get(day) ?? []);

  const funnel = async () => {
    const totals = missionsOver(inRange, query.mission);
    const titles = await missionTitles([...totals.keys()]);
    return [...totals.entries()]
      .map(([mission, total]) => ({
        mission,
        title: titles.get(mission)?.title ?? '',
        fa: titles.get(mission)?.fa ?? '',
        opened: total.opened,
        go: total.go,
        claimed: total.claimed,
        approved: total.approved,
        cost: coinAmounts(total.cost),
      }))
      .sort((a, b) => b.approved - a.approved || b.go - a.go || b.opened - a.opened || a.title.localeCompare(b.title));
  };
  const cohorts = () =>
    days.map((day) => {
      const joined = byDay.get(day)?.joined ?? null;
      const [d1, d7, d30] = RETENTION_DAYS.map((after) => {
        const later = byDay.get(daysAfter(day, after));
        return joined === null || !later ? null : later.active[`d${after}`];
      });
      return { day, joined, d1: d1 ?? null, d7: d7 ?? null, d30: d30 ?? null };
    });
  const referrers = async () => {
    const order = REFERRER_ORDER[query.sort ?? 'qualified'];
    const top = [...referrersOver(inRange).entries()]
      .map(([referrer, total]) => ({ referrer, ...total }))
      .sort((a, b) => {
        const [x, y] = [order(a), order(b)];
        return y[0]! - x[0]! || y[1]! - x[1]! || a.referrer.localeCompare(b.referrer);
      })
      .slice(0, REFERRERS_SHOWN);
    const labels = await playerLabels(top.map((row) => row.referrer));
    return top.map((row) => ({
      referrer: row.referrer,
      name: labels.get(row.referrer)?.name ?? '',
      username: labels.get(row.referrer)?.username ?? '',
      telegramId: labels.get(row.referrer)?.telegramId ?? null,
      joined: row.joined,
      qualified: row.qualified,
      rate: rateOf(row),
      paid: coinAmounts(row.paid),
    }));
  };

  return {
    range: { from: dayKey(from), to: dayKey(to) },
    /** The newest day rolled up: the figures count no day after it. */
    through: latest?.day ?? null,
    missions: missions ? await funnel() : null,
    cohorts: players ? cohorts() : null,
    referrers: players ? await referrers() : null,
  };
}
