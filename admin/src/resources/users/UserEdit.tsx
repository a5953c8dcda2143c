import { BooleanInput, Edit, NumberInput, SelectInput, SimpleForm, TextField, Labeled, required } from 'react-admin';
import { SaveOnlyToolbar } from '../sharedInputs';

const LANGUAGES = [
  { id: 'en', name: 'English' },
  { id: 'fa', name: 'فارسی' },
];

/** Only what an operator may change: figures follow from the ledger and are never edited by hand. */
export function UserEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <SimpleForm toolbar={<SaveOnlyToolbar />}>
        <Labeled>
          <TextField source="name" />
        </Labeled>
        <NumberInput source="inviteLimit" min={0} step={1} validate={required()} />
        <BooleanInput source="blocked" />
        <SelectInput source="language" choices={LANGUAGES} />
      </SimpleForm>
    </Edit>
  );
}
