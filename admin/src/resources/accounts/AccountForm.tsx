import { AutocompleteArrayInput, BooleanInput, PasswordInput, SimpleForm, TextInput } from 'react-admin';
import { accountCreateInput, accountUpdateInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { usePermissionChoices } from './permissions';

/** A cleared password stays '' (keep the current one), not null. */
const keepEmpty = (value: string) => value;

/** On edit an empty password keeps the current one. */
export function AccountForm({ editing = false }: { editing?: boolean }) {
  const choices = usePermissionChoices();
  return (
    <SimpleForm resolver={schemaResolver(editing ? accountUpdateInput : accountCreateInput)}>
      <TextInput source="username" autoComplete="off" />
      <PasswordInput
        source="password"
        parse={keepEmpty}
        helperText={editing ? 'accounts.passwordKeep' : 'accounts.passwordNew'}
        autoComplete="new-password"
      />
      <AutocompleteArrayInput
        source="permissions"
        choices={choices}
        translateChoice={false}
        defaultValue={[]}
        helperText="accounts.moneyHelp"
        fullWidth
      />
      <BooleanInput source="enabled" defaultValue />
      <TextInput source="telegramId" helperText="accounts.telegramIdHelp" parse={(v: string) => v} />
    </SimpleForm>
  );
}
