import { BooleanField, Datagrid, DateField, FunctionField, List, SearchInput, SimpleList, TextField } from 'react-admin';
import { Chip, Stack } from '@mui/material';
import { useIsSmall } from '../../layout/useIsSmall';
import { permissionLabel } from './permissions';

interface AccountRow {
  id: string;
  username: string;
  permissions: string[];
  enabled: boolean;
}

function Permissions({ record }: { record: AccountRow }) {
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
  return (
    <List filters={[<SearchInput key="q" source="q" alwaysOn />]}>
      {isSmall ? (
        <SimpleList<AccountRow>
          primaryText={(r) => r.username}
          secondaryText={(r) => r.permissions.map(permissionLabel).join(', ') || '—'}
          tertiaryText={(r) => (r.enabled ? '' : 'Disabled')}
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
