import type { ComponentType } from 'react';
import { EditButton, Show, TabbedShowLayout, TabbedShowLayoutTabs, TopToolbar, useCanAccess } from 'react-admin';
import { HistoryButton } from '../sharedInputs';
import { AdjustBalanceForm } from './AdjustBalanceForm';
import { PlayerStatusButtons } from './StatusButtons';
import { RiskTab } from './risk/RiskViews';
import { FriendsTab } from './show/FriendsTab';
import { LedgerTab } from './show/LedgerTab';
import { MiningTab } from './show/MiningTab';
import { MissionsTab } from './show/MissionsTab';
import type { TabContentProps } from './show/PlayerRecords';
import { StakesTab } from './show/StakesTab';
import { SummaryTab } from './show/SummaryTab';
import { TimelineTab } from './show/TimelineTab';
import { WithdrawalsTab } from './show/WithdrawalsTab';

function UserShowActions() {
  const writes = useCanAccess({ resource: 'users', action: 'edit' }).canAccess ?? false;
  return (
    <TopToolbar>
      <HistoryButton />
      {writes && <PlayerStatusButtons />}
      {writes && <EditButton />}
    </TopToolbar>
  );
}

type Tab = [label: string, path: string | undefined, Content: ComponentType<TabContentProps>, shown: boolean];

/** The player's page: tabbed like the demo's customer page, one file per tab. Tabs the account may not read are left out. */
export function UserShow() {
  const missions = useCanAccess({ resource: 'user-missions', action: 'list' }).canAccess ?? false;
  const withdraws = useCanAccess({ resource: 'withdraws', action: 'list' }).canAccess ?? false;
  // moving money is the gifts permission, apart from editing and freezing players
  const gives = useCanAccess({ resource: 'gifts', action: 'create' }).canAccess ?? false;
  // an operator who only opens a player through another permission (a withdrawal's player) sees their figures, wallets and risk
  const reads = useCanAccess({ resource: 'users', action: 'list' }).canAccess ?? false;
  const tabs: Tab[] = [
    ['summary', undefined, SummaryTab, true],
    ['risk', 'risk', RiskTab, true],
    ['timeline', 'timeline', TimelineTab, reads],
    ['ledger', 'ledger', LedgerTab, reads],
    ['adjust', 'adjust', AdjustBalanceForm, gives],
    ['missions', 'missions', MissionsTab, missions],
    ['stakes', 'stakes', StakesTab, reads],
    ['mining', 'mining', MiningTab, reads],
    ['withdrawals', 'withdrawals', WithdrawalsTab, withdraws],
    ['friends', 'friends', FriendsTab, reads],
  ];
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
        {tabs
          .filter(([, , , shown]) => shown)
          .map(([label, path, Content]) => (
            <TabbedShowLayout.Tab key={label} label={`players.tabs.${label}`} path={path}>
              <Content label={false} />
            </TabbedShowLayout.Tab>
          ))}
      </TabbedShowLayout>
    </Show>
  );
}
