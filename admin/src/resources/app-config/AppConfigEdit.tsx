import { BooleanInput, Edit, PasswordInput, ReferenceInput, SelectInput, SimpleForm, TextArrayInput, TextInput, TopToolbar } from 'react-admin';
import { appConfigInput } from '@gift/shared';
import { schemaResolver } from '../../forms/schemaResolver';
import { AMOUNT_HELP, HistoryButton, SaveOnlyToolbar } from '../sharedInputs';

/** The one App Config record, edited in one form at /admin/app-config. */
export function AppConfigEdit() {
  return (
    <Edit
      resource="app-config"
      id="current"
      mutationMode="pessimistic"
      redirect={false}
      title="App Config"
      actions={
        <TopToolbar>
          <HistoryButton />
        </TopToolbar>
      }
    >
      <SimpleForm toolbar={<SaveOnlyToolbar />} resolver={schemaResolver(appConfigInput)}>
        <PasswordInput
          source="botToken"
          fullWidth
          autoComplete="off"
          helperText="Never shown again once saved: type a new one to replace it, or leave empty to keep it"
        />
        <TextInput source="botUsername" helperText="Without the @; leave empty when there is no bot yet" />
        <TextInput source="miniAppName" helperText="The short name of the mini app in BotFather (t.me/<bot>/<name>)" />
        <TextInput source="referrerMessage" multiline fullWidth />
        <ReferenceInput source="referrerCoin" reference="gift-coins">
          <SelectInput optionText="symbol" emptyText="None" />
        </ReferenceInput>
        <TextInput source="referrerCoinAmount" helperText={AMOUNT_HELP} />
        <TextInput source="defaultInviteLimit" inputMode="numeric" />
        <ReferenceInput source="miningCoin" reference="gift-coins">
          <SelectInput optionText="symbol" emptyText="None" />
        </ReferenceInput>
        <TextInput source="earnDurationHours" inputMode="numeric" />
        <TextInput source="earnAmount" helperText={AMOUNT_HELP} />
        <TextArrayInput
          source="tonProofDomains"
          helperText="Domains wallets may prove ownership for; press Enter after each (default: this site's own)"
          fullWidth
        />
        <BooleanInput source="allowTestnetWallets" helperText="Off: players cannot link TON testnet wallets, which mainnet payouts cannot reach" />
      </SimpleForm>
    </Edit>
  );
}
