import { ReferenceInput, SelectInput, SimpleForm, TextInput, required } from 'react-admin';
import { AMOUNT_HELP, OrderAndEnabledInputs } from '../sharedInputs';

const PERCENT_HELP = 'Empty: this duration is not offered';

export function StakingCoinForm() {
  return (
    <SimpleForm>
      <ReferenceInput source="coin" reference="gift-coins">
        <SelectInput validate={required()} optionText="symbol" />
      </ReferenceInput>
      <TextInput source="minAmount" validate={required()} helperText={AMOUNT_HELP} />
      <TextInput source="maxAmount" validate={required()} helperText={AMOUNT_HELP} />
      <TextInput source="profits.week" helperText={PERCENT_HELP} />
      <TextInput source="profits.month" helperText={PERCENT_HELP} />
      <TextInput source="profits.threeMonths" helperText={PERCENT_HELP} />
      <TextInput source="profits.sixMonths" helperText={PERCENT_HELP} />
      <TextInput source="profits.year" helperText={PERCENT_HELP} />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
