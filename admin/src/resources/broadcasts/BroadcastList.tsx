import type { BroadcastRecord } from '@gift/server';
import { Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { FunctionField, List, SelectInput, useTranslate } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { parseTelegramHtml, plainTextOf } from '@gift/shared/schemas/broadcasts';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { ListActions } from '../../lists/ListActions';
import { BROADCAST_STATUS_CHOICES } from './statuses';

/** A message as players read it: formatting tags left out, entities as their characters. */
export function plainText(html: string): string {
  const read = parseTelegramHtml(html);
  return 'problem' in read ? html : plainTextOf(read.pieces);
}

/** What is settled of a broadcast: sent, failed, blocked, and unknown (in flight when a sender stopped). */
const settledOf = (record: BroadcastRecord) => record.sent + record.failed + record.blocked + (record.unknown ?? 0);

/** Sent, failed, blocked and unknown out of the audience, as a bar and figures. */
export function Progress({ record }: { record: BroadcastRecord }) {
  const translate = useTranslate();
  const done = settledOf(record);
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
    <List filters={filters} actions={<ListActions />}>
      <ResponsiveList<BroadcastRecord>
        rowClick="show"
        phone={{
          primaryText: (r) => plainText(r.text).slice(0, 80),
          secondaryText: (r) => translate(`broadcasts.statuses.${r.status}`),
          tertiaryText: (r) => (r.audience ? translate('broadcasts.progressLine', { done: settledOf(r), audience: r.audience }) : ''),
        }}
      >
        <FunctionField<BroadcastRecord>
          source="text"
          render={(record) => (
            <Typography
              variant="body2"
              sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', maxWidth: 420 }}
            >
              {plainText(record.text)}
            </Typography>
          )}
        />
        <FunctionField<BroadcastRecord> source="status" render={(record) => <StatusChip record={record} />} />
        <FunctionField<BroadcastRecord> source="sent" sortable={false} render={(record) => <Progress record={record} />} />
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
