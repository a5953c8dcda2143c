import { Fragment } from 'react';
import { Divider } from '@mui/material';
import { FunctionField, List, ReferenceField, SelectField, TextField, useListContext } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { CountedTabs } from '../../lists/CountedTabs';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { BulkApproveButton, BulkRejectButton } from './BulkReviewButtons';
import { USER_MISSION_STATUS_CHOICES } from './statuses';
import type { ProgressRecord } from '@gift/server';
import { PlayerRiskField } from '../users/risk/RiskViews';

type UserMissionRow = ProgressRecord;

const TAB_ORDER = ['pending', 'done', 'rejected', 'started'] as const;

function ReviewBulkActions() {
  return (
    <>
      <BulkApproveButton />
      <BulkRejectButton />
    </>
  );
}

const rewardText = (r: UserMissionRow) => `${r.reward} ${r.coinSymbol}`.trim();

/** Tabs by status with their counts (the demo's orders); the pending tab reviews in bulk (the demo's reviews). */
function TabbedUserMissions() {
  const list = useListContext();
  // react-admin types a list's filters as `any`
  const filterValues = list.filterValues as Record<string, unknown>;
  const status = (filterValues.status as string | undefined) ?? 'pending';
  const { status: _status, ...others } = filterValues;
  const tabs = TAB_ORDER.map((value) => ({ value, label: `statuses.progress.${value}`, filter: { ...others, status: value } }));
  return (
    <Fragment>
      <CountedTabs
        resource="user-missions"
        tabs={tabs}
        value={status}
        onChange={(next) => list.setFilters({ ...filterValues, status: next }, list.displayedFilters as Record<string, boolean>)}
      />
      <Divider />
      <ResponsiveList<UserMissionRow>
        bulkActionButtons={status === 'pending' ? <ReviewBulkActions /> : false}
        phone={{
          primaryText: () => <ReferenceField source="mission" reference="missions" link={false} />,
          secondaryText: () => <ReferenceField source="user" reference="users" link={false} />,
          tertiaryText: rewardText,
        }}
      >
        <ReferenceField source="user" reference="users" sortable={false} />
        <PlayerRiskField label="risk.scoreColumn" sortable={false} />
        <ReferenceField source="mission" reference="missions" sortable={false} />
        <SelectField source="status" choices={USER_MISSION_STATUS_CHOICES} />
        <FunctionField<UserMissionRow> source="reward" sortable={false} render={rewardText} />
        <ConsoleDateField source="claimedAt" showTime emptyText="—" />
        <TextField source="rejectReason" sortable={false} emptyText="" />
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </Fragment>
  );
}

export function UserMissionList() {
  return (
    <List
      filters={[searchFilter('reviews.search')]}
      filterDefaultValues={{ status: 'pending' }}
      sort={{ field: 'createdAt', order: 'DESC' }}
    >
      <TabbedUserMissions />
    </List>
  );
}
