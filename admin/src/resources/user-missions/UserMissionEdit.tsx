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
} from 'react-admin';
import { Stack } from '@mui/material';
import { userMissionReviewInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { EditActions, SaveOnlyToolbar } from '../sharedInputs';
import { USER_MISSION_STATUS_CHOICES } from './statuses';
import type { ProgressRecord } from '@gift/server';

const REVIEW_CHOICES = [
  { id: 'done', name: 'reviews.approve' },
  { id: 'rejected', name: 'reviews.reject' },
];

function ProgressFacts() {
  return (
    <>
      <Labeled>
        <ReferenceField source="user" reference="users" link="show" />
      </Labeled>
      <Labeled>
        <ReferenceField source="mission" reference="missions" />
      </Labeled>
      <Labeled>
        <SelectField source="status" choices={USER_MISSION_STATUS_CHOICES} />
      </Labeled>
      <Labeled>
        <FunctionField<ProgressRecord> source="reward" render={(r) => `${r.reward} ${r.coinSymbol ?? ''}`.trim()} />
      </Labeled>
      <Labeled>
        <DateField source="claimedAt" showTime emptyText="—" />
      </Labeled>
    </>
  );
}

/** Only a pending review offers a decision; a finished one is shown as it was decided. */
function ReviewOrRecord() {
  const record = useRecordContext<ProgressRecord>();
  if (!record) return null;
  if (record.status !== 'pending') {
    return (
      <Stack sx={{ p: 2 }} spacing={1}>
        <ProgressFacts />
        <Labeled>
          <DateField source="doneAt" showTime emptyText="—" />
        </Labeled>
        <Labeled>
          <TextField source="rejectReason" emptyText="—" />
        </Labeled>
        <Labeled>
          <TextField source="reviewerName" label="resources.user-missions.fields.reviewedBy" emptyText="—" />
        </Labeled>
      </Stack>
    );
  }
  return (
    <SimpleForm toolbar={<SaveOnlyToolbar />} resolver={schemaResolver(userMissionReviewInput)} defaultValues={{ status: null }}>
      <ProgressFacts />
      <SelectInput source="status" label="reviews.decision" choices={REVIEW_CHOICES} />
      <FormDataConsumer<{ status?: string }>>
        {({ formData }) =>
          formData.status === 'rejected' && <TextInput source="rejectReason" multiline fullWidth helperText="reviews.rejectHelp" />
        }
      </FormDataConsumer>
    </SimpleForm>
  );
}

/** Reviewing a Manual mission: approve credits the reward once, reject lets the player try again. */
export function UserMissionEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list" actions={<EditActions />}>
      <ReviewOrRecord />
    </Edit>
  );
}
