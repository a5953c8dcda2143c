import { ReferenceInput, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { stakingCoinInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { OrderAndEnabledInputs } from '../sharedInputs';

const PERCENT_HELP = 'content.percentHelp';

export function StakingCoinForm() {
  return (
    <SimpleForm resolver={schemaResolver(stakingCoinInput)}>
      <ReferenceInput source="coin" reference="gift-coins">
        <SelectInput optionText="symbol" />
      </ReferenceInput>
      <TextInput source="minAmount" helperText="common.amountHelp" />
      <TextInput source="maxAmount" helperText="common.amountHelp" />
      <TextInput source="profits.week" helperText={PERCENT_HELP} />
      <TextInput source="profits.month" helperText={PERCENT_HELP} />
      <TextInput source="profits.threeMonths" helperText={PERCENT_HELP} />
      <TextInput source="profits.sixMonths" helperText={PERCENT_HELP} />
      <TextInput source="profits.year" helperText={PERCENT_HELP} />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
