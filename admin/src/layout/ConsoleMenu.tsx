import DashboardIcon from '@mui/icons-material/Dashboard';
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import SettingsIcon from '@mui/icons-material/Settings';
import GppMaybeIcon from '@mui/icons-material/GppMaybe';
import { Logout, Menu, useBasename, useCanAccess, useTranslate } from 'react-admin';

// custom items link past react-admin's resource routes, so they add the /admin basename themselves
function WithdrawsItem() {
  const translate = useTranslate();
  const basename = useBasename();
  const { canAccess } = useCanAccess({ resource: 'withdraws', action: 'list' });
  if (canAccess === false) return null;
  return <Menu.Item to={`${basename}/withdraw`} primaryText={translate('menu.withdraws')} leftIcon={<AccountBalanceWalletIcon />} />;
}

function RiskItem() {
  const translate = useTranslate();
  const basename = useBasename();
  const { canAccess } = useCanAccess({ resource: 'users', action: 'list' });
  if (canAccess === false) return null;
  return <Menu.Item to={`${basename}/risk`} primaryText={translate('menu.risk')} leftIcon={<GppMaybeIcon />} />;
}

function AppConfigItem() {
  const translate = useTranslate();
  const basename = useBasename();
  const { canAccess } = useCanAccess({ resource: 'app-config', action: 'edit' });
  if (canAccess === false) return null;
  return <Menu.Item to={`${basename}/app-config`} primaryText={translate('menu.appConfig')} leftIcon={<SettingsIcon />} />;
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
      <RiskItem />
      <Menu.ResourceItem name="user-missions" />
      <Menu.ResourceItem name="staking-coins" />
      <WithdrawsItem />
      <Menu.ResourceItem name="accounts" />
      <AppConfigItem />
      <Menu.ResourceItem name="audit" />
      {/* beyond the spec's menu: what later issues added */}
      <Menu.ResourceItem name="broadcasts" />
      <Menu.ResourceItem name="gifts" />
      <Logout />
    </Menu>
  );
}
