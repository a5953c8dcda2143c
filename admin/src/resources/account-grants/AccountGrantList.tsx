import { Chip, Stack } from '@mui/material';
import { FunctionField, List, ReferenceField, SelectField, SelectInput, TextField, useRecordContext, useTranslate } from 'react-admin';
import { ConsoleDateField, formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { useConsoleCalls } from '../../dataProvider';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { ListActions } from '../../lists/ListActions';
import { usePermissionLabel } from '../accounts/permissions';
import { ApproveOrReject, requestStatusChoices, type WaitingRequest } from '../ApproveOrReject';

interface GrantRow extends WaitingRequest {
  account: string;
  username: string;
  permissions: string[];
  decidedBy: string | null;
}

const STATUSES = requestStatusChoices('accountGrants');

/** Approve (after a confirmation naming the account and the access; never one's own request) or reject with a reason. */
function Decision() {
  const record = useRecordContext<GrantRow>();
  const calls = useConsoleCalls();
  const permissionLabel = usePermissionLabel();
  if (!record || record.status !== 'pending') return null;
  return (
    <ApproveOrReject
      labels={GRANT_DECISION}
      requestedBy={record.requestedBy}
      approveContent="accountGrants.approveContent"
      approveOptions={{ username: record.username, permissions: record.permissions.map(permissionLabel).join(', ') }}
      approve={() => calls.approveGrant(record.id)}
      reject={(reason) => calls.rejectGrant(record.id, reason)}
    />
  );
}

const GRANT_DECISION = {
  approve: 'accountGrants.approve',
  reject: 'accountGrants.reject',
  approveTitle: 'accountGrants.approveTitle',
  rejectTitle: 'accountGrants.rejectTitle',
  rejectReason: 'accountGrants.rejectReason',
  own: 'accountGrants.own',
  approved: 'accountGrants.approved',
  rejected: 'accountGrants.rejected',
};

function Asked({ record }: { record: GrantRow }) {
  const permissionLabel = usePermissionLabel();
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {record.permissions.map((permission) => (
        <Chip key={permission} size="small" color="warning" variant="outlined" label={permissionLabel(permission)} />
      ))}
    </Stack>
  );
}

/** Access that moves money, asked for operators' accounts: pending first, each waiting for a second, independent operator. */
export function AccountGrantList() {
  const translate = useTranslate();
  const locales = useDateLocales();
  const permissionLabel = usePermissionLabel();
  return (
    <List
      filters={[searchFilter(), <SelectInput key="status" source="status" choices={STATUSES} alwaysOn />]}
      filterDefaultValues={{ status: 'pending' }}
      actions={<ListActions />}
    >
      <ResponsiveList<GrantRow>
        rowClick={false}
        phone={{
          primaryText: (r) => `${r.username}${translate('common.separator')}${translate(`accountGrants.statuses.${r.status}`)}`,
          secondaryText: (r) => r.permissions.map(permissionLabel).join(', '),
          tertiaryText: (r) => formatWhen(r.createdAt, locales),
        }}
      >
        <ReferenceField source="account" reference="accounts" link="edit" sortable={false} label="resources.account-grants.fields.username">
          <TextField source="username" />
        </ReferenceField>
        <FunctionField<GrantRow> source="permissions" sortable={false} render={(record) => <Asked record={record} />} />
        <ReferenceField source="requestedBy" reference="accounts" link={false} sortable={false}>
          <TextField source="username" />
        </ReferenceField>
        <SelectField source="status" choices={STATUSES} sortable={false} />
        <ReferenceField source="decidedBy" reference="accounts" link={false} sortable={false} emptyText="—">
          <TextField source="username" />
        </ReferenceField>
        <TextField source="rejectReason" sortable={false} emptyText="—" />
        <ConsoleDateField source="createdAt" showTime />
        <FunctionField label="accountGrants.decision" render={() => <Decision />} />
      </ResponsiveList>
    </List>
  );
}
