import type { ReactNode } from 'react';
import { ReferenceField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import SavingsIcon from '@mui/icons-material/Savings';
import BoltIcon from '@mui/icons-material/Bolt';
import { RecordLabel } from '../../lists/RecordLabel';

/** A record a player's own actions made, read-only: whose it is, how much of which coin and since when, then `children`. */
function PlayerRecordShow({ children }: { children: ReactNode }) {
  return (
    <Show>
      <SimpleShowLayout>
        <ReferenceField source="user" reference="users" link="show" />
        <TextField source="amount" />
        <ReferenceField source="coin" reference="gift-coins" link={false}>
          <TextField source="symbol" />
        </ReferenceField>
        <ConsoleDateField source="startedAt" showTime />
        {children}
      </SimpleShowLayout>
    </Show>
  );
}

/** A player's stake: it moves only through the player's own actions and the ledger. */
const StakeShow = () => (
  <PlayerRecordShow>
    <TextField source="duration" />
    <TextField source="profitPercent" />
    <TextField source="profit" />
    <ConsoleDateField source="unlocksAt" showTime />
    <ConsoleDateField source="claimedAt" showTime emptyText="—" />
    <TextField source="idempotencyKey" />
  </PlayerRecordShow>
);

/** A player's mining session. */
const MiningSessionShow = () => (
  <PlayerRecordShow>
    <ConsoleDateField source="endsAt" showTime />
    <ConsoleDateField source="movedAt" showTime emptyText="—" />
  </PlayerRecordShow>
);

export const stakes = {
  show: StakeShow,
  icon: SavingsIcon,
  recordRepresentation: <RecordLabel message="records.stake" args={(r) => ({ amount: String(r.amount ?? '') })} />,
};
export const miningSessions = {
  show: MiningSessionShow,
  icon: BoltIcon,
  recordRepresentation: <RecordLabel message="records.mining" args={(r) => ({ amount: String(r.amount ?? '') })} />,
};
