import { fromMicros, type AdminResource } from '@gift/shared';
import { GiftCoinModel } from '../coins/giftCoin.model';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { MiningSessionModel } from '../mining/miningSession.model';
import { UserMissionModel } from '../missions/mission.models';
import { StakeModel } from '../staking/staking.models';
import { UserModel } from '../users/user.model';
import { WithdrawalModel } from '../withdrawals/withdrawal.model';

const DAY_MS = 24 * 60 * 60 * 1000;
const CHART_DAYS = 30;
/** Ledger reasons that bring new coins into players' hands (a stake's profit arrives with its principal, under 'unstake'). */
const ISSUING_REASONS = ['mission', 'referral', 'mining', 'gift'];

interface CoinAmount {
  coin: string;
  symbol: string;
  amount: string;
}

const startOfDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
const dayKey = (date: Date) => date.toISOString().slice(0, 10);

/** Sums of integer micro-units per coin, named by symbol and in the coins' order. */
async function perCoin(rows: Array<{ _id: unknown; total: number; count?: number }>): Promise<Array<CoinAmount & { count?: number }>> {
  const coins = new Map((await GiftCoinModel.find({}, { symbol: 1, order: 1 }).lean()).map((c) => [String(c._id), c]));
  return rows
    .map((row) => ({ coin: String(row._id), symbol: coins.get(String(row._id))?.symbol ?? '', amount: fromMicros(BigInt(row.total)), ...(row.count !== undefined ? { count: row.count } : {}) }))
    .sort((a, b) => (coins.get(a.coin)?.order ?? 0) - (coins.get(b.coin)?.order ?? 0) || a.symbol.localeCompare(b.symbol));
}

/** Per day (UTC) of the last 30 days: how many of these dates fall on it. */
function countByDay(dates: Array<Date | null | undefined>) {
  const counts = new Map<string, number>();
  for (const date of dates) if (date) counts.set(dayKey(date), (counts.get(dayKey(date)) ?? 0) + 1);
  return (day: Date) => counts.get(dayKey(day)) ?? 0;
}

const datesOf = async (model: { find: (q: object, p: object) => { lean: () => Promise<Array<Record<string, unknown>>> } }, field: string, query: object) =>
  (await model.find(query, { [field]: 1 }).lean()).map((row) => row[field] as Date | null);

/**
 * The figures an operator checks first, in one answer: each part only when the account may read the records it
 * counts (`canRead`), so the answer never tells more than the lists would.
 */
export async function dashboardFigures(now: Date, canRead: (resource: AdminResource) => boolean) {
  const today = startOfDay(now);
  const firstDay = new Date(today.getTime() - (CHART_DAYS - 1) * DAY_MS);
  const users = canRead('users');
  const missions = canRead('user-missions');
  const withdraws = canRead('withdraws');

  const [players, newToday, activeToday, newPlayerDates] = users
    ? await Promise.all([
        UserModel.countDocuments({}),
        UserModel.countDocuments({ createdAt: { $gte: today } }),
        UserModel.countDocuments({ lastSeenAt: { $gte: today } }),
        datesOf(UserModel as never, 'createdAt', { createdAt: { $gte: firstDay } }),
      ])
    : [null, null, null, []];
  const [missionsDoneToday, reviewsWaiting, claimDates] = missions
    ? await Promise.all([
        UserMissionModel.countDocuments({ status: 'done', doneAt: { $gte: today } }),
        UserMissionModel.countDocuments({ status: 'pending' }),
        datesOf(UserMissionModel as never, 'doneAt', { status: 'done', doneAt: { $gte: firstDay } }),
      ])
    : [null, null, []];
  const [pendingWithdrawals, withdrawalDates] = withdraws
    ? await Promise.all([
        WithdrawalModel.aggregate<{ _id: unknown; total: number; count: number }>([
          { $match: { status: 'pending' } },
          { $group: { _id: '$coin', total: { $sum: '$amount' }, count: { $sum: 1 } } },
        ]).then(perCoin),
        datesOf(WithdrawalModel as never, 'createdAt', { createdAt: { $gte: firstDay } }),
      ])
    : [null, []];
  const [coinsIssued, miningRunning, stakedLocked] = users
    ? await Promise.all([
        LedgerEntryModel.aggregate<{ _id: unknown; total: number }>([
          { $match: { state: 'posted', reason: { $in: ISSUING_REASONS } } },
          { $group: { _id: '$coin', total: { $sum: '$amount' } } },
        ]).then(perCoin),
        MiningSessionModel.countDocuments({ endsAt: { $gt: now }, movedAt: null }),
        StakeModel.aggregate<{ _id: unknown; total: number; count: number }>([
          { $match: { claimedAt: null } },
          { $group: { _id: '$coin', total: { $sum: '$amount' }, count: { $sum: 1 } } },
        ]).then(perCoin),
      ])
    : [null, null, null];

  const newPlayersOn = countByDay(newPlayerDates);
  const claimsOn = countByDay(claimDates);
  const withdrawalsOn = countByDay(withdrawalDates);
  const chart = Array.from({ length: CHART_DAYS }, (_, i) => {
    const day = new Date(firstDay.getTime() + i * DAY_MS);
    return {
      date: dayKey(day),
      ...(users ? { newPlayers: newPlayersOn(day) } : {}),
      ...(missions ? { claims: claimsOn(day) } : {}),
      ...(withdraws ? { withdrawals: withdrawalsOn(day) } : {}),
    };
  });

  return {
    players,
    newToday,
    activeToday,
    missionsDoneToday,
    reviewsWaiting,
    pendingWithdrawals: pendingWithdrawals && {
      count: pendingWithdrawals.reduce((sum, row) => sum + (row.count ?? 0), 0),
      byCoin: pendingWithdrawals,
    },
    coinsIssued,
    miningRunning,
    stakedLocked,
    chart,
  };
}
