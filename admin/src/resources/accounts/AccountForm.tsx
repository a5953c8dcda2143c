import { AutocompleteArrayInput, BooleanInput, PasswordInput, SimpleForm, TextInput } from 'react-admin';
import { accountCreateInput, accountUpdateInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { PERMISSION_CHOICES } from './permissions';

/** A cleared password stays '' (keep the current one), not null. */
const keepEmpty = (value: string) => value;

/** On edit an empty password keeps the current one. */
export function AccountForm({ editing = false }: { editing?: boolean }) {
  return (
    <SimpleForm resolver={schemaResolver(editing ? accountUpdateInput : accountCreateInput)}>
      <TextInput source="username" autoComplete="off" />
      <PasswordInput
        source="password"
        parse={keepEmpty}
        helperText={editing ? 'Leave empty to keep the current password' : 'At least 10 characters'}
        autoComplete="new-password"
      />
      <AutocompleteArrayInput source="permissions" choices={PERMISSION_CHOICES} defaultValue={[]} fullWidth />
      <BooleanInput source="enabled" defaultValue />
    </SimpleForm>
  );
}
