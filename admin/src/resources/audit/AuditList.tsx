import type { AuditEntryRecord } from '@gift/server';
import { Box, Typography } from '@mui/material';
import { AUDIT_ACTIONS } from '@gift/shared/constants';
import { Link } from 'react-router';
import {
  AutocompleteInput,
  FunctionField,
  List,
  ReferenceInput,
  SelectField,
  SelectInput,
  TextField,
  TextInput,
  useBasename,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { ConsoleDateInput } from '../../forms/ConsoleDateInput';
import { ConsoleDateField, formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import type { CsvColumn } from '../../lists/csvExport';
import { ListActions } from '../../lists/ListActions';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { changeLines, changeText, resourceName } from './auditChanges';

const ACTIONS = AUDIT_ACTIONS.map((id) => ({ id, name: `audit.actions.${id}` }));

/** The fields a write changed, one line each: "Approved by: — → maria", in the console's language. */
function Changes(_props: { label?: string }) {
  const entry = useRecordContext<AuditEntryRecord>();
  const translate = useTranslate();
  const locales = useDateLocales();
  if (!entry) return null;
  const lines = changeLines(entry, { translate, locales });
  if (!lines.length)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('audit.noChange')}
      </Typography>
    );
  const cut = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}…` : text);
  return (
    <Box component="ul" sx={{ m: 0, pl: 2, pr: 0, paddingInlineStart: 2 }} data-testid="audit-changes">
      {lines.map((line) => (
        <Typography component="li" variant="body2" key={line.field} sx={{ wordBreak: 'break-word' }}>
          <strong>{line.label}</strong>: {cut(line.before)}
          {line.before && line.after ? ' → ' : ''}
          {cut(line.after)}
        </Typography>
      ))}
    </Box>
  );
}

/** Record pages by resource: players open on their page, reviews and withdrawals on their decision, the rest on their form. */
const recordPath = (resource: string, id: string) =>
  resource === 'users' ? `/users/${id}/show` : resource === 'app-config' ? '/app-config' : `/${resource}/${id}`;

/** The record written: its name where the server sent one (a player, an operator, a coin), else the end of its id. */
function RecordLink(_props: { label?: string }) {
  const entry = useRecordContext<AuditEntryRecord>();
  const basename = useBasename();
  if (!entry) return null;
  const name = entry.names?.[entry.record];
  return (
    <Link
      to={`${basename}${recordPath(entry.resource, entry.record)}`}
      style={name ? undefined : { fontFamily: 'monospace', fontSize: 12 }}
      title={entry.record}
    >
      {name ?? entry.record.slice(-8)}
    </Link>
  );
}

/** The audit's CSV: one row per write, its changes as the console words them (dates in ISO 8601), names beside ids. */
const AUDIT_CSV: CsvColumn<AuditEntryRecord>[] = [
  { source: 'createdAt' },
  { source: 'username' },
  { source: 'action', words: 'audit.actions' },
  { source: 'resource', value: (r, { translate }) => resourceName(r.resource, translate) },
  { source: 'record' },
  { source: 'recordName', label: 'audit.recordName', value: (r) => r.names?.[r.record] },
  {
    source: 'changes',
    label: 'audit.changes',
    value: (r, { translate }) => changeLines(r, { translate, locales: undefined, isoDates: true }).map(changeText).join('; '),
  },
  { source: 'note' },
];

/**
 * Every operator write, newest first; read-only. Filtered by operator, by a period (from a day, before a day), by action,
 * resource and record; its columns chosen, its filters saved as views, exported as CSV.
 */
export function AuditList() {
  const locales = useDateLocales();
  const translate = useTranslate();
  const filters = [
    searchFilter('audit.search'),
    <ReferenceInput key="account" source="account" reference="accounts">
      <AutocompleteInput optionText="username" label="audit.operator" />
    </ReferenceInput>,
    <ConsoleDateInput key="from" source="createdAt_gte" label="audit.from" />,
    <ConsoleDateInput key="before" source="createdAt_lte" label="audit.before" />,
    <SelectInput key="action" source="action" choices={ACTIONS} />,
    <TextInput key="resource" source="resource" />,
    <TextInput key="record" source="record" />,
  ];
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} actions={<ListActions columns="audit.datagrid" csv={AUDIT_CSV} />}>
      <ResponsiveList<AuditEntryRecord>
        columns="audit.datagrid"
        rowClick={false}
        phone={{
          primaryText: (r) =>
            `${r.username}${translate('common.separator')}${translate(`audit.actions.${r.action}`)} ${resourceName(r.resource, translate)}${translate('common.separator')}${formatWhen(r.createdAt, locales)}`,
          secondaryText: () => <Changes />,
        }}
      >
        <ConsoleDateField source="createdAt" showTime />
        <TextField source="username" sortable={false} />
        <SelectField source="action" choices={ACTIONS} sortable={false} />
        <FunctionField<AuditEntryRecord> source="resource" sortable={false} render={(r) => resourceName(r.resource, translate)} />
        <RecordLink label="resources.audit.fields.record" />
        <Changes label="audit.changes" />
        <TextField source="note" sortable={false} emptyText="" />
      </ResponsiveList>
    </List>
  );
}
