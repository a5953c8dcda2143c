import { Edit, FunctionField, Labeled, ReferenceField, SelectField, TextField, useRecordContext } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { Stack } from '@mui/material';
import type { ProgressRecord } from '@gift/server';
import { EditActions } from '../sharedInputs';
import { ProofReview } from './ProofReview';
import { PlayerRiskField } from '../users/risk/RiskViews';
import { USER_MISSION_STATUS_CHOICES } from './statuses';

const reward = (r: ProgressRecord) => `${r.reward} ${r.coinSymbol ?? ''}`.trim();

/** A claim's facts: who, what for, and how it stands. */
function ProgressFacts({ settled }: { settled: boolean }) {
  return (
    <Stack direction="row" spacing={3} sx={{ px: 2, pt: 2, flexWrap: 'wrap' }} useFlexGap>
      <Labeled>
        <ReferenceField source="user" reference="users" link="show" />
      </Labeled>
      <Labeled>
        <PlayerRiskField label="risk.scoreColumn" />
      </Labeled>
      <Labeled>
        <ReferenceField source="mission" reference="missions" />
      </Labeled>
      <Labeled>
        <SelectField source="status" choices={USER_MISSION_STATUS_CHOICES} />
      </Labeled>
      <Labeled>
        <FunctionField<ProgressRecord> source="reward" render={reward} />
      </Labeled>
      <Labeled>
        <ConsoleDateField source="claimedAt" showTime emptyText="—" />
      </Labeled>
      {settled && (
        <>
          <Labeled>
            <ConsoleDateField source="doneAt" showTime emptyText="—" />
          </Labeled>
          <Labeled>
            <TextField source="rejectReason" emptyText="—" />
          </Labeled>
          <Labeled>
            <TextField source="reviewerName" label="resources.user-missions.fields.reviewedBy" emptyText="—" />
          </Labeled>
        </>
      )}
    </Stack>
  );
}

/** A pending claim is reviewed against its proof (`ProofReview`); any other shows how it was settled. */
function ReviewOrRecord() {
  const record = useRecordContext<ProgressRecord>();
  if (!record) return null;
  const pending = record.status === 'pending';
  return (
    <>
      <ProgressFacts settled={!pending} />
      {pending && <ProofReview />}
    </>
  );
}

/** Reviewing a Manual mission: approve credits the reward once, reject lets the player try again. Only a pending one is decided. */
export function UserMissionEdit() {
  return (
    // visible overflow: the review's decision bar sticks to the window's bottom (a hidden overflow would hold it in the card)
    <Edit mutationMode="pessimistic" redirect="list" actions={<EditActions />} sx={{ '& .RaEdit-card': { overflow: 'visible' } }}>
      <ReviewOrRecord />
    </Edit>
  );
}
