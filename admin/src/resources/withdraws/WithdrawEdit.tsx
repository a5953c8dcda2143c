import { DateField, Edit, FormDataConsumer, Labeled, ReferenceField, SelectField, SelectInput, SimpleForm, TextField, TextInput, required } from 'react-admin';
import { SaveOnlyToolbar } from '../sharedInputs';
import { WITHDRAWAL_STATUS_CHOICES } from './statuses';

const DECISIONS = [
  { id: 'done', name: 'Done (sent on chain)' },
  { id: 'rejected', name: 'Reject (the amount goes back to the player)' },
];

/** Settling a withdraw: done with its transaction hash, or rejected with a reason. */
export function WithdrawEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={() => 'withdraw'}>
      <SimpleForm toolbar={<SaveOnlyToolbar />}>
        <Labeled><ReferenceField source="user" reference="users" /></Labeled>
        <Labeled><ReferenceField source="coin" reference="gift-coins" /></Labeled>
        <Labeled><TextField source="amount" /></Labeled>
        <Labeled><TextField source="address" /></Labeled>
        <Labeled><SelectField source="status" choices={WITHDRAWAL_STATUS_CHOICES} /></Labeled>
        <Labeled><DateField source="createdAt" showTime /></Labeled>
        <SelectInput source="status" label="Decision" choices={DECISIONS} validate={required()} />
        <FormDataConsumer<{ status?: string }>>
          {({ formData }) =>
            formData.status === 'done' ? (
              <TextInput source="txHash" validate={required()} fullWidth />
            ) : formData.status === 'rejected' ? (
              <TextInput source="rejectReason" validate={required()} multiline fullWidth />
            ) : null
          }
        </FormDataConsumer>
      </SimpleForm>
    </Edit>
  );
}
