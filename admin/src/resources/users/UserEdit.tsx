import { BooleanInput, Edit, SelectInput, SimpleForm, TextField, Labeled, TextInput } from 'react-admin';
import { userUpdateInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { EditActions, SaveOnlyToolbar } from '../sharedInputs';

const LANGUAGES = [
  { id: 'en', name: 'languages.en' },
  { id: 'fa', name: 'languages.fa' },
];

/** Only what an operator may change: figures follow from the ledger and are never edited by hand. */
export function UserEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show" actions={<EditActions show list={false} />}>
      <SimpleForm toolbar={<SaveOnlyToolbar />} resolver={schemaResolver(userUpdateInput)}>
        <Labeled>
          <TextField source="name" />
        </Labeled>
        <TextInput source="inviteLimit" inputMode="numeric" />
        <BooleanInput source="blocked" />
        <SelectInput source="language" choices={LANGUAGES} />
      </SimpleForm>
    </Edit>
  );
}
