import { Fragment, useState } from 'react';
import { Chip, Divider } from '@mui/material';
import { FunctionField, List, ReferenceField, SelectField, TextField, useListContext, useTranslate } from 'react-admin';
import { ConsoleDateField, useDateLocales } from '../../lists/ConsoleDateField';
import { CountedTabs } from '../../lists/CountedTabs';
import { ResponsiveList, searchFilter } from '../../lists/ResponsiveList';
import { ListActions } from '../../lists/ListActions';
import { BulkApproveButton, BulkRejectButton } from './BulkReviewButtons';
import { USER_MISSION_STATUS_CHOICES } from './statuses';
import type { ProgressRecord } from '@gift/server';
import { PlayerRiskField } from '../users/risk/RiskViews';
import { heldByAnother, useReviewerId } from './claimLocks';

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

/** How long ago, in the largest whole unit (minutes, hours, then days), in the console's language: "3 hr. ago". */
function waited(ms: number, locales: string | undefined) {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const format = new Intl.RelativeTimeFormat(locales, { style: 'short' });
  if (minutes < 60) return format.format(-minutes, 'minute');
  if (minutes < 48 * 60) return format.format(-Math.floor(minutes / 60), 'hour');
  return format.format(-Math.floor(minutes / (24 * 60)), 'day');
}

/** Who has a pending claim open, while their hold lasts: the claim is theirs to decide. */
function HeldChip({ name }: { name: string }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color="warning"
      data-testid="claim-held"
      label={translate('reviews.lockedBy', { name })}
      sx={{ mt: 0.5, height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
    />
  );
}

/**
 * How long a pending claim has waited for its review, as of when the list opened; under it, who has it open (another reviewer's
 * hold: the claim is theirs to decide).
 */
function WaitingField({ label }: { label: string }) {
  const locales = useDateLocales();
  const me = useReviewerId();
  const [now] = useState(Date.now);
  return (
    <FunctionField<UserMissionRow>
      label={label}
      sortable={false}
      render={(r) => (
        <>
          {r.claimedAt ? <span data-testid="claim-waiting">{waited(now - Date.parse(r.claimedAt), locales)}</span> : '—'}
          {heldByAnother(r, me) && (
            <>
              <br />
              <HeldChip name={r.lockedByName} />
            </>
          )}
        </>
      )}
    />
  );
}

/** Tabs by status with their counts (the demo's orders); the pending tab reviews in bulk (the demo's reviews). */
function TabbedUserMissions() {
  const list = useListContext();
  // react-admin types a list's filters as `any`
  const filterValues = list.filterValues as Record<string, unknown>;
  const status = (filterValues.status as string | undefined) ?? 'pending';
  const { status: _status, ...others } = filterValues;
  const me = useReviewerId();
  const translate = useTranslate();
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
        columns={`user-missions.${status}`}
        bulkActionButtons={status === 'pending' ? <ReviewBulkActions /> : false}
        // a claim another reviewer has open is theirs: not selectable (and the server would refuse it)
        isRowSelectable={(r) => !heldByAnother(r, me)}
        phone={{
          primaryText: () => <ReferenceField source="mission" reference="missions" link={false} />,
          secondaryText: () => <ReferenceField source="user" reference="users" link={false} />,
          tertiaryText: (r) =>
            heldByAnother(r, me)
              ? `${rewardText(r)}${translate('common.separator')}${translate('reviews.lockedBy', { name: r.lockedByName })}`
              : rewardText(r),
        }}
      >
        <ReferenceField source="user" reference="users" sortable={false} />
        <PlayerRiskField label="risk.scoreColumn" sortable={false} />
        <ReferenceField source="mission" reference="missions" sortable={false} />
        <SelectField source="status" choices={USER_MISSION_STATUS_CHOICES} />
        <FunctionField<UserMissionRow> source="reward" sortable={false} render={rewardText} />
        <ConsoleDateField source="claimedAt" showTime emptyText="—" />
        {status === 'pending' && <WaitingField label="reviews.waiting" />}
        <TextField source="rejectReason" sortable={false} emptyText="" />
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </Fragment>
  );
}

/** The queue's actions; its column chooser keeps a choice per tab (their columns differ), as its table does. */
function ReviewActions() {
  // react-admin types a list's filters as `any`
  const filterValues = useListContext().filterValues as { status?: string };
  return <ListActions columns={`user-missions.${filterValues.status ?? 'pending'}`} />;
}

export function UserMissionList() {
  return (
    <List
      actions={<ReviewActions />}
      filters={[searchFilter('reviews.search')]}
      filterDefaultValues={{ status: 'pending' }}
      // the claims that waited longest come first (issue 34: a queue is worked oldest first)
      sort={{ field: 'claimedAt', order: 'ASC' }}
    >
      <TabbedUserMissions />
    </List>
  );
}
