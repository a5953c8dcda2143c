import type { ReactNode } from 'react';
import type { CoinFigures, LedgerRow } from '@gift/server';
import {
  ArrayField,
  BooleanField,
  Datagrid,
  DateField,
  EditButton,
  FunctionField,
  NumberField,
  Pagination,
  ReferenceField,
  ReferenceManyField,
  SelectField,
  Show,
  SimpleList,
  Labeled,
  TabbedShowLayout,
  TabbedShowLayoutTabs,
  TextField,
  TopToolbar,
  useCanAccess,
} from 'react-admin';
import { Box } from '@mui/material';
import { useIsSmall } from '../../layout/useIsSmall';
import { HistoryButton } from '../sharedInputs';
import { USER_MISSION_STATUS_CHOICES, userMissionStatusLabel } from '../user-missions/statuses';
import { WITHDRAWAL_STATUS_CHOICES, withdrawalStatusLabel } from '../withdraws/statuses';
import { AdjustBalanceForm } from './AdjustBalanceForm';
import { LedgerRecordLink } from './LedgerRecordLink';

function UserShowActions() {
  return (
    <TopToolbar>
      <HistoryButton />
      <EditButton />
    </TopToolbar>
  );
}

interface Row {
  id: string;
  [field: string]: unknown;
}

const signed = (amount: string) => (amount.startsWith('-') ? amount : `+${amount}`);
/** A row's field as text: rows are read as unknown, so only strings and numbers print. */
const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
const day = (value: unknown) => (value ? new Date(text(value)).toLocaleString() : '—');

/** Figures per coin: a table on a wide screen, one line per coin on a phone. */
function CoinFiguresField() {
  const isSmall = useIsSmall();
  return (
    <Labeled label="Balances and figures" fullWidth>
      <ArrayField source="coins">
        {isSmall ? (
          <SimpleList<CoinFigures>
            primaryText={(r) => `${r.balance} ${r.symbol}`}
            secondaryText={(r) => `Rewards ${r.rewards} · earned ${r.earned}`}
            tertiaryText={(r) => `Withdrawn ${r.withdrawn} · gifts ${r.gifts}`}
            linkType={false}
          />
        ) : (
          <Datagrid bulkActionButtons={false} rowClick={false} empty={<span>—</span>}>
            <TextField source="symbol" />
            <TextField source="balance" textAlign="right" />
            <TextField source="rewards" textAlign="right" />
            <TextField source="earned" textAlign="right" />
            <TextField source="withdrawn" textAlign="right" />
            <TextField source="gifts" textAlign="right" />
          </Datagrid>
        )}
      </ArrayField>
    </Labeled>
  );
}

/** One of the player's record lists, paged, newest first; each row opens its record. */
function PlayerRecords({
  reference,
  target = 'user',
  link,
  children,
  simple,
}: {
  reference: string;
  target?: string;
  link: 'edit' | 'show' | false;
  children: ReactNode;
  simple: ReactNode;
}) {
  const isSmall = useIsSmall();
  return (
    <ReferenceManyField
      reference={reference}
      target={target}
      perPage={10}
      sort={{ field: 'createdAt', order: 'DESC' }}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50]} />}
    >
      {isSmall ? (
        simple
      ) : (
        <Datagrid rowClick={link} bulkActionButtons={false} empty={<Box sx={{ p: 2 }}>None yet</Box>}>
          {children}
        </Datagrid>
      )}
    </ReferenceManyField>
  );
}

const CoinSymbol = () => (
  <ReferenceField source="coin" reference="gift-coins" link={false}>
    <TextField source="symbol" />
  </ReferenceField>
);

/** The player's page: tabbed like the demo's customer page. Tabs the account may not read are left out. */
export function UserShow() {
  const missions = useCanAccess({ resource: 'user-missions', action: 'list' }).canAccess;
  const withdraws = useCanAccess({ resource: 'withdraws', action: 'list' }).canAccess;
  const writes = useCanAccess({ resource: 'users', action: 'edit' }).canAccess;
  return (
    <Show actions={<UserShowActions />}>
      <TabbedShowLayout
        tabs={
          <TabbedShowLayoutTabs
            variant="scrollable"
            scrollButtons="auto"
            allowScrollButtonsMobile
            sx={{ maxWidth: { xs: 'calc(100vw - 16px)', md: '100%' } }}
          />
        }
      >
        <TabbedShowLayout.Tab label="Summary">
          <TextField source="name" />
          <TextField source="username" emptyText="—" />
          <NumberField source="telegramId" options={{ useGrouping: false }} />
          <CoinFiguresField />
          <ReferenceField source="referrer" reference="users" emptyText="—" link="show" />
          <NumberField source="referrersCount" />
          <NumberField source="inviteLimit" />
          <NumberField source="missionsCount" />
          <NumberField source="doneMissionsCount" />
          <TextField source="language" />
          <BooleanField source="messagePermission" />
          <BooleanField source="isPremium" />
          <BooleanField source="blocked" />
          <DateField source="lastSeenAt" showTime />
          <DateField source="createdAt" showTime />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="Ledger" path="ledger">
          <PlayerRecords
            reference="ledger-entries"
            link={false}
            simple={
              <SimpleList<LedgerRow>
                primaryText={(r) => (
                  <span>
                    {signed(r.amount)} <CoinSymbol />
                  </span>
                )}
                secondaryText={(r) => `${r.reason}${r.note ? ` · ${r.note}` : ''}${r.operator ? ` · by ${r.operator}` : ''}`}
                tertiaryText={(r) => day(r.createdAt)}
                linkType={false}
              />
            }
          >
            <DateField source="createdAt" showTime sortable={false} />
            <FunctionField<LedgerRow> source="amount" sortable={false} render={(r) => signed(r.amount)} textAlign="right" />
            <CoinSymbol />
            <TextField source="reason" sortable={false} />
            <TextField source="note" sortable={false} emptyText="—" />
            <LedgerRecordLink label="Record" />
            <TextField source="operator" sortable={false} emptyText="—" />
            <TextField source="idempotencyKey" label="Key" sortable={false} sx={{ fontFamily: 'monospace', fontSize: 12 }} />
          </PlayerRecords>
        </TabbedShowLayout.Tab>
        {writes && (
          <TabbedShowLayout.Tab label="Gift or correction" path="adjust">
            <AdjustBalanceForm />
          </TabbedShowLayout.Tab>
        )}
        {missions && (
          <TabbedShowLayout.Tab label="Missions" path="missions">
            <PlayerRecords
              reference="user-missions"
              link="edit"
              simple={
                <SimpleList<Row>
                  primaryText={() => <ReferenceField source="mission" reference="missions" link={false} />}
                  secondaryText={(r) => userMissionStatusLabel(String(r.status))}
                  tertiaryText={(r) => `${text(r.reward)} ${text(r.coinSymbol)}`}
                  linkType="edit"
                />
              }
            >
              <ReferenceField source="mission" reference="missions" link={false} sortable={false} />
              <SelectField source="status" choices={USER_MISSION_STATUS_CHOICES} sortable={false} />
              <FunctionField<Row> source="reward" sortable={false} render={(r) => `${text(r.reward)} ${text(r.coinSymbol)}`} />
              <DateField source="createdAt" showTime sortable={false} />
            </PlayerRecords>
          </TabbedShowLayout.Tab>
        )}
        <TabbedShowLayout.Tab label="Stakes" path="stakes">
          <PlayerRecords
            reference="stakes"
            link="show"
            simple={
              <SimpleList<Row>
                primaryText={(r) => (
                  <span>
                    {String(r.amount)} <CoinSymbol />
                  </span>
                )}
                secondaryText={(r) => `${text(r.duration)} at ${text(r.profitPercent)}%`}
                tertiaryText={(r) => (r.claimedAt ? 'Claimed' : `Unlocks ${day(r.unlocksAt)}`)}
                linkType="show"
              />
            }
          >
            <FunctionField<Row> source="amount" sortable={false} render={(r) => String(r.amount)} />
            <CoinSymbol />
            <TextField source="duration" sortable={false} />
            <TextField source="profit" sortable={false} />
            <DateField source="unlocksAt" showTime sortable={false} />
            <DateField source="claimedAt" showTime sortable={false} emptyText="—" />
          </PlayerRecords>
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="Mining" path="mining">
          <PlayerRecords
            reference="mining-sessions"
            link="show"
            simple={
              <SimpleList<Row>
                primaryText={(r) => (
                  <span>
                    {String(r.amount)} <CoinSymbol />
                  </span>
                )}
                secondaryText={(r) => `Ends ${day(r.endsAt)}`}
                tertiaryText={(r) => (r.movedAt ? 'Moved' : '')}
                linkType="show"
              />
            }
          >
            <FunctionField<Row> source="amount" sortable={false} render={(r) => String(r.amount)} />
            <CoinSymbol />
            <DateField source="startedAt" showTime sortable={false} />
            <DateField source="endsAt" showTime sortable={false} />
            <DateField source="movedAt" showTime sortable={false} emptyText="—" />
          </PlayerRecords>
        </TabbedShowLayout.Tab>
        {withdraws && (
          <TabbedShowLayout.Tab label="Withdrawals" path="withdrawals">
            <PlayerRecords
              reference="withdraws"
              link="edit"
              simple={
                <SimpleList<Row>
                  primaryText={(r) => `${text(r.amount)} ${text(r.coinSymbol)}`}
                  secondaryText={(r) => withdrawalStatusLabel(String(r.status))}
                  tertiaryText={(r) => day(r.createdAt)}
                  linkType="edit"
                />
              }
            >
              <FunctionField<Row> source="amount" sortable={false} render={(r) => `${text(r.amount)} ${text(r.coinSymbol)}`} />
              <SelectField source="status" choices={WITHDRAWAL_STATUS_CHOICES} sortable={false} />
              <DateField source="createdAt" showTime sortable={false} />
              <DateField source="processedAt" showTime sortable={false} emptyText="—" />
            </PlayerRecords>
          </TabbedShowLayout.Tab>
        )}
        <TabbedShowLayout.Tab label="Friends" path="friends">
          <PlayerRecords
            reference="users"
            target="referrer"
            link="show"
            simple={
              <SimpleList<Row>
                primaryText={(r) => String(r.name)}
                secondaryText={(r) => (r.username ? `@${text(r.username)}` : '')}
                tertiaryText={(r) => day(r.createdAt)}
                linkType="show"
              />
            }
          >
            <TextField source="name" sortable={false} />
            <TextField source="username" sortable={false} emptyText="—" />
            <DateField source="createdAt" showTime sortable={false} />
          </PlayerRecords>
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
