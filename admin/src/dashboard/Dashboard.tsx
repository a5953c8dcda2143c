import { Card, CardContent, Typography, Box } from '@mui/material';
import { Link } from 'react-router';
import { Title, useBasename, useCreatePath, useGetList, useTranslate } from 'react-admin';

interface FigureCardProps {
  label: string;
  resource: string;
  filter?: Record<string, unknown>;
  to: string;
}

/** One figure: the total of a filtered list, read from its Content-Range. */
function FigureCard({ label, resource, filter = {}, to }: FigureCardProps) {
  const translate = useTranslate();
  const { total, isPending, error } = useGetList(resource, { pagination: { page: 1, perPage: 1 }, sort: { field: 'createdAt', order: 'DESC' }, filter });
  const value = error ? '—' : isPending ? '…' : String(total ?? 0);
  return (
    <Card sx={{ flex: '1 1 200px', minWidth: 180 }}>
      <CardContent component={Link} to={to} sx={{ display: 'block', color: 'inherit', textDecoration: 'none' }}>
        <Typography variant="body2" color="text.secondary">
          {translate(label)}
        </Typography>
        <Typography variant="h4" component="p" data-testid={`figure-${label}`}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

function startOfToday(): string {
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  return today.toISOString();
}

/** The figures an operator checks first. */
export function Dashboard() {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const basename = useBasename();
  const list = (resource: string) => createPath({ resource, type: 'list' });
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('dashboard.title')} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <FigureCard label="dashboard.players" resource="users" to={list('users')} />
        <FigureCard label="dashboard.newToday" resource="users" filter={{ createdAt_gte: startOfToday() }} to={list('users')} />
        <FigureCard label="dashboard.missionsDone" resource="user-missions" filter={{ status: 'done' }} to={list('user-missions')} />
        <FigureCard label="dashboard.pendingReviews" resource="user-missions" filter={{ status: 'pending' }} to={list('user-missions')} />
        <FigureCard label="dashboard.pendingWithdraws" resource="withdraws" filter={{ status: 'pending' }} to={`${basename}/withdraw`} />
      </Box>
    </Box>
  );
}
