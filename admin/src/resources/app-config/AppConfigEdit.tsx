import {
  BooleanInput,
  Edit,
  PasswordInput,
  ReferenceInput,
  SelectInput,
  SimpleForm,
  TextArrayInput,
  TextInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { Stack, Typography } from '@mui/material';
import { appConfigInput, DEFAULT_RISK_WEIGHTS, RISK_SIGNALS } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { HistoryButton, SaveOnlyToolbar } from '../sharedInputs';

/** The one App Config record, edited in one form at /admin/app-config. */
export function AppConfigEdit() {
  const translate = useTranslate();
  return (
    <Edit
      resource="app-config"
      id="current"
      mutationMode="pessimistic"
      redirect={false}
      title="appConfig.title"
      actions={
        <TopToolbar>
          <HistoryButton />
        </TopToolbar>
      }
    >
      <SimpleForm toolbar={<SaveOnlyToolbar />} resolver={schemaResolver(appConfigInput)}>
        <PasswordInput source="botToken" fullWidth autoComplete="off" helperText="common.secretKept" />
        <TextInput source="botUsername" helperText="appConfig.botUsernameHelp" />
        <TextInput source="miniAppName" helperText="appConfig.miniAppNameHelp" />
        <TextInput source="referrerMessage" multiline fullWidth />
        <ReferenceInput source="referrerCoin" reference="gift-coins">
          <SelectInput optionText="symbol" emptyText="common.none" />
        </ReferenceInput>
        <TextInput source="referrerCoinAmount" helperText="common.amountHelp" />
        <TextInput source="defaultInviteLimit" inputMode="numeric" />
        <ReferenceInput source="miningCoin" reference="gift-coins">
          <SelectInput optionText="symbol" emptyText="common.none" />
        </ReferenceInput>
        <TextInput source="earnDurationHours" inputMode="numeric" />
        <TextInput source="earnAmount" helperText="common.amountHelp" />
        <TextArrayInput source="tonProofDomains" helperText="appConfig.domainsHelp" fullWidth />
        <BooleanInput source="allowTestnetWallets" helperText="appConfig.testnetHelp" />
        <Typography variant="h6" sx={{ mt: 2 }}>
          {translate('appConfig.referralTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('appConfig.referralHelp')}
        </Typography>
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <TextInput source="referralQualification.doneMissions" inputMode="numeric" label="appConfig.qualifyMissions" />
          <TextInput source="referralQualification.activeDays" inputMode="numeric" label="appConfig.qualifyDays" />
          <TextInput source="referralQualification.premiumRewardPercent" inputMode="numeric" label="appConfig.premiumPercent" />
        </Stack>
        <Typography variant="h6" sx={{ mt: 2 }}>
          {translate('appConfig.riskTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('appConfig.riskHelp')}
        </Typography>
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <TextInput source="risk.reviewAt" inputMode="numeric" label="appConfig.reviewAt" />
          <TextInput source="risk.highAt" inputMode="numeric" label="appConfig.highAt" />
        </Stack>
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {RISK_SIGNALS.map((signal) => (
            <TextInput
              key={signal}
              source={`risk.weights.${signal}`}
              inputMode="numeric"
              label={`risk.short.${signal}`}
              helperText={translate('appConfig.weightDefault', { weight: DEFAULT_RISK_WEIGHTS[signal] })}
              sx={{ width: 200 }}
            />
          ))}
        </Stack>
      </SimpleForm>
    </Edit>
  );
}
