import { Divider } from '@mui/material';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import SavingsIcon from '@mui/icons-material/Savings';
import { Link } from 'react-router';
import { BulkUpdateButton, Button, FunctionField, List, SelectField, useBasename, useTranslate } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { ConsoleDateInput } from '../../forms/ConsoleDateInput';
import type { WithdrawRecord } from '@gift/server';
import { CountedTabs } from '../../lists/CountedTabs';
import { ShortText } from '../../lists/ShortText';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { ListActions } from '../../lists/ListActions';
import { CHAIN_STATE_CHOICES, WITHDRAWAL_STATUS_CHOICES } from './statuses';
import { PlayerRiskField, RiskChip } from '../users/risk/RiskViews';
import { useDateLocales } from '../../lists/ConsoleDateField';

type WithdrawRow = WithdrawRecord;

const PENDING = { status: 'pending' };
const IN_PAYOUT = { status: ['approved', 'sending'] };
const FINISHED = { status: ['done', 'rejected'] };
type Tab = 'pending' | 'payout' | 'done';
const FILTERS: Record<Tab, Record<string, unknown>> = { pending: PENDING, payout: IN_PAYOUT, done: FINISHED };
const TITLES: Record<Tab, string> = { pending: 'withdraws.pendingTitle', payout: 'withdraws.payoutTitle', done: 'withdraws.doneTitle' };
const player = (r: WithdrawRow) => (r.username ? `${r.userName ?? ''} (@${r.username})` : (r.userName ?? ''));
const money = (r: WithdrawRow) => `${r.amount} ${r.coinSymbol ?? ''}`.trim();

function WithdrawTabs({ tab }: { tab: Tab }) {
  const basename = useBasename();
  const tabs = [
    { value: 'pending', label: 'withdraws.tabs.pending', filter: PENDING, to: `${basename}/withdraw` },
    { value: 'payout', label: 'withdraws.tabs.payout', filter: IN_PAYOUT, to: `${basename}/withdraw/payout` },
    { value: 'done', label: 'withdraws.tabs.done', filter: FINISHED, to: `${basename}/withdraw/done` },
  ];
  return <CountedTabs resource="withdraws" tabs={tabs} value={tab} />;
}

/** The list's own actions: the treasury (the hot wallet, what it owes, the pause switch) beside the export. */
function WithdrawActions({ tab }: { tab: Tab }) {
  const basename = useBasename();
  return (
    <ListActions columns={`withdraws.${tab}`}>
      <Button component={Link} to={`${basename}/treasury`} label="withdraws.treasury">
        <SavingsIcon />
      </Button>
    </ListActions>
  );
}

/** Approves the selected pending withdrawals for the hot wallet, one PUT each (each checked and audited on its own). */
function ApproveButton() {
  return (
    <BulkUpdateButton
      label="withdraws.approve"
      data={{ status: 'approved' }}
      mutationMode="pessimistic"
      icon={<DoneAllIcon />}
      confirmTitle="withdraws.approve"
      confirmContent="withdraws.approveConfirm"
    />
  );
}

/** Pending withdraws wait for an operator; in payout, the hot wallet has them; finished ones are done or rejected. */
function WithdrawList({ tab }: { tab: Tab }) {
  const translate = useTranslate();
  const locales = useDateLocales();
  const finished = tab === 'done';
  return (
    <List
      resource="withdraws"
      title={TITLES[tab]}
      actions={<WithdrawActions tab={tab} />}
      filter={FILTERS[tab]}
      sort={{ field: 'createdAt', order: finished ? 'DESC' : 'ASC' }}
      filters={[
        searchFilter('withdraws.search'),
        <ConsoleDateInput key="from" source="createdAt_gte" label="withdraws.requestedFrom" />,
        <ConsoleDateInput key="before" source="createdAt_lte" label="withdraws.requestedBefore" />,
      ]}
      storeKey={`withdraws.${tab}`}
      // an empty list keeps its tabs, so the operator can still switch between pending and done
      empty={false}
    >
      <WithdrawTabs tab={tab} />
      <Divider />
      <ResponsiveList<WithdrawRow>
        columns={`withdraws.${tab}`}
        bulkActionButtons={tab === 'pending' ? <ApproveButton /> : false}
        phone={{
          primaryText: money,
          // on a phone too the player's risk sits beside their name while the withdrawal waits for a decision
          secondaryText: (r) => (
            <>
              {player(r)} {!finished && r.playerRisk && <RiskChip level={r.playerRisk.level} score={r.playerRisk.score} />}
            </>
          ),
          tertiaryText: (r) =>
            finished
              ? translate(`statuses.withdrawal.${r.status}`)
              : r.chainState === 'bounced'
                ? translate('withdraws.chainStates.bounced')
                : new Date(r.createdAt).toLocaleDateString(locales),
        }}
      >
        <FunctionField<WithdrawRow> label="resources.withdraws.fields.user" render={player} />
        {!finished && <PlayerRiskField label="risk.scoreColumn" sortable={false} />}
        <FunctionField<WithdrawRow> source="amount" sortable={false} render={money} />
        <ShortText source="address" sortable={false} />
        <SelectField source="status" choices={WITHDRAWAL_STATUS_CHOICES} />
        {tab === 'payout' && (
          <SelectField source="chainState" label="withdraws.chain" choices={CHAIN_STATE_CHOICES} emptyText="withdraws.queued" />
        )}
        {/* a pending one the hot wallet already tried: it bounced or failed on chain */}
        {tab === 'pending' && <SelectField source="chainState" label="withdraws.chain" choices={CHAIN_STATE_CHOICES} emptyText="—" />}
        {finished && <ShortText source="txHash" href="explorerUrl" sortable={false} />}
        {finished && <ConsoleDateField source="processedAt" showTime emptyText="—" />}
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}

export function PendingWithdrawList() {
  return <WithdrawList tab="pending" />;
}

export function InPayoutWithdrawList() {
  return <WithdrawList tab="payout" />;
}

export function DoneWithdrawList() {
  return <WithdrawList tab="done" />;
}
