import { SimpleForm, TextInput } from 'react-admin';
import { categoryInput } from '@gift/shared';
import { BilingualInput } from '../../forms/BilingualInput';
import { schemaResolver } from '../../forms/schemaResolver';
import { OrderAndEnabledInputs } from '../sharedInputs';

export function CategoryForm() {
  return (
    <SimpleForm resolver={schemaResolver(categoryInput)}>
      <BilingualInput source="title" />
      <BilingualInput source="description" multiline />
      <TextInput source="image" fullWidth helperText="content.categoryImageHelp" />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
