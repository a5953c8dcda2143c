import { DateField, ReferenceField, Show, SimpleShowLayout, TextField } from 'react-admin';
import SavingsIcon from '@mui/icons-material/Savings';
import BoltIcon from '@mui/icons-material/Bolt';
import { RecordLabel } from '../../lists/RecordLabel';

const Player = () => <ReferenceField source="user" reference="users" link="show" />;
const Coin = () => (
  <ReferenceField source="coin" reference="gift-coins" link={false}>
    <TextField source="symbol" />
  </ReferenceField>
);

/** A player's stake, read-only: it moves only through the player's own actions and the ledger. */
function StakeShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <Player />
        <TextField source="amount" />
        <Coin />
        <TextField source="duration" />
        <TextField source="profitPercent" />
        <TextField source="profit" />
        <DateField source="startedAt" showTime />
        <DateField source="unlocksAt" showTime />
        <DateField source="claimedAt" showTime emptyText="—" />
        <TextField source="idempotencyKey" />
      </SimpleShowLayout>
    </Show>
  );
}

/** A player's mining session, read-only. */
function MiningSessionShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <Player />
        <TextField source="amount" />
        <Coin />
        <DateField source="startedAt" showTime />
        <DateField source="endsAt" showTime />
        <DateField source="movedAt" showTime emptyText="—" />
      </SimpleShowLayout>
    </Show>
  );
}

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
