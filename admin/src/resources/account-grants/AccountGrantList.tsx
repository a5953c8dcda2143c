import { useState } from 'react';
import { Chip, Stack, TextField as ReasonField } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import {
  Button,
  Confirm,
  FunctionField,
  List,
  ReferenceField,
  SelectField,
  SelectInput,
  TextField,
  useGetIdentity,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { ConsoleDateField, formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { useConsoleCalls } from '../../dataProvider';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { usePermissionLabel } from '../accounts/permissions';

interface GrantRow {
  id: string;
  account: string;
  username: string;
  permissions: string[];
  requestedBy: string;
  status: 'pending' | 'approved' | 'applied' | 'rejected';
  decidedBy: string | null;
  rejectReason: string;
  createdAt: string;
}

const STATUSES = ['pending', 'approved', 'applied', 'rejected'].map((id) => ({ id, name: `accountGrants.statuses.${id}` }));

/** Approve (after a confirmation naming the account and the access; never one's own request) or reject with a reason. */
function Decision() {
  const record = useRecordContext<GrantRow>();
  const { identity } = useGetIdentity();
  const calls = useConsoleCalls();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const permissionLabel = usePermissionLabel();
  const [asking, setAsking] = useState<'approve' | 'reject' | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  if (!record || record.status !== 'pending') return null;
  const own = identity?.id !== undefined && String(identity.id) === String(record.requestedBy);
  const act = async (run: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await run();
      notify(done, { type: 'info' });
      setAsking(null);
      refresh();
    } catch (error) {
      notify((error as Error).message || 'common.saveFailed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span onClick={(event) => event.stopPropagation()}>
      <Button
        label="accountGrants.approve"
        startIcon={<CheckIcon />}
        disabled={busy || own}
        title={own ? translate('accountGrants.own') : undefined}
        onClick={() => setAsking('approve')}
      />
      <Button label="accountGrants.reject" color="error" startIcon={<CloseIcon />} disabled={busy} onClick={() => setAsking('reject')} />
      <Confirm
        isOpen={asking === 'approve'}
        loading={busy}
        title="accountGrants.approveTitle"
        content="accountGrants.approveContent"
        translateOptions={{ username: record.username, permissions: record.permissions.map(permissionLabel).join(', ') }}
        confirm="accountGrants.approve"
        onConfirm={() => void act(() => calls.approveGrant(record.id), 'accountGrants.approved')}
        onClose={() => setAsking(null)}
      />
      <Confirm
        isOpen={asking === 'reject'}
        loading={busy}
        title="accountGrants.rejectTitle"
        content={
          <ReasonField
            label={translate('accountGrants.rejectReason')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            name="rejectReason"
            multiline
            fullWidth
            autoFocus
          />
        }
        confirm="accountGrants.reject"
        onConfirm={() => void act(() => calls.rejectGrant(record.id, reason), 'accountGrants.rejected')}
        onClose={() => setAsking(null)}
      />
    </span>
  );
}

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
    >
      <ResponsiveList<GrantRow>
        rowClick={false}
        phone={{
          primaryText: (r) => `${r.username} · ${translate(`accountGrants.statuses.${r.status}`)}`,
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
