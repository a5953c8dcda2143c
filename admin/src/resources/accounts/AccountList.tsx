import type { AccountRecord } from '@gift/server';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import { BooleanField, Button, FunctionField, List, ReferenceField, TextField, useCreatePath, useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { Chip, Stack } from '@mui/material';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { ListActions } from '../../lists/ListActions';
import { usePermissionLabel } from './permissions';

/** What the account holds, then what waits for a second operator (outlined). */
function Permissions({ record }: { record: AccountRecord }) {
  const permissionLabel = usePermissionLabel();
  const translate = useTranslate();
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {record.permissions.map((p) => (
        <Chip key={p} size="small" label={permissionLabel(p)} />
      ))}
      {(record.pendingGrant?.permissions ?? []).map((p) => (
        <Chip
          key={`waiting-${p}`}
          size="small"
          color="warning"
          variant="outlined"
          label={translate('accounts.waiting', { permission: permissionLabel(p) })}
        />
      ))}
    </Stack>
  );
}

/** The way to access waiting for a second operator, with how much waits (the accounts' own menu item). */
function WaitingAccess() {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const { total } = useGetList('account-grants', { filter: { status: 'pending' }, pagination: { page: 1, perPage: 1 } });
  return (
    <Button
      component={Link}
      to={createPath({ resource: 'account-grants', type: 'list' })}
      label={translate('accountGrants.waitingCount', { count: total ?? 0 })}
      color={total ? 'warning' : 'primary'}
    >
      <HowToRegIcon />
    </Button>
  );
}

export function AccountList() {
  const translate = useTranslate();
  const permissionLabel = usePermissionLabel();
  return (
    <List
      filters={[searchFilter()]}
      actions={
        <ListActions>
          <WaitingAccess />
        </ListActions>
      }
    >
      <ResponsiveList<AccountRecord>
        phone={{
          primaryText: (r) => r.username,
          secondaryText: (r) =>
            [
              ...r.permissions.map(permissionLabel),
              ...(r.pendingGrant?.permissions ?? []).map((p) => translate('accounts.waiting', { permission: permissionLabel(p) })),
            ].join(', ') || '—',
          tertiaryText: (r) => (r.enabled ? '' : translate('accounts.disabled')),
        }}
      >
        <TextField source="username" />
        <FunctionField<AccountRecord> source="permissions" sortable={false} render={(record) => <Permissions record={record} />} />
        <BooleanField source="enabled" />
        <ReferenceField source="createdBy" reference="accounts" link={false} sortable={false} emptyText={translate('accounts.noCreator')}>
          <TextField source="username" />
        </ReferenceField>
        <ConsoleDateField source="lastLoginAt" showTime emptyText="—" />
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
