import { fromMicros, type AdminResource, type LedgerReason } from '@gift/shared';
import { listGiftCoins } from '../coins/giftCoins.service';
import { postedTotalsByCoin } from '../ledger/ledger.service';
import { countMiningRunning } from '../mining/mining.service';
import { missionFigures } from '../missions/missions.service';
import { lockedStakeTotals } from '../staking/staking.service';
import { playerFigures } from '../users/players.service';
import { pendingWithdrawalTotals, withdrawalDatesSince } from '../withdrawals/withdrawals.service';

const DAY_MS = 24 * 60 * 60 * 1000;
const CHART_DAYS = 30;
/** Ledger reasons that bring new coins into players' hands (a stake's profit arrives with its principal, under 'unstake'). */
const ISSUING_REASONS: LedgerReason[] = ['mission', 'referral', 'mining', 'gift'];

interface CoinAmount {
  coin: string;
  symbol: string;
  amount: string;
}

const startOfDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
const dayKey = (date: Date) => date.toISOString().slice(0, 10);

/** Sums of integer micro-units per coin, named by symbol and in the coins' order. */
async function perCoin(rows: Array<{ _id: unknown; total: number; count?: number }>): Promise<Array<CoinAmount & { count?: number }>> {
  const coins = new Map((await listGiftCoins({ symbol: 1, order: 1 })).map((c) => [String(c._id), c]));
  return rows
    .map((row) => ({
      coin: String(row._id),
      symbol: coins.get(String(row._id))?.symbol ?? '',
      amount: fromMicros(BigInt(row.total)),
      ...(row.count !== undefined ? { count: row.count } : {}),
    }))
    .sort((a, b) => (coins.get(a.coin)?.order ?? 0) - (coins.get(b.coin)?.order ?? 0) || a.symbol.localeCompare(b.symbol));
}

/** Per day (UTC) of the last 30 days: how many of these dates fall on it. */
function countByDay(dates: Array<Date | null | undefined>) {
  const counts = new Map<string, number>();
  for (const date of dates) if (date) counts.set(dayKey(date), (counts.get(dayKey(date)) ?? 0) + 1);
  return (day: Date) => counts.get(dayKey(day)) ?? 0;
}

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

  const [players, newToday, activeToday, newPlayerDates] = users ? await playerFigures(today, firstDay) : [null, null, null, []];
  const [missionsDoneToday, reviewsWaiting, claimDates] = missions ? await missionFigures(today, firstDay) : [null, null, []];
  const [pendingWithdrawals, withdrawalDates] = withdraws
    ? await Promise.all([pendingWithdrawalTotals().then(perCoin), withdrawalDatesSince(firstDay)])
    : [null, []];
  const [coinsIssued, miningRunning, stakedLocked] = users
    ? await Promise.all([postedTotalsByCoin(ISSUING_REASONS).then(perCoin), countMiningRunning(now), lockedStakeTotals().then(perCoin)])
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
