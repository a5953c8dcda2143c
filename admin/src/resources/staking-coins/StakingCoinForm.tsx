import { ReferenceInput, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { stakingCoinInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { AMOUNT_HELP, OrderAndEnabledInputs } from '../sharedInputs';

const PERCENT_HELP = 'Empty: this duration is not offered';

export function StakingCoinForm() {
  return (
    <SimpleForm resolver={schemaResolver(stakingCoinInput)}>
      <ReferenceInput source="coin" reference="gift-coins">
        <SelectInput optionText="symbol" />
      </ReferenceInput>
      <TextInput source="minAmount" helperText={AMOUNT_HELP} />
      <TextInput source="maxAmount" helperText={AMOUNT_HELP} />
      <TextInput source="profits.week" helperText={PERCENT_HELP} />
      <TextInput source="profits.month" helperText={PERCENT_HELP} />
      <TextInput source="profits.threeMonths" helperText={PERCENT_HELP} />
      <TextInput source="profits.sixMonths" helperText={PERCENT_HELP} />
      <TextInput source="profits.year" helperText={PERCENT_HELP} />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
