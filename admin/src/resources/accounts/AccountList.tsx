import type { AccountRecord } from '@gift/server';
import { BooleanField, FunctionField, List, TextField, useTranslate } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { Chip, Stack } from '@mui/material';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { usePermissionLabel } from './permissions';

function Permissions({ record }: { record: AccountRecord }) {
  const permissionLabel = usePermissionLabel();
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {record.permissions.map((p) => (
        <Chip key={p} size="small" label={permissionLabel(p)} />
      ))}
    </Stack>
  );
}

export function AccountList() {
  const translate = useTranslate();
  const permissionLabel = usePermissionLabel();
  return (
    <List filters={[searchFilter()]}>
      <ResponsiveList<AccountRecord>
        phone={{
          primaryText: (r) => r.username,
          secondaryText: (r) => r.permissions.map(permissionLabel).join(', ') || '—',
          tertiaryText: (r) => (r.enabled ? '' : translate('accounts.disabled')),
        }}
      >
        <TextField source="username" />
        <FunctionField<AccountRecord> source="permissions" sortable={false} render={(record) => <Permissions record={record} />} />
        <BooleanField source="enabled" />
        <ConsoleDateField source="lastLoginAt" showTime emptyText="—" />
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
