import { Card, CardContent, CardHeader } from '@mui/material';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslate } from 'react-admin';
import type { DashboardFigures } from '@gift/server';

/** One day of the dashboard's chart, as the server answers it. */
export type DayFigures = DashboardFigures['chart'][number];

const SERIES = [
  { key: 'newPlayers', color: '#3f8f1f' },
  { key: 'claims', color: '#1976d2' },
  { key: 'withdrawals', color: '#ed6c02' },
] as const;

/** The dashboard's range, one line per figure the account may read. */
export function TrendChart({ days }: { days: DayFigures[] }) {
  const translate = useTranslate();
  const shown = SERIES.filter((s) => days.some((d) => d[s.key] !== undefined));
  if (!shown.length) return null;
  return (
    <Card data-testid="dashboard-chart">
      <CardHeader title={translate('dashboard.chart.title')} />
      <CardContent sx={{ height: 300, pt: 0 }}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={days} margin={{ left: -20, right: 8 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} minTickGap={16} />
            <YAxis allowDecimals={false} />
            <Tooltip />
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
