import { EditButton, Show, TabbedShowLayout, TabbedShowLayoutTabs, TopToolbar, useCanAccess } from 'react-admin';
import { HistoryButton } from '../sharedInputs';
import { AdjustBalanceForm } from './AdjustBalanceForm';
import { FriendsTab } from './show/FriendsTab';
import { LedgerTab } from './show/LedgerTab';
import { MiningTab } from './show/MiningTab';
import { MissionsTab } from './show/MissionsTab';
import { StakesTab } from './show/StakesTab';
import { SummaryTab } from './show/SummaryTab';
import { WithdrawalsTab } from './show/WithdrawalsTab';

function UserShowActions() {
  return (
    <TopToolbar>
      <HistoryButton />
      <EditButton />
    </TopToolbar>
  );
}

/** The player's page: tabbed like the demo's customer page, one file per tab. Tabs the account may not read are left out. */
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
        <TabbedShowLayout.Tab label="players.tabs.summary">
          <SummaryTab label={false} />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="players.tabs.ledger" path="ledger">
          <LedgerTab label={false} />
        </TabbedShowLayout.Tab>
        {writes && (
          <TabbedShowLayout.Tab label="players.tabs.adjust" path="adjust">
            <AdjustBalanceForm label={false} />
          </TabbedShowLayout.Tab>
        )}
        {missions && (
          <TabbedShowLayout.Tab label="players.tabs.missions" path="missions">
            <MissionsTab label={false} />
          </TabbedShowLayout.Tab>
        )}
        <TabbedShowLayout.Tab label="players.tabs.stakes" path="stakes">
          <StakesTab label={false} />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="players.tabs.mining" path="mining">
          <MiningTab label={false} />
        </TabbedShowLayout.Tab>
        {withdraws && (
          <TabbedShowLayout.Tab label="players.tabs.withdrawals" path="withdrawals">
            <WithdrawalsTab label={false} />
          </TabbedShowLayout.Tab>
        )}
        <TabbedShowLayout.Tab label="players.tabs.friends" path="friends">
          <FriendsTab label={false} />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
