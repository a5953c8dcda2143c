import { ReferenceInput, SelectInput, SimpleForm } from 'react-admin';
import { NumeralInput } from '../../forms/NumeralInput';
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
      <NumeralInput source="minAmount" helperText="common.amountHelp" />
      <NumeralInput source="maxAmount" helperText="common.amountHelp" />
      <NumeralInput source="profits.week" helperText={PERCENT_HELP} />
      <NumeralInput source="profits.month" helperText={PERCENT_HELP} />
      <NumeralInput source="profits.threeMonths" helperText={PERCENT_HELP} />
      <NumeralInput source="profits.sixMonths" helperText={PERCENT_HELP} />
      <NumeralInput source="profits.year" helperText={PERCENT_HELP} />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
