import { BilingualInput } from '../../forms/BilingualInput';
import { BooleanInput, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { NumeralInput } from '../../forms/NumeralInput';
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
      <NumeralInput source="decimals" defaultValue={9} inputMode="numeric" helperText="coins.decimalsHelp" />
      <NumeralInput source="usdPrice" helperText="coins.usdPriceHelp" />
      <NumeralInput source="minWithdraw" defaultValue="0" helperText="common.amountHelp" />
      <BooleanInput source="withdrawEnabled" defaultValue={false} />
      <NumeralInput source="payoutApprovalAbove" defaultValue="0" helperText="coins.approvalAboveHelp" />
      <NumeralInput source="payoutDailyCap" defaultValue="0" helperText="coins.dailyCapHelp" />
      <NumeralInput source="giftApprovalAbove" defaultValue="0" helperText="coins.giftApprovalHelp" />
      <SelectInput source="network" choices={NETWORK_CHOICES} defaultValue="jetton" />
      <TextInput source="jettonMaster" fullWidth helperText="coins.jettonMasterHelp" />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
