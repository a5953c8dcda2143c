import { DASHBOARD_MAX_DAYS, fromMicros, type AdminResource, type DashboardRange, type LedgerReason } from '@gift/shared';
import { listCoins } from '../coins/giftCoins.service';
import { postedTotalsByCoin } from '../ledger/ledger.service';
import { countMiningRunning } from '../mining/mining.service';
import { countDoneBetween, countReviewsWaiting } from '../missions/missions.service';
import { lockedStakeChangeBetween } from '../staking/staking.service';
import { countJoinedBetween, countPlayers, countSeenSince, firstJoinDate } from '../users/players.service';
import { countGiftsWaiting } from '../gifts/balanceAdjustment.service';
import { countGrantsWaiting } from '../accounts/accountGrants.service';
import { operatorsByIds } from '../accounts/operatorRoster.service';
import { countRequestedBetween, pendingWithdrawalTotals } from '../withdrawals/withdrawals.service';
import { DailyFiguresModel, LiveFiguresModel } from './dailyFigures.model';
import { BRAKE_RESOURCES, changesWaiting } from './changesWaiting.service';
import { upsertWithRetry } from '../../db/mongoErrors';
import { badInput } from '../../lib/errors';

const DAY_MS = 24 * 60 * 60 * 1000;
const CHART_DAYS = 30;
/** A day is rolled up once it has been over this long: anything a crash left of it is finished by then. */
const SETTLE_MS = 60 * 60 * 1000;
/** Days rolled up in one sweep pass at most (a database upgraded with a long history catches up over a few passes). */
const DAYS_PER_PASS = 60;
/** Ledger reasons that bring new coins into players' hands (a stake's profit arrives with its principal, under 'unstake'). */
const ISSUING_REASONS: LedgerReason[] = ['mission', 'referral', 'mining', 'gift'];
const FOREVER = new Date(8.64e15);
/** Brake changes the dashboard lists by name (the newest); the card counts them all. */
const CHANGES_LISTED = 5;

interface CoinAmount {
  coin: string;
  symbol: string;
  amount: string;
}
type CoinSums = Array<{ _id: unknown; total: number; count?: number }>;

const startOfDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
export const dayKey = (date: Date) => date.toISOString().slice(0, 10);

/** One day's counts, from the records of that day (through the indexes on their dates). */
function countsOf(from: Date, to: Date) {
  return Promise.all([countJoinedBetween(from, to), countDoneBetween(from, to), countRequestedBetween(from, to)]);
}

/** Adds up rows of per-coin sums (several days, several sources) into one total per coin. */
function addUp(rows: CoinSums): CoinSums {
  const totals = new Map<string, { total: number; count?: number }>();
  for (const row of rows) {
    const sum = totals.get(String(row._id)) ?? { total: 0 };
    sum.total += row.total;
    if (row.count !== undefined) sum.count = (sum.count ?? 0) + row.count;
    totals.set(String(row._id), sum);
  }
  return [...totals.entries()].map(([coin, sum]) => ({ _id: coin, ...sum }));
}

/**
 * Rolls up, oldest first, every day that has been over for an hour and `latest` (the newest day rolled up) is before: from
 * the first player's day on a fresh database, at most DAYS_PER_PASS days a pass. `rollUp` writes one day's record, keyed by
 * the day (a second sweep rolling the same day writes the same record). Returns how many days it rolled up.
 */
export async function rollUpEachClosedDay(
  now: Date,
  latest: { day: string } | null,
  rollUp: (day: Date, next: Date, key: string) => Promise<unknown>,
): Promise<number> {
  const lastFinal = new Date(startOfDay(new Date(now.getTime() - SETTLE_MS)).getTime() - DAY_MS);
  const firstJoin = latest ? null : await firstJoinDate();
  let day = latest ? new Date(Date.parse(latest.day) + DAY_MS) : firstJoin ? startOfDay(firstJoin) : null;
  let rolled = 0;
  while (day && day <= lastFinal && rolled < DAYS_PER_PASS) {
    const next = new Date(day.getTime() + DAY_MS);
    await rollUp(day, next, dayKey(day));
    rolled++;
    day = next;
  }
  return rolled;
}

/**
 * Rolls up every day that has been over for an hour and is not rolled up yet, oldest first: one record per day
 * with its counts and per-coin sums, read from that day's records alone. Run by the figures job (dashboard.jobs.ts) on
 * the clock of the last finished money recovery pass, so a day's record includes what a crash interrupted. Returns how
 * many days it rolled up.
 */
export async function rollUpClosedDays(now: Date): Promise<number> {
  const latest = await DailyFiguresModel.findOne({}, { day: 1 }).sort({ day: -1 }).lean();
  return rollUpEachClosedDay(now, latest, async (day, next, key) => {
    const [[newPlayers, claims, withdrawals], issued, staked] = await Promise.all([
      countsOf(day, next),
      postedTotalsByCoin(ISSUING_REASONS, day, next),
      lockedStakeChangeBetween(day, next).then(addUp),
    ]);
    const figures = {
      day: key,
      newPlayers,
      claims,
      withdrawals,
      issued: issued.map((row) => ({ coin: row._id, amount: row.total })),
      staked: staked.map((row) => ({ coin: row._id, amount: row.total })),
    };
    await upsertWithRetry(() => DailyFiguresModel.updateOne({ day: figures.day }, { $setOnInsert: figures }, { upsert: true }));
  });
}

/** Sums of integer micro-units per coin, named by symbol and in the coins' order. */
async function perCoin(rows: CoinSums): Promise<Array<CoinAmount & { count?: number }>> {
  const coins = new Map((await listCoins({ symbol: 1, order: 1 })).map((c) => [String(c._id), c]));
  return rows
    .map((row) => ({
      coin: String(row._id),
      symbol: coins.get(String(row._id))?.symbol ?? '',
      amount: fromMicros(BigInt(row.total)),
      ...(row.count !== undefined ? { count: row.count } : {}),
    }))
    .sort((a, b) => (coins.get(a.coin)?.order ?? 0) - (coins.get(b.coin)?.order ?? 0) || a.symbol.localeCompare(b.symbol));
}

/** How often the sweep recounts the live figures, and how old they may be before a dashboard load recounts them itself. */
const LIVE_FIGURES_MS = 30_000;
const LIVE_FIGURES_STALE_MS = 2 * 60_000;

/**
 * Recounts the figures of the days not rolled up yet and of the queues, from the records (each through an index
 * on their dates or status), and keeps them for the dashboard. Run by the sweep every LIVE_FIGURES_MS; returns 1
 * when it recounted.
 */
export async function refreshLiveFigures(now: Date, { force = false } = {}) {
  if (!force && (await LiveFiguresModel.exists({ key: 'live', computedAt: { $gt: new Date(now.getTime() - LIVE_FIGURES_MS) } })))
    return null;
  const today = startOfDay(now);
  const latest = await DailyFiguresModel.findOne({}, { day: 1 }).sort({ day: -1 }).lean();
  // everything after the last rolled-up day is counted here (a fresh database: from the beginning)
  const since = latest ? new Date(Date.parse(latest.day) + DAY_MS) : startOfDay((await firstJoinDate()) ?? now);
  const days = [];
  for (let day = since; day <= today; day = new Date(day.getTime() + DAY_MS)) {
    const next = new Date(day.getTime() + DAY_MS);
    const [[newPlayers, claims, withdrawals], issued] = await Promise.all([
      countsOf(day, next),
      postedTotalsByCoin(ISSUING_REASONS, day, next),
    ]);
    days.push({ day: dayKey(day), newPlayers, claims, withdrawals, issued: issued.map((row) => ({ coin: row._id, amount: row.total })) });
  }
  const [
    players,
    newToday,
    activeToday,
    missionsDoneToday,
    reviewsWaiting,
    miningRunning,
    pending,
    issued,
    staked,
    giftsWaiting,
    grantsWaiting,
    changes,
  ] = await Promise.all([
    countPlayers(),
    countJoinedBetween(today, FOREVER),
    countSeenSince(today),
    countDoneBetween(today, FOREVER),
    countReviewsWaiting(),
    countMiningRunning(now),
    pendingWithdrawalTotals(),
    postedTotalsByCoin(ISSUING_REASONS, since, FOREVER),
    lockedStakeChangeBetween(since, FOREVER).then(addUp),
    countGiftsWaiting(),
    countGrantsWaiting(),
    changesWaiting(),
  ]);
  const asking = [...new Set(changes.map((change) => change.requestedBy))];
  const askers = new Map((asking.length ? await operatorsByIds(asking) : []).map((operator) => [operator.id, operator.username]));
  const figures = {
    key: 'live',
    computedAt: now,
    since,
    players,
    newToday,
    activeToday,
    missionsDoneToday,
    reviewsWaiting,
    giftsWaiting,
    grantsWaiting,
    changesWaiting: changes.map(({ id, resource, record, name, requestedBy, requestedAt }) => ({
      id,
      resource,
      record,
      name,
      by: askers.get(requestedBy) ?? '',
      requestedBy,
      at: requestedAt,
    })),
    miningRunning,
    pendingWithdrawals: pending.map((row) => ({ coin: row._id, amount: row.total, count: row.count })),
    issued: issued.map((row) => ({ coin: row._id, amount: row.total })),
    staked: staked.map((row) => ({ coin: row._id, amount: row.total })),
    days,
  };
  await upsertWithRetry(() => LiveFiguresModel.updateOne({ key: 'live' }, { $set: figures }, { upsert: true }));
  return figures;
}

/**
 * The live figures as last recounted, or recounted now when they are older than LIVE_FIGURES_STALE_MS (as when no sweep runs):
 * what the dashboard, the menu's badge and the approvals alert read, so each recount's reads serve them all.
 */
export async function liveFigures(now: Date) {
  const kept = await LiveFiguresModel.findOne({ key: 'live', computedAt: { $gt: new Date(now.getTime() - LIVE_FIGURES_STALE_MS) } }).lean();
  return kept ?? (await refreshLiveFigures(now, { force: true }))!;
}

type DayCounts = { newPlayers?: number | null; claims?: number | null; withdrawals?: number | null };
type DayRecord = DayCounts & { day: string; issued?: Array<{ coin: unknown; amount: number }> | null };

/** The days from `from` to `to`, both included, as 'YYYY-MM-DD'. */
export function daysOf(from: Date, to: Date): string[] {
  return Array.from({ length: Math.round((to.getTime() - from.getTime()) / DAY_MS) + 1 }, (_, i) =>
    dayKey(new Date(from.getTime() + i * DAY_MS)),
  );
}

/** The range a request names, in whole UTC days: by default the 30 days ending today. */
export function rangeOf(now: Date, range: DashboardRange) {
  const to = range.to ? new Date(`${range.to}T00:00:00Z`) : startOfDay(now);
  const from = range.from ? new Date(`${range.from}T00:00:00Z`) : new Date(to.getTime() - (CHART_DAYS - 1) * DAY_MS);
  const length = Math.round((to.getTime() - from.getTime()) / DAY_MS) + 1;
  // the schema checks a range that names both ends; these are the ends a default completed
  if (length < 1) throw badInput({ from: 'The start comes after the end' });
  if (length > DASHBOARD_MAX_DAYS) throw badInput({ from: `At most ${DASHBOARD_MAX_DAYS} days` });
  return { from, to, previousFrom: new Date(from.getTime() - length * DAY_MS), previousTo: new Date(from.getTime() - DAY_MS) };
}

/**
 * The figures an operator checks first, in one answer: each part only when the account may read the records it
 * counts (`canRead`), so the answer never tells more than the lists would. It reads what the sweep keeps: one
 * record per closed day and the live figures (recounted when they are older than two minutes, as when no sweep
 * runs), so its cost does not follow the number of players or records. `range` picks the chart's days and the
 * period whose totals are compared with the period of the same length just before it; `asOf` says when the live
 * figures were counted. Brake changes waiting are counted and listed for an account that may decide them: those on the
 * resources it may write (`canWrite`), as deciding them asks.
 */
export async function dashboardFigures(
  now: Date,
  canRead: (resource: AdminResource) => boolean,
  range: DashboardRange = {},
  canWrite: (resource: AdminResource) => boolean = () => false,
) {
  const { from, to, previousFrom, previousTo } = rangeOf(now, range);
  const users = canRead('users');
  const missions = canRead('user-missions');
  const withdraws = canRead('withdraws');

  const [rolled, live] = await Promise.all([DailyFiguresModel.find({}).sort({ day: 1 }).lean(), liveFigures(now)]);
  const byDay = new Map<string, DayRecord>();
  for (const record of rolled) byDay.set(record.day, record);
  for (const record of live.days) byDay.set(record.day, record);

  const countsOn = (date: string) => {
    const record = byDay.get(date);
    return {
      ...(users ? { newPlayers: record?.newPlayers ?? 0 } : {}),
      ...(missions ? { claims: record?.claims ?? 0 } : {}),
      ...(withdraws ? { withdrawals: record?.withdrawals ?? 0 } : {}),
    };
  };
  const chart = daysOf(from, to).map((date) => ({ date, ...countsOn(date) }));
  /** A period's totals: its counts, and (with the players' permission) the coins issued in it. */
  const totals = async (days: string[]) => {
    const counts = days.map(countsOn);
    const total = (key: keyof DayCounts) => (counts[0]?.[key] === undefined ? null : counts.reduce((sum, day) => sum + (day[key] ?? 0), 0));
    const issuedRows = days.flatMap((date) => byDay.get(date)?.issued ?? []);
    return {
      newPlayers: total('newPlayers'),
      claims: total('claims'),
      withdrawals: total('withdrawals'),
      coinsIssued: users ? await perCoin(addUp(issuedRows.map((row) => ({ _id: row.coin, total: row.amount })))) : null,
    };
  };
  const sums = (part: 'issued' | 'staked') =>
    addUp(
      [...rolled.filter((record) => Date.parse(record.day) < live.since.getTime()).flatMap((record) => record[part]), ...live[part]].map(
        (row) => ({
          _id: row.coin,
          total: row.amount,
        }),
      ),
    );
  const decides = BRAKE_RESOURCES.filter(canWrite);
  const changes = (live.changesWaiting ?? []).filter((change) => decides.includes(change.resource as AdminResource));
  const pendingWithdrawals = withdraws
    ? await perCoin(live.pendingWithdrawals.map((row) => ({ _id: row.coin, total: row.amount, count: row.count })))
    : null;

  return {
    asOf: live.computedAt.toISOString(),
    range: { from: dayKey(from), to: dayKey(to) },
    players: users ? live.players : null,
    newToday: users ? live.newToday : null,
    activeToday: users ? live.activeToday : null,
    missionsDoneToday: missions ? live.missionsDoneToday : null,
    reviewsWaiting: missions ? live.reviewsWaiting : null,
    // what waits for a second operator: an account that may decide it lands on its count, not on an empty page
    giftsWaiting: canRead('gifts') ? (live.giftsWaiting ?? 0) : null,
    grantsWaiting: canRead('accounts') ? (live.grantsWaiting ?? 0) : null,
    // brake changes on the resources the account may decide, the newest named, each linking to its record
    changesWaiting: decides.length
      ? {
          count: changes.length,
          newest: changes.slice(0, CHANGES_LISTED).map(({ id, resource, record, name, by, at }) => ({
            id,
            resource: resource as AdminResource,
            record,
            name: name ?? '',
            by: by ?? '',
            at: at.toISOString(),
          })),
        }
      : null,
    pendingWithdrawals: pendingWithdrawals && {
      count: pendingWithdrawals.reduce((sum, row) => sum + (row.count ?? 0), 0),
      byCoin: pendingWithdrawals,
    },
    coinsIssued: users ? await perCoin(sums('issued')) : null,
    miningRunning: users ? live.miningRunning : null,
    stakedLocked: users ? await perCoin(sums('staked').filter((row) => row.total !== 0)) : null,
    chart,
    period: await totals(daysOf(from, to)),
    previousPeriod: { from: dayKey(previousFrom), to: dayKey(previousTo), ...(await totals(daysOf(previousFrom, previousTo))) },
  };
}
