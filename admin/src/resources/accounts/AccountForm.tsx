import { AutocompleteArrayInput, BooleanInput, PasswordInput, SimpleForm, TextInput, minLength, required } from 'react-admin';
import { PERMISSION_CHOICES } from './permissions';

/** On edit an empty password keeps the current one. */
export function AccountForm({ editing = false }: { editing?: boolean }) {
  return (
    <SimpleForm>
      <TextInput source="username" validate={required()} autoComplete="off" />
      <PasswordInput
        source="password"
        validate={editing ? minLength(10) : [required(), minLength(10)]}
        helperText={editing ? 'Leave empty to keep the current password' : 'At least 10 characters'}
        autoComplete="new-password"
      />
      <AutocompleteArrayInput source="permissions" choices={PERMISSION_CHOICES} defaultValue={[]} fullWidth />
      <BooleanInput source="enabled" defaultValue />
    </SimpleForm>
  );
}
