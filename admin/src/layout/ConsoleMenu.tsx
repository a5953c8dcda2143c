import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import type { ReactElement, ReactNode } from 'react';
import DashboardIcon from '@mui/icons-material/Dashboard';
import InsightsIcon from '@mui/icons-material/Insights';
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import SettingsIcon from '@mui/icons-material/Settings';
import GppMaybeIcon from '@mui/icons-material/GppMaybe';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import { Logout, Menu, useBasename, useCanAccess, useGetResourceLabel, useTranslate } from 'react-admin';
import { CountBadge, MenuLabel, useMenuCounts } from './MenuBadges';

interface PageItemProps {
  /** The page's path under the console's basename. */
  to: string;
  label: string;
  icon: ReactElement;
  /** The access the page needs: the item is hidden from an operator without it. */
  resource: string;
  action: 'list' | 'edit';
  /** What waits there, beside the label. */
  badge?: ReactNode;
}

// custom items link past react-admin's resource routes, so they add the /admin basename themselves
function PageItem({ to, label, icon, resource, action, badge }: PageItemProps) {
  const translate = useTranslate();
  const basename = useBasename();
  const { canAccess } = useCanAccess({ resource, action });
  if (canAccess === false) return null;
  return <Menu.Item to={`${basename}/${to}`} primaryText={<MenuLabel label={translate(label)}>{badge}</MenuLabel>} leftIcon={icon} />;
}

/** A menu item's label with what waits there counted beside it. */
const counted = (label: string, count: number | undefined, title: string) => (
  <MenuLabel label={label}>
    <CountBadge count={count} title={title} />
  </MenuLabel>
);

/** Resources' own items, in this order. */
const items = (...names: string[]) => names.map((name) => <Menu.ResourceItem key={name} name={name} />);

/** The spec's menu, in its order, then what came after it; Covers and Partners sit with the other home-screen content. */
export function ConsoleMenu() {
  const translate = useTranslate();
  const resourceLabel = useGetResourceLabel();
  const counts = useMenuCounts();
  return (
    <Menu>
      {/* what waits for the operator's approval (gifts, access, brake changes): the dashboard counts and links each kind */}
      <Menu.DashboardItem
        primaryText={counted(translate('menu.dashboard'), counts.approvals, 'alerts.badges.approvals')}
        leftIcon={<DashboardIcon />}
      />
      {items('gift-coins', 'categories', 'covers', 'partners', 'missions', 'users')}
      <PageItem to="risk" label="menu.risk" icon={<GppMaybeIcon />} resource="users" action="list" />
      <Menu.ResourceItem
        name="user-missions"
        primaryText={counted(resourceLabel('user-missions', 2), counts.claims, 'alerts.badges.claims')}
      />
      <Menu.ResourceItem name="staking-coins" />
      <PageItem
        to="withdraw"
        label="menu.withdraws"
        icon={<AccountBalanceWalletIcon />}
        resource="withdraws"
        action="list"
        badge={
          <>
            <CountBadge count={counts.withdrawals} title="alerts.badges.withdrawals" />
            {counts.payoutsStopped && <CountBadge word={translate('alerts.badges.stopped')} title="alerts.badges.payoutsStopped" />}
          </>
        }
      />
      <Menu.ResourceItem name="accounts" />
      <PageItem to="app-config" label="menu.appConfig" icon={<SettingsIcon />} resource="app-config" action="edit" />
      <Menu.ResourceItem name="audit" />
      {/* beyond the spec's menu: what later issues added */}
      {items('broadcasts', 'gifts', 'appeals', 'faqs', 'star-offers', 'star-purchases', 'league-standings')}
      <PageItem to="league-weeks/current" label="menu.leaguePrizes" icon={<EmojiEventsIcon />} resource="league-weeks" action="edit" />
      <PageItem to="analytics" label="menu.analytics" icon={<InsightsIcon />} resource="users" action="list" />
      {/* the books, read with the treasury's permission (withdrawals): the money figures beside the hot wallet */}
      <PageItem to="books" label="menu.books" icon={<MenuBookIcon />} resource="withdraws" action="list" />
      <Logout />
    </Menu>
  );
}
