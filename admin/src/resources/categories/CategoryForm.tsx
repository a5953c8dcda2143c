import { SimpleForm, TextInput } from 'react-admin';
import { categoryInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { OrderAndEnabledInputs } from '../sharedInputs';

export function CategoryForm() {
  return (
    <SimpleForm resolver={schemaResolver(categoryInput)}>
      <TextInput source="title" fullWidth />
      <TextInput source="description" multiline fullWidth />
      <TextInput source="image" fullWidth helperText="content.categoryImageHelp" />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
