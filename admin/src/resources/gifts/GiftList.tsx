import { useState } from 'react';
import { TextField as ReasonField } from '@mui/material';
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
import { ResponsiveList } from '../../lists/ResponsiveList';

interface GiftRow {
  id: string;
  user: string;
  coin: string;
  amount: string;
  note: string;
  requestedBy: string;
  status: 'pending' | 'approved' | 'applied' | 'rejected';
  /** Which brake stopped it. */
  reason?: 'threshold' | 'daily-limit';
  rejectReason: string;
  createdAt: string;
}

const REASONS = ['threshold', 'daily-limit'].map((id) => ({ id, name: `brakes.reasons.${id}` }));
const STATUSES = ['pending', 'approved', 'applied', 'rejected'].map((id) => ({ id, name: `gifts.statuses.${id}` }));

/** Approve (never one's own) or reject with a reason, for a gift that waits. */
function Decision() {
  const record = useRecordContext<GiftRow>();
  const { identity } = useGetIdentity();
  const calls = useConsoleCalls();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [rejecting, setRejecting] = useState(false);
  const [approving, setApproving] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  if (!record || record.status !== 'pending') return null;
  const own = identity?.id !== undefined && String(identity.id) === String(record.requestedBy);
  const act = async (run: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await run();
      notify(done, { type: 'info' });
      setRejecting(false);
      setApproving(false);
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
        label="gifts.approve"
        startIcon={<CheckIcon />}
        disabled={busy || own}
        title={own ? translate('gifts.ownGift') : undefined}
        onClick={() => setApproving(true)}
      />
      {/* money moves on approval: the operator confirms the amount first */}
      <Confirm
        isOpen={approving}
        loading={busy}
        title="brakes.confirmGiftTitle"
        content={translate('brakes.confirmGift', { amount: record.amount.startsWith('-') ? record.amount : `+${record.amount}` })}
        confirm="gifts.approve"
        onConfirm={() => void act(() => calls.approveGift(record.id), 'gifts.approved')}
        onClose={() => setApproving(false)}
      />
      <Button label="gifts.reject" color="error" startIcon={<CloseIcon />} disabled={busy} onClick={() => setRejecting(true)} />
      <Confirm
        isOpen={rejecting}
        loading={busy}
        title="gifts.rejectTitle"
        content={
          <ReasonField
            label={translate('gifts.rejectReason')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            name="rejectReason"
            multiline
            fullWidth
            autoFocus
          />
        }
        confirm="gifts.reject"
        onConfirm={() => void act(() => calls.rejectGift(record.id, reason), 'gifts.rejected')}
        onClose={() => setRejecting(false)}
      />
    </span>
  );
}

/** Gifts and corrections above their coin's threshold or past their operator's daily limit, each waiting for a second operator. */
export function GiftList() {
  const translate = useTranslate();
  const locales = useDateLocales();
  return (
    <List filters={[<SelectInput key="status" source="status" choices={STATUSES} alwaysOn />]} filterDefaultValues={{ status: 'pending' }}>
      <ResponsiveList<GiftRow>
        rowClick={false}
        phone={{
          primaryText: (r) => `${r.amount} · ${translate(`gifts.statuses.${r.status}`)}`,
          secondaryText: (r) => r.note,
          tertiaryText: (r) => formatWhen(r.createdAt, locales),
        }}
      >
        <ReferenceField source="user" reference="users" link="show" sortable={false} />
        <FunctionField<GiftRow> source="amount" render={(r) => (r.amount.startsWith('-') ? r.amount : `+${r.amount}`)} />
        <ReferenceField source="coin" reference="gift-coins" link={false} sortable={false}>
          <TextField source="symbol" />
        </ReferenceField>
        <TextField source="note" sortable={false} />
        <ReferenceField source="requestedBy" reference="accounts" link={false} sortable={false}>
          <TextField source="username" />
        </ReferenceField>
        <SelectField source="status" choices={STATUSES} sortable={false} />
        <SelectField source="reason" label="brakes.reason" choices={REASONS} sortable={false} />
        <TextField source="rejectReason" sortable={false} emptyText="—" />
        <ConsoleDateField source="createdAt" showTime />
        <FunctionField label="gifts.decision" render={() => <Decision />} />
      </ResponsiveList>
    </List>
  );
}
