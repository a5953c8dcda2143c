import { SimpleForm, TextInput } from 'react-admin';
import { coverInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { OrderAndEnabledInputs } from '../sharedInputs';

export function CoverForm() {
  return (
    <SimpleForm resolver={schemaResolver(coverInput)}>
      <TextInput source="title" fullWidth />
      <TextInput source="image" fullWidth helperText="content.coverImageHelp" />
      <TextInput source="link" fullWidth />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
