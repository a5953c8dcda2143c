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
} from 'react-admin';
import { appConfigInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { HistoryButton, SaveOnlyToolbar } from '../sharedInputs';

/** The one App Config record, edited in one form at /admin/app-config. */
export function AppConfigEdit() {
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
      </SimpleForm>
    </Edit>
  );
}
