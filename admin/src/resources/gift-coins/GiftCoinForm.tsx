import { BilingualInput } from '../../forms/BilingualInput';
import { BooleanInput, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { giftCoinInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { OrderAndEnabledInputs } from '../sharedInputs';
import { NETWORK_CHOICES } from './networks';

export function GiftCoinForm() {
  return (
    <SimpleForm resolver={schemaResolver(giftCoinInput)}>
      <BilingualInput source="name" />
      <TextInput source="symbol" />
      <TextInput source="icon" fullWidth helperText="coins.iconHelp" />
      <TextInput source="decimals" defaultValue={9} inputMode="numeric" helperText="coins.decimalsHelp" />
      <TextInput source="usdPrice" helperText="coins.usdPriceHelp" />
      <TextInput source="minWithdraw" defaultValue="0" helperText="common.amountHelp" />
      <BooleanInput source="withdrawEnabled" defaultValue={false} />
      <TextInput source="payoutApprovalAbove" defaultValue="0" helperText="coins.approvalAboveHelp" />
      <TextInput source="payoutDailyCap" defaultValue="0" helperText="coins.dailyCapHelp" />
      <TextInput source="giftApprovalAbove" defaultValue="0" helperText="coins.giftApprovalHelp" />
      <SelectInput source="network" choices={NETWORK_CHOICES} defaultValue="jetton" />
      <TextInput source="jettonMaster" fullWidth helperText="coins.jettonMasterHelp" />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
