import { BooleanField, Datagrid, DateField, FunctionField, List, SearchInput, SimpleList, TextField, useTranslate } from 'react-admin';
import { Chip, Stack } from '@mui/material';
import { useIsSmall } from '../../layout/useIsSmall';
import { usePermissionLabel } from './permissions';

interface AccountRow {
  id: string;
  username: string;
  permissions: string[];
  enabled: boolean;
}

function Permissions({ record }: { record: AccountRow }) {
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
  const isSmall = useIsSmall();
  const translate = useTranslate();
  const permissionLabel = usePermissionLabel();
  return (
    <List filters={[<SearchInput key="q" source="q" alwaysOn />]}>
      {isSmall ? (
        <SimpleList<AccountRow>
          primaryText={(r) => r.username}
          secondaryText={(r) => r.permissions.map(permissionLabel).join(', ') || '—'}
          tertiaryText={(r) => (r.enabled ? '' : translate('accounts.disabled'))}
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <TextField source="username" />
          <FunctionField<AccountRow> source="permissions" sortable={false} render={(record) => <Permissions record={record} />} />
          <BooleanField source="enabled" />
          <DateField source="lastLoginAt" showTime emptyText="—" />
          <DateField source="createdAt" showTime />
        </Datagrid>
      )}
    </List>
  );
}
