import { Box, Button, ButtonGroup, Card, CardContent, IconButton, Tooltip, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useTranslate } from 'react-admin';
import { DASHBOARD_MAX_DAYS, toMicros, type DashboardRange } from '@gift/shared';
import type { DashboardFigures } from '@gift/server';
import { dayWriter, formatWhen, useDateLocales } from '../lists/ConsoleDateField';
import { useAmount, useNumbers } from '../lists/useAmount';
import { ConsoleDayField } from '../forms/ConsoleDateInput';

const DAY_MS = 24 * 60 * 60 * 1000;
const PRESETS = [7, 30, 90] as const;
const dayKey = (date: Date) => date.toISOString().slice(0, 10);
const spanOf = ({ from, to }: { from: string; to: string }) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;

/** The `days` days ending today (UTC, as the server counts them). */
const lastDays = (days: number): Required<DashboardRange> => ({
  from: dayKey(new Date(Date.now() - (days - 1) * DAY_MS)),
  to: dayKey(new Date()),
});

/**
 * The range with one end moved, kept one the server answers: the other end follows when they would cross, and the start
 * when the range would pass DASHBOARD_MAX_DAYS (a refusal would leave the operator a page that failed to load).
 */
export function withinLimits(range: Required<DashboardRange>, end: 'from' | 'to', value: string): Required<DashboardRange> {
  const next = { ...range, [end]: value };
  if (next.from > next.to) return { from: value, to: value };
  if (spanOf(next) > DASHBOARD_MAX_DAYS) {
    const moved = Date.parse(value) + (end === 'from' ? 1 : -1) * (DASHBOARD_MAX_DAYS - 1) * DAY_MS;
    return end === 'from' ? { from: value, to: dayKey(new Date(moved)) } : { from: dayKey(new Date(moved)), to: value };
  }
  return next;
}

/** How a figure moved against the period before: a whole percent (exact, from integers), or "new" from nothing. */
function change(now: bigint, before: bigint): { key: string; percent?: number } {
  if (before === 0n) return { key: now === 0n ? 'same' : 'fromNothing' };
  const percent = Number(((now - before) * 100n) / before);
  return percent === 0 ? { key: 'same' } : { key: percent > 0 ? 'up' : 'down', percent: Math.abs(percent) };
}

type Period = DashboardFigures['period'];
type Totals = { id: string; now: bigint; before: bigint; label: string; unit?: string; shown?: string };

/** The period's totals, each beside how it moved against the period of the same length before it. */
function totalsOf(period: Period, previous: Period, translate: (key: string) => string): Totals[] {
  const counts = (['newPlayers', 'claims', 'withdrawals'] as const).flatMap((id) => {
    const now = period[id];
    return now === null ? [] : [{ id, now: BigInt(now), before: BigInt(previous[id] ?? 0), label: translate(`dashboard.chart.${id}`) }];
  });
  const issued = (period.coinsIssued ?? []).map((row) => ({
    id: `issued-${row.symbol}`,
    now: toMicros(row.amount),
    before: toMicros(previous.coinsIssued?.find((p) => p.coin === row.coin)?.amount ?? '0'),
    label: translate('dashboard.coinsIssued'),
    unit: row.symbol,
    shown: row.amount,
  }));
  return [...counts, ...issued];
}

/** The range's presets (7, 30 and 90 days ending today) and its two ends: the dashboard's, and the analytics page's. */
export function RangePicker({ range, onRange }: { range: Required<DashboardRange>; onRange: (range: DashboardRange) => void }) {
  const translate = useTranslate();
  const numbers = useNumbers();
  const span = spanOf(range);
  const endsToday = range.to === dayKey(new Date());
  const setEnd = (end: 'from' | 'to') => (value: string) => onRange(withinLimits(range, end, value));
  return (
    <>
      <ButtonGroup size="small" aria-label={translate('dashboard.period.presets')}>
        {PRESETS.map((days) => (
          <Button key={days} variant={endsToday && span === days ? 'contained' : 'outlined'} onClick={() => onRange(lastDays(days))}>
            {translate('dashboard.period.lastDays', { count: numbers.format(days) })}
          </Button>
        ))}
      </ButtonGroup>
      {(['from', 'to'] as const).map((end) => (
        <ConsoleDayField
          key={end}
          size="small"
          label={translate(`dashboard.period.${end}`)}
          value={range[end]}
          onChange={setEnd(end)}
          sx={{ width: { xs: '100%', sm: 190 } }}
        />
      ))}
    </>
  );
}

/**
 * The range the dashboard counts (presets of 7, 30 and 90 days, or two dates), when its figures were counted, and the
 * period's totals against the period of the same length just before it.
 */
export function PeriodPanel({
  figures,
  onRange,
  onRefresh,
}: {
  figures: DashboardFigures;
  onRange: (range: DashboardRange) => void;
  onRefresh: () => void;
}) {
  const translate = useTranslate();
  const locales = useDateLocales();
  const numbers = useNumbers();
  const amount = useAmount();
  const { range, period, previousPeriod } = figures;
  const day = dayWriter(locales);
  return (
    <Card data-testid="dashboard-period">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <RangePicker range={range} onRange={onRange} />
          <Box sx={{ display: 'flex', alignItems: 'center', marginInlineStart: 'auto' }}>
            <Typography variant="body2" color="text.secondary" data-testid="dashboard-as-of">
              {translate('dashboard.period.asOf', { time: formatWhen(figures.asOf, locales) })}
            </Typography>
            <Tooltip title={translate('dashboard.period.refresh')}>
              <IconButton aria-label={translate('dashboard.period.refresh')} onClick={onRefresh} size="small">
                <RefreshIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Box>
        </Box>
        <Typography variant="body2" color="text.secondary">
          {translate('dashboard.period.comparing', {
            from: day(range.from),
            to: day(range.to),
            previousFrom: day(previousPeriod.from),
            previousTo: day(previousPeriod.to),
          })}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3 }}>
          {totalsOf(period, previousPeriod, translate).map((total) => {
            const moved = change(total.now, total.before);
            return (
              <Box key={total.id} sx={{ flex: '1 1 150px', minWidth: 0 }} data-testid={`period-${total.id}`}>
                <Typography variant="body2" color="text.secondary">
                  {total.label}
                  {total.unit ? ` (${total.unit})` : ''}
                </Typography>
                <Typography variant="h5" component="div" sx={{ wordBreak: 'break-word' }}>
                  {total.shown === undefined ? numbers.format(total.now) : amount(total.shown)}
                </Typography>
                <Typography
                  variant="caption"
                  color={moved.key === 'up' ? 'success.main' : moved.key === 'down' ? 'error.main' : 'text.secondary'}
                >
                  {translate(`dashboard.period.change.${moved.key}`, { percent: numbers.format(moved.percent ?? 0) })}
                </Typography>
              </Box>
            );
          })}
        </Box>
      </CardContent>
    </Card>
  );
}
