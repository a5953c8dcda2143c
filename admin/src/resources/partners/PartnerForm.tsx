import { SimpleForm, TextInput } from 'react-admin';
import { partnerInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { OrderAndEnabledInputs } from '../sharedInputs';

export function PartnerForm() {
  return (
    <SimpleForm resolver={schemaResolver(partnerInput)}>
      <TextInput source="name" fullWidth />
      <TextInput source="image" fullWidth helperText="content.partnerImageHelp" />
      <TextInput source="link" fullWidth />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
