import type { ReactElement } from 'react';
import DashboardIcon from '@mui/icons-material/Dashboard';
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import SettingsIcon from '@mui/icons-material/Settings';
import GppMaybeIcon from '@mui/icons-material/GppMaybe';
import { Logout, Menu, useBasename, useCanAccess, useTranslate } from 'react-admin';

interface PageItemProps {
  /** The page's path under the console's basename. */
  to: string;
  label: string;
  icon: ReactElement;
  /** The access the page needs: the item is hidden from an operator without it. */
  resource: string;
  action: 'list' | 'edit';
}

// custom items link past react-admin's resource routes, so they add the /admin basename themselves
function PageItem({ to, label, icon, resource, action }: PageItemProps) {
  const translate = useTranslate();
  const basename = useBasename();
  const { canAccess } = useCanAccess({ resource, action });
  if (canAccess === false) return null;
  return <Menu.Item to={`${basename}/${to}`} primaryText={translate(label)} leftIcon={icon} />;
}

/** The spec's menu, in its order, then what came after it; Covers and Partners sit with the other home-screen content. */
export function ConsoleMenu() {
  const translate = useTranslate();
  return (
    <Menu>
      <Menu.DashboardItem primaryText={translate('menu.dashboard')} leftIcon={<DashboardIcon />} />
      <Menu.ResourceItem name="gift-coins" />
      <Menu.ResourceItem name="categories" />
      <Menu.ResourceItem name="covers" />
      <Menu.ResourceItem name="partners" />
      <Menu.ResourceItem name="missions" />
      <Menu.ResourceItem name="users" />
      <PageItem to="risk" label="menu.risk" icon={<GppMaybeIcon />} resource="users" action="list" />
      <Menu.ResourceItem name="user-missions" />
      <Menu.ResourceItem name="staking-coins" />
      <PageItem to="withdraw" label="menu.withdraws" icon={<AccountBalanceWalletIcon />} resource="withdraws" action="list" />
      <Menu.ResourceItem name="accounts" />
      <PageItem to="app-config" label="menu.appConfig" icon={<SettingsIcon />} resource="app-config" action="edit" />
      <Menu.ResourceItem name="audit" />
      {/* beyond the spec's menu: what later issues added */}
      <Menu.ResourceItem name="broadcasts" />
      <Menu.ResourceItem name="gifts" />
      <Logout />
    </Menu>
  );
}
