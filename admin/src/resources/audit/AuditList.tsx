import type { AuditEntryRecord } from '@gift/server';
import { Box, Typography } from '@mui/material';
import { AUDIT_ACTIONS } from '@gift/shared/constants';
import { Link } from 'react-router';
import { List, SelectInput, TextField, TextInput, useBasename, useRecordContext, useTranslate } from 'react-admin';
import { ConsoleDateField, formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';

const ACTIONS = AUDIT_ACTIONS.map((id) => ({ id, name: `audit.actions.${id}` }));

const show = (value: unknown) =>
  value === null || value === undefined || value === '' ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** The fields a write changed: before → after, one line each. */
function Changes(_props: { label?: string }) {
  const entry = useRecordContext<AuditEntryRecord>();
  const translate = useTranslate();
  if (!entry) return null;
  const fields = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  if (!fields.length)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('audit.noChange')}
      </Typography>
    );
  const cut = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {fields.map((field) => (
        <Typography component="li" variant="body2" key={field} sx={{ wordBreak: 'break-word' }}>
          <strong>{field}</strong>: {entry.before && cut(show(entry.before[field]))}
          {entry.before && entry.after ? ' → ' : ''}
          {entry.after && cut(show(entry.after[field]))}
        </Typography>
      ))}
    </Box>
  );
}

/** Record pages by resource: players open on their page, reviews and withdrawals on their decision, the rest on their form. */
const recordPath = (resource: string, id: string) =>
  resource === 'users' ? `/users/${id}/show` : resource === 'app-config' ? '/app-config' : `/${resource}/${id}`;

function RecordLink(_props: { label?: string }) {
  const entry = useRecordContext<AuditEntryRecord>();
  const basename = useBasename();
  if (!entry) return null;
  return (
    <Link to={`${basename}${recordPath(entry.resource, entry.record)}`} style={{ fontFamily: 'monospace', fontSize: 12 }}>
      {entry.record.slice(-8)}
    </Link>
  );
}

/** Every operator write, newest first; read-only. */
export function AuditList() {
  const locales = useDateLocales();
  const filters = [
    searchFilter('audit.search'),
    <SelectInput key="action" source="action" choices={ACTIONS} />,
    <TextInput key="resource" source="resource" />,
    <TextInput key="record" source="record" />,
  ];
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} exporter={false}>
      <ResponsiveList<AuditEntryRecord>
        rowClick={false}
        phone={{
          primaryText: (r) => `${r.username} · ${r.action} ${r.resource} · ${formatWhen(r.createdAt, locales)}`,
          secondaryText: () => <Changes />,
        }}
      >
        <ConsoleDateField source="createdAt" showTime />
        <TextField source="username" sortable={false} />
        <TextField source="action" sortable={false} />
        <TextField source="resource" sortable={false} />
        <RecordLink label="resources.audit.fields.record" />
        <Changes label="audit.changes" />
        <TextField source="note" sortable={false} emptyText="" />
      </ResponsiveList>
    </List>
  );
}
