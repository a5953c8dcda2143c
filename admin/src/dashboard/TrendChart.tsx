import { useMemo } from 'react';
import { Card, CardContent, CardHeader } from '@mui/material';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslate } from 'react-admin';
import type { DashboardFigures } from '@gift/server';
import { dayWriter, useDateLocales } from '../lists/ConsoleDateField';

/** One day of the dashboard's chart, as the server answers it. */
export type DayFigures = DashboardFigures['chart'][number];

const SERIES = [
  { key: 'newPlayers', color: '#3f8f1f' },
  { key: 'claims', color: '#1976d2' },
  { key: 'withdrawals', color: '#ed6c02' },
] as const;

/** The chart's axes and tooltip in the console's language: Persian digits and the Persian calendar in Persian. */
function useChartWriters() {
  const locales = useDateLocales();
  return useMemo(() => {
    const numbers = new Intl.NumberFormat(locales);
    return {
      tick: dayWriter(locales, { month: 'short', day: 'numeric' }),
      day: dayWriter(locales, { dateStyle: 'medium' }),
      count: (value: unknown) => numbers.format(Number(value)),
      // a right-to-left console reads time from right to left: the newest day on the left, the counts on the right
      rtl: locales === 'fa-IR',
    };
  }, [locales]);
}

/** The dashboard's range, one line per figure the account may read. */
export function TrendChart({ days }: { days: DayFigures[] }) {
  const translate = useTranslate();
  const write = useChartWriters();
  const shown = SERIES.filter((s) => days.some((d) => d[s.key] !== undefined));
  if (!shown.length) return null;
  return (
    <Card data-testid="dashboard-chart">
      <CardHeader title={translate('dashboard.chart.title')} />
      <CardContent sx={{ height: 300, pt: 0 }}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={days} margin={write.rtl ? { left: 8, right: -20 } : { left: -20, right: 8 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="date" tickFormatter={write.tick} minTickGap={16} reversed={write.rtl} />
            <YAxis allowDecimals={false} tickFormatter={write.count} orientation={write.rtl ? 'right' : 'left'} />
            <Tooltip labelFormatter={(day) => (typeof day === 'string' ? write.day(day) : day)} formatter={write.count} />
            <Legend />
            {shown.map((s) => (
              <Line
                key={s.key}
                type="monotone"
                dataKey={s.key}
                name={translate(`dashboard.chart.${s.key}`)}
                stroke={s.color}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </CardContent>
    </Card>
  );
}
