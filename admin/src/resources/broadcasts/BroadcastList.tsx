import type { BroadcastRecord } from '@gift/server';
import { Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { DateField, FunctionField, List, SelectInput, TextField, useTranslate } from 'react-admin';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { BROADCAST_STATUS_CHOICES } from './statuses';

/** Sent, failed and blocked out of the audience, as a bar and figures. */
export function Progress({ record }: { record: BroadcastRecord }) {
  const translate = useTranslate();
  const done = record.sent + record.failed + record.blocked;
  if (!record.audience) return <Typography variant="body2">—</Typography>;
  return (
    <Stack sx={{ minWidth: 160 }}>
      <LinearProgress
        variant="determinate"
        value={Math.min(100, (done / record.audience) * 100)}
        aria-label={translate('broadcasts.progressLabel')}
      />
      <Typography variant="caption">{translate('broadcasts.progressLine', { done, audience: record.audience })}</Typography>
    </Stack>
  );
}

export function StatusChip({ record }: { record: BroadcastRecord }) {
  const translate = useTranslate();
  const color = (
    { sending: 'primary', done: 'success', paused: 'warning', cancelled: 'default', scheduled: 'info', draft: 'default' } as const
  )[record.status];
  return <Chip size="small" color={color} label={translate(`broadcasts.statuses.${record.status}`)} />;
}

const filters = [
  searchFilter('broadcasts.search'),
  <SelectInput key="status" source="status" choices={BROADCAST_STATUS_CHOICES} alwaysOn />,
];

export function BroadcastList() {
  const translate = useTranslate();
  return (
    <List filters={filters}>
      <ResponsiveList<BroadcastRecord>
        rowClick="show"
        phone={{
          primaryText: (r) => r.text.replace(/<[^>]+>/g, '').slice(0, 80),
          secondaryText: (r) => translate(`broadcasts.statuses.${r.status}`),
          tertiaryText: (r) =>
            r.audience ? translate('broadcasts.progressLine', { done: r.sent + r.failed + r.blocked, audience: r.audience }) : '',
        }}
      >
        <TextField
          source="text"
          sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', maxWidth: 420 }}
        />
        <FunctionField<BroadcastRecord> source="status" render={(record) => <StatusChip record={record} />} />
        <FunctionField<BroadcastRecord> source="sent" sortable={false} render={(record) => <Progress record={record} />} />
        <DateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
