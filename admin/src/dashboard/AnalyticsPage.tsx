import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Box,
  Card,
  CardContent,
  Link as MuiLink,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import { Link, useSearchParams } from 'react-router';
import { Title, useBasename, useLocaleState, useTranslate } from 'react-admin';
import type { AnalyticsFigures, CoinAmount } from '@gift/server';
import { REFERRER_ORDERS, type AnalyticsQuery, type DashboardRange } from '@gift/shared';
import { useConsoleCalls } from '../dataProvider';
import { dayWriter, useDateLocales } from '../lists/ConsoleDateField';
import { RangePicker } from './PeriodPanel';

type Order = (typeof REFERRER_ORDERS)[number];

/**
 * The analytics' one call, GET /api/admin/dashboard/analytics?from&to&sort, through react-admin's query client. The range
 * and the referrers' order live in the page's address, so a view can be shared or bookmarked.
 */
function useAnalytics() {
  const calls = useConsoleCalls();
  const [params, setParams] = useSearchParams();
  const range: DashboardRange = { from: params.get('from') ?? undefined, to: params.get('to') ?? undefined };
  const sort = (REFERRER_ORDERS as readonly string[]).includes(params.get('sort') ?? '') ? (params.get('sort') as Order) : 'qualified';
  const { data, isError } = useQuery({
    queryKey: ['analytics', range.from, range.to, sort],
    queryFn: () => calls.getAnalytics(range, { sort }),
    placeholderData: (previous) => previous,
  });
  const set = (next: DashboardRange & AnalyticsQuery) =>
    setParams(Object.fromEntries(Object.entries({ ...range, sort, ...next }).filter((entry): entry is [string, string] => !!entry[1])));
  return { figures: data ?? null, failed: isError, sort, set };
}

/** Numbers, percentages, days and amounts in the console's language (Persian digits and Solar Hijri dates in Persian). */
function useWriting() {
  const translate = useTranslate();
  const locales = useDateLocales();
  const [locale] = useLocaleState();
  const numbers = new Intl.NumberFormat(locales);
  const percent = new Intl.NumberFormat(locales, { style: 'percent', maximumFractionDigits: 0 });
  const digits = (text: string) => (locale === 'fa' ? text.replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!).replace('.', '٫') : text);
  return {
    locale,
    count: (value: number) => numbers.format(value),
    rate: (value: number | null) => (value === null ? '—' : percent.format(value / 100)),
    share: (part: number, whole: number) => (whole ? `${percent.format(part / whole)} (${numbers.format(part)})` : '—'),
    day: dayWriter(locales),
    amounts: (rows: CoinAmount[]) =>
      rows.length ? rows.map((row) => `${digits(row.amount)} ${row.symbol}`).join(translate('common.separator')) : '—',
  };
}

/** A card holding a table that scrolls inside it on a narrow screen, never the page. */
function TableCard({ id, title, note, children }: { id: string; title: string; note: string; children: ReactNode }) {
  return (
    <Card data-testid={`analytics-${id}`} sx={{ minWidth: 0 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {note}
        </Typography>
        <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>{children}</Box>
      </CardContent>
    </Card>
  );
}

const nowrap = { whiteSpace: 'nowrap' } as const;

/** One row per mission: its funnel over the range and what its approvals paid. */
function MissionFunnelTable({ missions }: { missions: NonNullable<AnalyticsFigures['missions']> }) {
  const translate = useTranslate();
  const basename = useBasename();
  const write = useWriting();
  const steps = ['opened', 'go', 'claimed', 'approved'] as const;
  if (!missions.length) return <Typography variant="body2">{translate('analytics.missions.none')}</Typography>;
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell>{translate('analytics.missions.mission')}</TableCell>
          {steps.map((step) => (
            <TableCell key={step} align="right" sx={nowrap}>
              {translate(`analytics.missions.${step}`)}
            </TableCell>
          ))}
          <TableCell sx={nowrap}>{translate('analytics.missions.cost')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {missions.map((row) => (
          <TableRow key={row.mission} data-testid={`funnel-${row.mission}`}>
            <TableCell sx={{ minWidth: 140 }}>
              <MuiLink component={Link} to={`${basename}/missions/${row.mission}`}>
                {(write.locale === 'fa' && row.fa) || row.title}
              </MuiLink>
            </TableCell>
            {steps.map((step) => (
              <TableCell key={step} align="right">
                {write.count(row[step])}
              </TableCell>
            ))}
            <TableCell sx={nowrap}>{write.amounts(row.cost)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function CohortTable({ cohorts }: { cohorts: NonNullable<AnalyticsFigures['cohorts']> }) {
  const translate = useTranslate();
  const write = useWriting();
  const later = ['d1', 'd7', 'd30'] as const;
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell sx={nowrap}>{translate('analytics.cohorts.day')}</TableCell>
          <TableCell align="right">{translate('analytics.cohorts.joined')}</TableCell>
          {later.map((day) => (
            <TableCell key={day} align="right" sx={nowrap}>
              {translate(`analytics.cohorts.${day}`)}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {[...cohorts].reverse().map((row) => (
          <TableRow key={row.day} data-testid={`cohort-${row.day}`}>
            <TableCell sx={nowrap}>{write.day(row.day)}</TableCell>
            <TableCell align="right">{row.joined === null ? '' : write.count(row.joined)}</TableCell>
            {later.map((day) => {
              const active = row[day];
              return (
                <TableCell key={day} align="right" sx={nowrap}>
                  {active === null || row.joined === null ? '' : write.share(active, row.joined)}
                </TableCell>
              );
            })}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ReferrerTable({
  referrers,
  sort,
  onSort,
}: {
  referrers: NonNullable<AnalyticsFigures['referrers']>;
  sort: Order;
  onSort: (sort: Order) => void;
}) {
  const translate = useTranslate();
  const basename = useBasename();
  const write = useWriting();
  if (!referrers.length) return <Typography variant="body2">{translate('analytics.referrers.none')}</Typography>;
  const sortable = (order: Order, label: string) => (
    <TableCell align="right" sx={nowrap} sortDirection={sort === order ? 'desc' : false}>
      <TableSortLabel active={sort === order} direction="desc" onClick={() => onSort(order)}>
        {translate(label)}
      </TableSortLabel>
    </TableCell>
  );
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell>{translate('analytics.referrers.referrer')}</TableCell>
          {sortable('joined', 'analytics.referrers.joined')}
          {sortable('qualified', 'analytics.referrers.qualified')}
          {sortable('rate', 'analytics.referrers.rate')}
          <TableCell sx={nowrap}>{translate('analytics.referrers.paid')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {referrers.map((row) => (
          <TableRow key={row.referrer} data-testid={`referrer-${row.referrer}`}>
            <TableCell sx={{ minWidth: 120 }}>
              <MuiLink component={Link} to={`${basename}/users/${row.referrer}/show`}>
                <bdi>{row.name || (row.username ? `@${row.username}` : row.referrer)}</bdi>
              </MuiLink>
            </TableCell>
            <TableCell align="right">{write.count(row.joined)}</TableCell>
            <TableCell align="right">{write.count(row.qualified)}</TableCell>
            <TableCell align="right">{write.rate(row.rate)}</TableCell>
            <TableCell sx={nowrap}>{write.amounts(row.paid)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * /analytics: over a chosen range (the dashboard's range picker), each mission's funnel and cost, the retention of each day's
 * new players, and the referrers' quality, all read from the days the sweep rolled up. A part the account may not read is left
 * out (the server answers null).
 */
export function AnalyticsPage() {
  const translate = useTranslate();
  const write = useWriting();
  const { figures, failed, sort, set } = useAnalytics();
  return (
    // one column that never grows past the page: a wide table scrolls inside its card
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2, mt: 2 }}>
      <Title title={translate('analytics.title')} />
      {failed && <Typography>{translate('dashboard.loadFailed')}</Typography>}
      {figures && (
        <>
          <Card data-testid="analytics-range">
            <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
              <RangePicker range={figures.range} onRange={(range) => set(range)} />
              <Typography variant="body2" color="text.secondary" data-testid="analytics-through">
                {figures.through
                  ? translate('analytics.through', { day: write.day(figures.through) })
                  : translate('analytics.nothingRolled')}
              </Typography>
            </CardContent>
          </Card>
          {figures.missions && (
            <TableCard id="missions" title={translate('analytics.missions.title')} note={translate('analytics.missions.note')}>
              <MissionFunnelTable missions={figures.missions} />
            </TableCard>
          )}
          {figures.cohorts && (
            <TableCard id="cohorts" title={translate('analytics.cohorts.title')} note={translate('analytics.cohorts.note')}>
              <CohortTable cohorts={figures.cohorts} />
            </TableCard>
          )}
          {figures.referrers && (
            <TableCard id="referrers" title={translate('analytics.referrers.title')} note={translate('analytics.referrers.note')}>
              <ReferrerTable referrers={figures.referrers} sort={sort} onSort={(next) => set({ sort: next })} />
            </TableCard>
          )}
        </>
      )}
    </Box>
  );
}
