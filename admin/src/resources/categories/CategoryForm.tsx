import { SimpleForm, TextInput, required } from 'react-admin';
import { OrderAndEnabledInputs } from '../sharedInputs';

export function CategoryForm() {
  return (
    <SimpleForm>
      <TextInput source="title" validate={required()} fullWidth />
      <TextInput source="description" multiline fullWidth />
      <TextInput source="image" type="url" fullWidth />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
