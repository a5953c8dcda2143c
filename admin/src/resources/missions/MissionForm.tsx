import { BooleanInput, FormDataConsumer, NumberInput, ReferenceInput, SelectInput, SimpleForm, TextInput, required } from 'react-admin';
import { AMOUNT_HELP, OrderAndEnabledInputs } from '../sharedInputs';
import { VERIFY_TYPE_CHOICES } from './verifyTypes';

export function MissionForm({ editing = false }: { editing?: boolean }) {
  return (
    <SimpleForm>
      <ReferenceInput source="category" reference="categories">
        <SelectInput validate={required()} optionText="title" />
      </ReferenceInput>
      <TextInput source="title" validate={required()} fullWidth />
      <TextInput source="description" multiline fullWidth />
      <TextInput source="link" type="url" fullWidth />
      <TextInput source="image" type="url" fullWidth />
      <TextInput source="reward" validate={required()} helperText={AMOUNT_HELP} />
      <ReferenceInput source="coin" reference="gift-coins">
        <SelectInput validate={required()} optionText="symbol" />
      </ReferenceInput>
      <SelectInput source="verifyType" choices={VERIFY_TYPE_CHOICES} validate={required()} />
      <FormDataConsumer<{ verifyType?: string }>>
        {({ formData }) => (
          <>
            {(formData.verifyType === 'time' || formData.verifyType === 'instagram') && (
              <NumberInput source="verifyDuration" min={1} step={1} />
            )}
            {formData.verifyType === 'youtube' && (
              <TextInput
                source="secretCode"
                helperText={editing ? 'Never shown again once saved: type a new one to replace it, or leave empty to keep it' : 'The code said in the video'}
              />
            )}
          </>
        )}
      </FormDataConsumer>
      <TextInput source="goButton" defaultValue="Go" />
      <TextInput source="claimButton" defaultValue="Claim" />
      <BooleanInput source="mustDone" defaultValue={false} />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
