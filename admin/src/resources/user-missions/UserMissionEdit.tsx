import { DateField, Edit, FunctionField, ReferenceField, SelectField, TextField, TextInput } from 'react-admin';
import { userMissionReviewInput } from '@gift/shared';
import type { ProgressRecord } from '@gift/server';
import { EditActions } from '../sharedInputs';
import { DecisionOrRecord } from '../decisionForm';
import { USER_MISSION_STATUS_CHOICES } from './statuses';

const REVIEW_CHOICES = [
  { id: 'done', name: 'reviews.approve' },
  { id: 'rejected', name: 'reviews.reject' },
];

/** Reviewing a Manual mission: approve credits the reward once, reject lets the player try again. Only a pending one is decided. */
export function UserMissionEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list" actions={<EditActions />}>
      <DecisionOrRecord<ProgressRecord>
        open={(r) => r.status === 'pending'}
        facts={[
          <ReferenceField key="user" source="user" reference="users" link="show" />,
          <ReferenceField key="mission" source="mission" reference="missions" />,
          <SelectField key="status" source="status" choices={USER_MISSION_STATUS_CHOICES} />,
          <FunctionField<ProgressRecord> key="reward" source="reward" render={(r) => `${r.reward} ${r.coinSymbol ?? ''}`.trim()} />,
          <DateField key="claimedAt" source="claimedAt" showTime emptyText="—" />,
        ]}
        settled={[
          <DateField key="doneAt" source="doneAt" showTime emptyText="—" />,
          <TextField key="rejectReason" source="rejectReason" emptyText="—" />,
          <TextField key="reviewer" source="reviewerName" label="resources.user-missions.fields.reviewedBy" emptyText="—" />,
        ]}
        schema={userMissionReviewInput}
        label="reviews.decision"
        decisions={REVIEW_CHOICES}
        inputsFor={(status) =>
          status === 'rejected' && <TextInput source="rejectReason" multiline fullWidth helperText="reviews.rejectHelp" />
        }
      />
    </Edit>
  );
}
