import type { ReactNode } from 'react';
import {
  ArrayInput,
  BooleanInput,
  Edit,
  FormDataConsumer,
  PasswordInput,
  ReferenceInput,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextArrayInput,
  TextInput,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { NumeralInput } from '../../forms/NumeralInput';
import { Alert, Box, Stack, Typography } from '@mui/material';
import { appConfigInput, DEFAULT_RISK_WEIGHTS, PAYOUT_RISK_HOLDS, RISK_SIGNALS } from '@gift/shared';
import { BilingualInput } from '../../forms/BilingualInput';
import { schemaResolver } from '../../forms/schemaResolver';
import { HistoryButton, SaveOnlyToolbar } from '../sharedInputs';
import { ConfigRewardsWaiting } from './ConfigRewardsWaiting';

/** Whether a bot token is saved, and which one runs the bot: the environment's wins over App Config's. */
function BotTokenStatus() {
  const record = useRecordContext<{ botTokenSet?: boolean; botTokenSource?: 'environment' | 'appConfig' | null }>();
  const translate = useTranslate();
  const source = record?.botTokenSource ?? 'none';
  return (
    <Alert severity={source === 'none' ? 'warning' : 'info'} sx={{ mb: 2 }} data-testid="bot-token-status">
      {translate(`appConfig.botTokenSource.${source}`, {
        saved: translate(record?.botTokenSet ? 'appConfig.tokenSaved' : 'appConfig.tokenNotSaved'),
      })}
    </Alert>
  );
}

/** A section of the form: its title, and what it is for when that needs saying. */
function SectionTitle({ title, help }: { title: string; help?: string }) {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="h6" sx={{ mt: 2 }}>
        {translate(title)}
      </Typography>
      {help && (
        <Typography variant="body2" color="text.secondary">
          {translate(help)}
        </Typography>
      )}
    </>
  );
}

/** Inputs side by side, wrapping on a narrow screen. */
const Row = ({ children }: { children: ReactNode }) => (
  <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
    {children}
  </Stack>
);

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
        <ConfigRewardsWaiting />
        <BotTokenStatus />
        <PasswordInput source="botToken" fullWidth autoComplete="off" helperText="appConfig.botTokenHelp" />
        <FormDataConsumer<{ botTokenSet?: boolean }>>
          {({ formData }) => formData.botTokenSet && <BooleanInput source="clearBotToken" helperText="appConfig.clearBotTokenHelp" />}
        </FormDataConsumer>
        <TextInput source="botUsername" helperText="appConfig.botUsernameHelp" readOnly />
        <TextInput source="miniAppName" helperText="appConfig.miniAppNameHelp" />
        <TextInput source="supportContact" fullWidth helperText="appConfig.supportContactHelp" />
        <BilingualInput source="referrerMessage" multiline />
        <ReferenceInput source="referrerCoin" reference="gift-coins">
          <SelectInput optionText="symbol" emptyText="common.none" />
        </ReferenceInput>
        <NumeralInput source="referrerCoinAmount" helperText="common.amountHelp" />
        <NumeralInput source="defaultInviteLimit" inputMode="numeric" />
        <ReferenceInput source="miningCoin" reference="gift-coins">
          <SelectInput optionText="symbol" emptyText="common.none" />
        </ReferenceInput>
        <NumeralInput source="earnDurationHours" inputMode="numeric" />
        <NumeralInput source="earnAmount" helperText="common.amountHelp" />
        <TextArrayInput source="tonProofDomains" helperText="appConfig.domainsHelp" fullWidth />
        <BooleanInput source="allowTestnetWallets" helperText="appConfig.testnetHelp" />
        <SectionTitle title="appConfig.dailyTitle" />
        <TextInput source="timezone" helperText="appConfig.timezoneHelp" />
        <ArrayInput source="streakMilestones" helperText="appConfig.streakHelp">
          <SimpleFormIterator inline disableReordering>
            <NumeralInput source="days" inputMode="numeric" label="appConfig.milestoneDays" sx={{ width: 140 }} />
            <ReferenceInput source="coin" reference="gift-coins">
              <SelectInput optionText="symbol" label="appConfig.milestoneCoin" />
            </ReferenceInput>
            <NumeralInput source="amount" label="appConfig.milestoneAmount" helperText="common.amountHelp" />
          </SimpleFormIterator>
        </ArrayInput>
        <SectionTitle title="appConfig.referralTitle" help="appConfig.referralHelp" />
        <Row>
          <NumeralInput source="referralQualification.doneMissions" inputMode="numeric" label="appConfig.qualifyMissions" />
          <NumeralInput source="referralQualification.activeDays" inputMode="numeric" label="appConfig.qualifyDays" />
          <NumeralInput source="referralQualification.premiumRewardPercent" inputMode="numeric" label="appConfig.premiumPercent" />
        </Row>
        <SectionTitle title="appConfig.remindersTitle" help="appConfig.remindersHelp" />
        <Row>
          <TextInput source="reminders.quietStart" label="appConfig.quietStart" sx={{ width: 160 }} />
          <TextInput source="reminders.quietEnd" label="appConfig.quietEnd" sx={{ width: 160 }} />
          <NumeralInput source="reminders.dailyCap" inputMode="numeric" label="appConfig.reminderCap" />
          <NumeralInput source="reminders.streakHoursBefore" inputMode="numeric" label="appConfig.streakReminderHours" />
        </Row>
        <SectionTitle title="appConfig.leaguesTitle" help="appConfig.leaguesHelp" />
        <Row>
          <NumeralInput source="leagues.promotePercent" inputMode="numeric" label="appConfig.promotePercent" />
          <NumeralInput source="leagues.relegatePercent" inputMode="numeric" label="appConfig.relegatePercent" />
        </Row>
        <SectionTitle title="appConfig.riskTitle" help="appConfig.riskHelp" />
        <Row>
          <NumeralInput source="risk.reviewAt" inputMode="numeric" label="appConfig.reviewAt" />
          <NumeralInput source="risk.highAt" inputMode="numeric" label="appConfig.highAt" />
          <SelectInput
            source="risk.holdPayoutsFrom"
            label="appConfig.holdPayoutsFrom"
            helperText="appConfig.holdPayoutsHelp"
            choices={PAYOUT_RISK_HOLDS.map((id) => ({ id, name: `appConfig.holdPayouts.${id}` }))}
            sx={{ minWidth: 260 }}
          />
        </Row>
        <Row>
          {RISK_SIGNALS.map((signal) => (
            <TextInput
              key={signal}
              source={`risk.weights.${signal}`}
              inputMode="numeric"
              label={`risk.weight.${signal}`}
              helperText={translate('appConfig.weightDefault', { weight: DEFAULT_RISK_WEIGHTS[signal] })}
              sx={{ width: 200 }}
            />
          ))}
        </Row>
        <SectionTitle title="appConfig.rejectReasonsTitle" help="appConfig.rejectReasonsHelp" />
        <Box data-testid="reject-reasons" sx={{ width: '100%' }}>
          <ArrayInput source="rejectReasons" label={false}>
            <SimpleFormIterator inline disableReordering>
              <TextInput source="en" label="appConfig.reasonEn" sx={{ minWidth: 260 }} />
              <TextInput source="fa" label="appConfig.reasonFa" sx={{ minWidth: 260 }} slotProps={{ htmlInput: { dir: 'rtl' } }} />
            </SimpleFormIterator>
          </ArrayInput>
        </Box>
      </SimpleForm>
    </Edit>
  );
}
