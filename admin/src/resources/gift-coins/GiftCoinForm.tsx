import { BooleanInput, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { giftCoinInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { AMOUNT_HELP, OrderAndEnabledInputs } from '../sharedInputs';

const NETWORKS = [
  { id: 'ton', name: 'TON (native)' },
  { id: 'jetton', name: 'Jetton' },
];

export function GiftCoinForm() {
  return (
    <SimpleForm resolver={schemaResolver(giftCoinInput)}>
      <TextInput source="name" />
      <TextInput source="symbol" />
      <TextInput source="icon" fullWidth helperText="An http(s) URL or a path on this site like /demo/coin-gift.svg" />
      <TextInput source="decimals" defaultValue={9} inputMode="numeric" helperText="How the coin lives on chain (9 for TON and most jettons)" />
      <TextInput source="usdPrice" helperText="Leave empty when unknown" />
      <TextInput source="minWithdraw" defaultValue="0" helperText={AMOUNT_HELP} />
      <BooleanInput source="withdrawEnabled" defaultValue={false} />
      <TextInput
        source="payoutApprovalAbove"
        defaultValue="0"
        helperText="A withdrawal above this amount needs a second operator's approval before the hot wallet pays it (0: one approval)"
      />
      <TextInput source="payoutDailyCap" defaultValue="0" helperText="The most the hot wallet pays out of this coin per UTC day (0: no cap)" />
      <SelectInput source="network" choices={NETWORKS} defaultValue="jetton" />
      <TextInput source="jettonMaster" fullWidth helperText="The jetton master contract address (jettons only)" />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
