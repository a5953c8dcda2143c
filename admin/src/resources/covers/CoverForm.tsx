import { SimpleForm, TextInput, required } from 'react-admin';
import { OrderAndEnabledInputs } from '../sharedInputs';

export function CoverForm() {
  return (
    <SimpleForm>
      <TextInput source="title" fullWidth />
      <TextInput source="image" type="url" validate={required()} fullWidth />
      <TextInput source="link" type="url" fullWidth />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
