import { lazy, Suspense, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { Link, useSearchParams } from 'react-router';
import { Title, useBasename, useTranslate } from 'react-admin';
import { useConsoleCalls } from '../dataProvider';
import { useAmount, useNumbers } from '../lists/useAmount';
import type { CoinAmount } from '@gift/server';
import type { DashboardRange } from '@gift/shared';
import { PeriodPanel } from './PeriodPanel';
import { ChangesWaitingList } from './ChangesWaiting';

// the chart library is most of the console's weight: it loads with the dashboard's figures, not with the console
const TrendChart = lazy(() => import('./TrendChart').then((module) => ({ default: module.TrendChart })));

/**
 * The dashboard's one call, GET /api/admin/dashboard?from&to, through react-admin's query client (cached, retried,
 * refetched on focus). The range lives in the page's address (`?from=…&to=…`), so a range can be shared or bookmarked;
 * without one the server answers the 30 days ending today.
 */
function useDashboard() {
  const dataProvider = useConsoleCalls();
  const [params, setParams] = useSearchParams();
  const range: DashboardRange = { from: params.get('from') ?? undefined, to: params.get('to') ?? undefined };
  const { data, isError, refetch } = useQuery({
    queryKey: ['dashboard', range.from, range.to],
    queryFn: () => dataProvider.getDashboard(range),
    placeholderData: (previous) => previous,
  });
  const setRange = (next: DashboardRange) => setParams({ ...(next.from ? { from: next.from } : {}), ...(next.to ? { to: next.to } : {}) });
  return { figures: data ?? null, failed: isError, setRange, refresh: () => void refetch() };
}

/** Where each count of what waits for a second operator is decided. */
const WAITING_LISTS = { giftsWaiting: 'gifts', grantsWaiting: 'account-grants' } as const;

/** An exact decimal amount in the console's digits (useAmount). */
type Amount = (decimal: string) => string;

const perCoin = (rows: CoinAmount[], separator: string, amount: Amount) =>
  rows.length ? rows.map((r) => `${amount(r.amount)} ${r.symbol}`).join(separator) : amount('0');
/** Amounts per coin, one line each, small enough to fit a card. */
const coinLines = (rows: CoinAmount[], amount: Amount) =>
  rows.length ? (
    <Box component="span" sx={{ display: 'block', fontSize: '1.25rem', lineHeight: 1.6 }}>
      {rows.map((r) => (
        <Box component="span" key={r.coin} sx={{ display: 'block' }}>
          {amount(r.amount)} {r.symbol}
        </Box>
      ))}
    </Box>
  ) : (
    amount('0')
  );

interface Figure {
  id: string;
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  /** The page the card links to. */
  to?: string;
  /** What the card shows under its figure, with links of its own (the card then links nowhere itself). */
  below?: ReactNode;
}

/** One figure; left out when the account may not read what it counts (the server answers null). */
function FigureCard({ id, label, value, detail, to, below }: Figure) {
  const body = (
    <CardContent>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h4" component="div" data-testid={`figure-dashboard.${id}`} sx={{ wordBreak: 'break-word' }}>
        {value}
      </Typography>
      {detail && (
        <Typography variant="body2" color="text.secondary" data-testid={`figure-dashboard.${id}-detail`}>
          {detail}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Card sx={{ flex: '1 1 200px', minWidth: 0 }}>
      {to ? (
        <Box component={Link} to={to} sx={{ display: 'block', color: 'inherit', textDecoration: 'none' }}>
          {body}
        </Box>
      ) : (
        body
      )}
      {below}
    </Card>
  );
}

/** The figures an operator checks first, and their trend, from one REST call (the demo's dashboard, without its many calls). */
export function Dashboard() {
  const translate = useTranslate();
  const basename = useBasename();
  const { figures, failed, setRange, refresh } = useDashboard();
  // every figure in the console's digits, as the period panel writes its own (Persian digits in Persian)
  const numbers = useNumbers();
  const amount = useAmount();
  const reviewFilter = encodeURIComponent(JSON.stringify({ status: 'pending' }));
  if (failed) return <Typography sx={{ mt: 2 }}>{translate('dashboard.loadFailed')}</Typography>;
  const loading = '…';
  const count = (value: number | null | undefined) => (value === null || value === undefined ? loading : numbers.format(value));
  const f = figures;
  const changes = f?.changesWaiting;
  const below = changes && <ChangesWaitingList changes={changes.newest} />;
  const cards: Array<Figure | null> = [
    f?.players !== null
      ? {
          id: 'players',
          label: translate('dashboard.players'),
          value: count(f?.players),
          detail: f ? translate('dashboard.activeToday', { count: count(f.activeToday) }) : undefined,
          to: `${basename}/users`,
        }
      : null,
    f?.newToday !== null ? { id: 'newToday', label: translate('dashboard.newToday'), value: count(f?.newToday) } : null,
    f?.missionsDoneToday !== null
      ? { id: 'missionsDone', label: translate('dashboard.missionsDone'), value: count(f?.missionsDoneToday) }
      : null,
    f?.reviewsWaiting !== null
      ? {
          id: 'pendingReviews',
          label: translate('dashboard.pendingReviews'),
          value: count(f?.reviewsWaiting),
          to: `${basename}/user-missions?filter=${reviewFilter}`,
        }
      : null,
    // what waits for a second operator, for an account that may decide it
    ...(['giftsWaiting', 'grantsWaiting'] as const).map((id) =>
      f?.[id] !== null ? { id, label: translate(`dashboard.${id}`), value: count(f?.[id]), to: `${basename}/${WAITING_LISTS[id]}` } : null,
    ),
    // brake changes waiting, on records of several resources: the newest each link to their record
    changes !== null ? { id: 'changesWaiting', label: translate('dashboard.changesWaiting'), value: count(changes?.count), below } : null,
    f?.pendingWithdrawals !== null
      ? {
          id: 'pendingWithdraws',
          label: translate('dashboard.pendingWithdraws'),
          value: count(f?.pendingWithdrawals?.count),
          detail: f?.pendingWithdrawals ? perCoin(f.pendingWithdrawals.byCoin, translate('common.separator'), amount) : undefined,
          to: `${basename}/withdraw`,
        }
      : null,
    f?.coinsIssued !== null
      ? { id: 'coinsIssued', label: translate('dashboard.coinsIssued'), value: f?.coinsIssued ? coinLines(f.coinsIssued, amount) : loading }
      : null,
    f?.miningRunning !== null ? { id: 'miningRunning', label: translate('dashboard.miningRunning'), value: count(f?.miningRunning) } : null,
    f?.stakedLocked !== null
      ? {
          id: 'stakedLocked',
          label: translate('dashboard.stakedLocked'),
          value: f?.stakedLocked ? coinLines(f.stakedLocked, amount) : loading,
        }
      : null,
  ];
  return (
    <Box sx={{ mt: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Title title={translate('dashboard.title')} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>{cards.map((card) => card && <FigureCard key={card.id} {...card} />)}</Box>
      {f && <PeriodPanel figures={f} onRange={setRange} onRefresh={refresh} />}
      {f && (
        <Suspense fallback={null}>
          <TrendChart days={f.chart} />
        </Suspense>
      )}
      {f && cards.every((c) => c === null) && <Typography>{translate('dashboard.nothingToShow')}</Typography>}
    </Box>
  );
}
