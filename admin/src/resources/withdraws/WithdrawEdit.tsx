import {
  DateField,
  Edit,
  FormDataConsumer,
  FunctionField,
  Labeled,
  ReferenceField,
  SelectField,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link as MuiLink, Stack } from '@mui/material';
import { withdrawalReviewInput } from '@gift/shared';
import type { WithdrawRecord } from '@gift/server';
import { schemaResolver } from '../../forms/schemaResolver';
import { EditActions, SaveOnlyToolbar } from '../sharedInputs';
import { WITHDRAWAL_STATUS_CHOICES } from './statuses';

const DECISIONS = [
  { id: 'approved', name: 'withdraws.decisions.approved' },
  { id: 'done', name: 'withdraws.decisions.done' },
  { id: 'rejected', name: 'withdraws.decisions.rejected' },
];

const wrap = { wordBreak: 'break-all' } as const;

function WithdrawFacts() {
  return (
    <>
      <Labeled>
        <ReferenceField source="user" reference="users" link="show" />
      </Labeled>
      <Labeled>
        <FunctionField<WithdrawRecord> source="amount" render={(r) => `${r.amount} ${r.coinSymbol ?? ''}`.trim()} />
      </Labeled>
      <Labeled>
        <TextField source="address" sx={wrap} />
      </Labeled>
      <Labeled>
        <SelectField source="status" choices={WITHDRAWAL_STATUS_CHOICES} />
      </Labeled>
      <Labeled>
        <DateField source="createdAt" showTime />
      </Labeled>
    </>
  );
}

/** Only a pending withdrawal offers a decision; a processed one is shown as it was settled. */
function DecisionOrRecord() {
  const record = useRecordContext<WithdrawRecord>();
  const translate = useTranslate();
  if (!record) return null;
  // an approved one may still be paid by hand or rejected until the hot wallet takes it into a batch
  if (record.status !== 'pending' && record.status !== 'approved') {
    return (
      <Stack sx={{ p: 2 }} spacing={1}>
        <WithdrawFacts />
        <Labeled>
          <TextField source="chainState" emptyText="—" />
        </Labeled>
        <Labeled>
          <TextField source="txHash" emptyText="—" sx={wrap} />
        </Labeled>
        <Labeled>
          <FunctionField<WithdrawRecord>
            source="explorerUrl"
            render={(r) =>
              r.explorerUrl ? (
                <MuiLink href={r.explorerUrl} target="_blank" rel="noreferrer">
                  {translate('withdraws.explorer')}
                </MuiLink>
              ) : (
                '—'
              )
            }
          />
        </Labeled>
        <Labeled>
          <TextField source="rejectReason" emptyText="—" />
        </Labeled>
        <Labeled>
          <DateField source="processedAt" showTime emptyText="—" />
        </Labeled>
        <Labeled>
          <TextField source="processedByName" label="resources.withdraws.fields.processedBy" emptyText="—" />
        </Labeled>
      </Stack>
    );
  }
  return (
    <SimpleForm toolbar={<SaveOnlyToolbar />} resolver={schemaResolver(withdrawalReviewInput)} defaultValues={{ status: null }}>
      <WithdrawFacts />
      <Labeled>
        <TextField source="chainNote" emptyText="—" />
      </Labeled>
      <SelectInput source="status" label="withdraws.decision" choices={DECISIONS} />
      <FormDataConsumer<{ status?: string }>>
        {({ formData }) =>
          formData.status === 'done' ? (
            <TextInput source="txHash" fullWidth />
          ) : formData.status === 'rejected' ? (
            <TextInput source="rejectReason" multiline fullWidth />
          ) : null
        }
      </FormDataConsumer>
    </SimpleForm>
  );
}

/** Settling a withdraw: approved for the hot wallet, done with its (checked) transaction hash, or rejected with a reason. */
export function WithdrawEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={() => 'withdraw'} actions={<EditActions list={false} />}>
      <DecisionOrRecord />
    </Edit>
  );
}
