import { DateField, Edit, FormDataConsumer, Labeled, ReferenceField, SelectField, SelectInput, SimpleForm, TextField, TextInput, required } from 'react-admin';
import { SaveOnlyToolbar } from '../sharedInputs';
import { USER_MISSION_STATUS_CHOICES } from './statuses';

const REVIEW_CHOICES = [
  { id: 'done', name: 'Approve (credits the reward)' },
  { id: 'rejected', name: 'Reject' },
];

/** Reviewing a Manual mission: approve credits the reward once, reject lets the player try again. */
export function UserMissionEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm toolbar={<SaveOnlyToolbar />}>
        <Labeled><ReferenceField source="user" reference="users" /></Labeled>
        <Labeled><ReferenceField source="mission" reference="missions" /></Labeled>
        <Labeled><SelectField source="status" choices={USER_MISSION_STATUS_CHOICES} /></Labeled>
        <Labeled><TextField source="reward" /></Labeled>
        <Labeled><DateField source="claimedAt" showTime emptyText="—" /></Labeled>
        <SelectInput source="status" label="Decision" choices={REVIEW_CHOICES} validate={required()} />
        <FormDataConsumer<{ status?: string }>>
          {({ formData }) => formData.status === 'rejected' && <TextInput source="rejectReason" multiline fullWidth />}
        </FormDataConsumer>
      </SimpleForm>
    </Edit>
  );
}
