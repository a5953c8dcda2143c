import { Edit, FormDataConsumer, Labeled, SelectInput, SimpleForm, TextField, TextInput } from 'react-admin';
import { NumeralInput } from '../../forms/NumeralInput';
import { userUpdateInput } from '@gift/shared';
import { PLAYER_STATUS_CHOICES } from './playerFilters';
import { schemaResolver } from '../../forms/schemaResolver';
import { EditActions, SaveOnlyToolbar } from '../sharedInputs';

const LANGUAGES = [
  { id: 'en', name: 'languages.en' },
  { id: 'fa', name: 'languages.fa' },
];

/** Only what an operator may change: figures follow from the ledger and are never edited by hand. A status other than active needs its reason. */
export function UserEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show" actions={<EditActions show list={false} />}>
      <SimpleForm toolbar={<SaveOnlyToolbar />} resolver={schemaResolver(userUpdateInput)}>
        <Labeled>
          <TextField source="name" />
        </Labeled>
        <NumeralInput source="inviteLimit" inputMode="numeric" />
        <SelectInput source="language" choices={LANGUAGES} />
        <SelectInput source="status" choices={PLAYER_STATUS_CHOICES} />
        <FormDataConsumer<{ status?: string }>>
          {({ formData }) =>
            formData.status && formData.status !== 'active' ? (
              <>
                <TextInput source="statusReason" multiline fullWidth helperText="players.status.playersSee" />
                <TextInput
                  source="fa.statusReason"
                  label="players.status.reasonFa"
                  multiline
                  fullWidth
                  slotProps={{ htmlInput: { dir: 'rtl', lang: 'fa' } }}
                />
              </>
            ) : null
          }
        </FormDataConsumer>
      </SimpleForm>
    </Edit>
  );
}
