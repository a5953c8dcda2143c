import { Alert } from '@mui/material';
import { useWatch } from 'react-hook-form';
import { BilingualInput } from '../../forms/BilingualInput';
import { BooleanInput, SelectInput, SimpleForm, TextInput, useTranslate } from 'react-admin';
import { NumeralInput } from '../../forms/NumeralInput';
import { giftCoinInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { OrderAndEnabledInputs } from '../sharedInputs';
import { NETWORK_CHOICES } from './networks';

const BRAKES = ['giftApprovalAbove', 'payoutApprovalAbove', 'operatorDailyLimit'] as const;
const isZero = (value: unknown) => typeof value === 'string' && /^0+(\.0*)?$/.test(value.trim());

/** "Never" is an explicit choice: a brake typed as 0 says what it turns off, where the operator types it. */
function NeverWarning() {
  const translate = useTranslate();
  const values = useWatch({ name: [...BRAKES] }) as unknown[];
  if (!values.some(isZero)) return null;
  return (
    <Alert severity="warning" role="alert" data-testid="brake-never-warning" sx={{ mb: 2, maxWidth: 640 }}>
      {translate('brakes.neverWarning')}
    </Alert>
  );
}

/** A coin; its brakes start at the suggested amounts when left empty (about 250 / 500 / 1,000 USD, or 1,000 / 1,000 / 5,000 coins). */
export function GiftCoinForm() {
  return (
    <SimpleForm resolver={schemaResolver(giftCoinInput)}>
      <BilingualInput source="name" />
      <TextInput source="symbol" />
      <TextInput source="icon" fullWidth helperText="coins.iconHelp" />
      <NumeralInput source="decimals" defaultValue={9} inputMode="numeric" helperText="coins.decimalsHelp" />
      <NumeralInput source="usdPrice" helperText="coins.usdPriceHelp" />
      <NumeralInput source="minWithdraw" defaultValue="0" helperText="common.amountHelp" />
      <BooleanInput source="withdrawEnabled" defaultValue={false} helperText="coins.withdrawEnabledHelp" />
      <NumeralInput source="payoutApprovalAbove" helperText="brakes.payoutApprovalHelp" />
      <NumeralInput source="payoutDailyCap" defaultValue="0" helperText="coins.dailyCapHelp" />
      <NumeralInput source="giftApprovalAbove" helperText="brakes.giftApprovalHelp" />
      <NumeralInput source="operatorDailyLimit" label="brakes.operatorDailyLimit" helperText="brakes.operatorDailyLimitHelp" />
      <NeverWarning />
      <SelectInput source="network" choices={NETWORK_CHOICES} defaultValue="jetton" />
      <TextInput source="jettonMaster" fullWidth helperText="coins.jettonMasterHelp" />
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
