import { FunctionField, List, ReferenceField, SelectField, SelectInput, TextField, useRecordContext, useTranslate } from 'react-admin';
import { ConsoleDateField, formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { useConsoleCalls } from '../../dataProvider';
import { ResponsiveList } from '../../lists/ResponsiveList';
import { ListActions } from '../../lists/ListActions';
import { ApproveOrReject, requestStatusChoices, type WaitingRequest } from '../ApproveOrReject';

interface GiftRow extends WaitingRequest {
  user: string;
  coin: string;
  amount: string;
  note: string;
  /** Which brake stopped it. */
  reason?: 'threshold' | 'daily-limit';
}

const REASONS = ['threshold', 'daily-limit'].map((id) => ({ id, name: `brakes.reasons.${id}` }));
const STATUSES = requestStatusChoices('gifts');

/** Approve (never one's own; money moves, so the amount is confirmed first) or reject with a reason, for a gift that waits. */
function Decision() {
  const record = useRecordContext<GiftRow>();
  const calls = useConsoleCalls();
  const translate = useTranslate();
  if (!record || record.status !== 'pending') return null;
  return (
    <ApproveOrReject
      labels={GIFT_DECISION}
      requestedBy={record.requestedBy}
      approveContent={translate('brakes.confirmGift', { amount: record.amount.startsWith('-') ? record.amount : `+${record.amount}` })}
      approve={() => calls.approveGift(record.id)}
      reject={(reason) => calls.rejectGift(record.id, reason)}
    />
  );
}

const GIFT_DECISION = {
  approve: 'gifts.approve',
  reject: 'gifts.reject',
  approveTitle: 'brakes.confirmGiftTitle',
  rejectTitle: 'gifts.rejectTitle',
  rejectReason: 'gifts.rejectReason',
  own: 'gifts.ownGift',
  approved: 'gifts.approved',
  rejected: 'gifts.rejected',
};

/** Gifts and corrections above their coin's threshold or past their operator's daily limit, each waiting for a second operator. */
export function GiftList() {
  const translate = useTranslate();
  const locales = useDateLocales();
  return (
    <List
      filters={[<SelectInput key="status" source="status" choices={STATUSES} alwaysOn />]}
      filterDefaultValues={{ status: 'pending' }}
      actions={<ListActions />}
    >
      <ResponsiveList<GiftRow>
        rowClick={false}
        phone={{
          primaryText: (r) => `${r.amount}${translate('common.separator')}${translate(`gifts.statuses.${r.status}`)}`,
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
