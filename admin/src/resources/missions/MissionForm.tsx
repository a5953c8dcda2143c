import { BooleanInput, CheckboxGroupInput, FormDataConsumer, ReferenceInput, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { NumeralInput } from '../../forms/NumeralInput';
import { ConsoleDateInput } from '../../forms/ConsoleDateInput';
import { Stack } from '@mui/material';
import { missionInput, missionUpdateInput } from '@gift/shared';
import { BilingualInput } from '../../forms/BilingualInput';
import { schemaResolver } from '../../forms/schemaResolver';
import { OrderAndEnabledInputs } from '../sharedInputs';
import { MissionToolbar } from './MissionToolbar';
import { PROOF_CHOICES, REPEAT_CHOICES, VERIFY_TYPE_CHOICES } from './verifyTypes';

export function MissionForm({ editing = false }: { editing?: boolean }) {
  return (
    <SimpleForm resolver={schemaResolver(editing ? missionUpdateInput : missionInput)} toolbar={<MissionToolbar />}>
      <ReferenceInput source="category" reference="categories" sort={{ field: 'order', order: 'ASC' }}>
        <SelectInput optionText="title" />
      </ReferenceInput>
      <BilingualInput source="title" />
      <BilingualInput source="description" multiline />
      <FormDataConsumer<{ verifyType?: string }>>
        {({ formData }) => (
          <TextInput source="link" fullWidth helperText={formData.verifyType === 'boost' ? 'content.boostLinkHelp' : undefined} />
        )}
      </FormDataConsumer>
      <TextInput source="image" fullWidth helperText="content.missionImageHelp" />
      <NumeralInput source="reward" helperText="common.amountHelp" />
      <ReferenceInput source="coin" reference="gift-coins" sort={{ field: 'order', order: 'ASC' }}>
        <SelectInput optionText="symbol" />
      </ReferenceInput>
      <SelectInput source="verifyType" choices={VERIFY_TYPE_CHOICES} />
      <FormDataConsumer<{ verifyType?: string }>>
        {({ formData }) => (
          <>
            {(formData.verifyType === 'time' || formData.verifyType === 'instagram') && (
              <NumeralInput source="verifyDuration" inputMode="numeric" />
            )}
            {formData.verifyType === 'homeScreen' && (
              <NumeralInput source="verifyDuration" inputMode="numeric" helperText="content.homeScreenHelp" />
            )}
            {formData.verifyType === 'boost' && <TextInput source="telegramChatId" helperText="content.boostChatIdHelp" />}
            {formData.verifyType === 'emojiStatus' && <TextInput source="emojiId" inputMode="numeric" helperText="content.emojiIdHelp" />}
            {formData.verifyType === 'story' && (
              <>
                <TextInput source="storyMedia" fullWidth helperText="content.storyMediaHelp" />
                <BilingualInput source="storyText" helperText="content.storyTextHelp" />
                <NumeralInput source="verifyDuration" inputMode="numeric" helperText="content.storyWaitHelp" />
              </>
            )}
            {formData.verifyType === 'manual' && (
              <CheckboxGroupInput source="proof" choices={PROOF_CHOICES} defaultValue={[]} helperText="content.proofHelp" />
            )}
            {formData.verifyType === 'telegram' && <TextInput source="telegramChatId" helperText="content.telegramChatIdHelp" />}
            {formData.verifyType === 'youtube' && (
              <TextInput source="secretCode" helperText={editing ? 'common.secretKept' : 'content.secretCodeHelp'} />
            )}
          </>
        )}
      </FormDataConsumer>
      <BilingualInput source="goButton" />
      <BilingualInput source="claimButton" />
      <BooleanInput source="mustDone" defaultValue={false} />
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <ConsoleDateInput time source="startsAt" helperText="content.startsAtHelp" />
        <ConsoleDateInput time source="endsAt" helperText="content.endsAtHelp" />
      </Stack>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <NumeralInput source="cap" inputMode="numeric" helperText="content.capHelp" />
        <SelectInput source="repeat" choices={REPEAT_CHOICES} defaultValue="none" helperText="content.repeatHelp" />
      </Stack>
      <OrderAndEnabledInputs />
    </SimpleForm>
  );
}
