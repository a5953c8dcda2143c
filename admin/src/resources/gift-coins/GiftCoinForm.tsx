import { BooleanInput, NumberInput, SelectInput, SimpleForm, TextInput, required } from 'react-admin';
import { AMOUNT_HELP, OrderAndEnabledInputs } from '../sharedInputs';

const NETWORKS = [
  { id: 'ton', name: 'TON (native)' },
  { id: 'jetton', name: 'Jetton' },
];

export function GiftCoinForm() {
  return (
    <SimpleForm>
      <TextInput source="name" validate={required()} />
      <TextInput source="symbol" validate={required()} />
      <TextInput source="icon" type="url" fullWidth />
      <NumberInput source="decimals" min={0} max={18} step={1} defaultValue={9} />
      <TextInput source="usdPrice" helperText="Leave empty when unknown" />
      <TextInput source="minWithdraw" defaultValue="0" helperText={AMOUNT_HELP} />
      <BooleanInput source="withdrawEnabled" defaultValue={false} />
      <SelectInput source="network" choices={NETWORKS} defaultValue="jetton" validate={required()} />
      <TextInput source="jettonMaster" fullWidth helperText="The jetton master contract address (jettons only)" />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
