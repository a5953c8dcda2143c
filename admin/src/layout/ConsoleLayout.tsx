import { useEffect, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { AppBar, Layout, Logout, UserMenu, useBasename, useSidebarState, useTranslate, useUserMenu } from 'react-admin';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import SecurityIcon from '@mui/icons-material/Security';
import { ConsoleMenu } from './ConsoleMenu';
import { useIsSmall } from './useIsSmall';

/** On a phone the menu is a drawer over the page: it closes once the operator has gone somewhere. */
function CloseMenuOnNavigation() {
  const { pathname, search } = useLocation();
  const isSmall = useIsSmall();
  const [, setOpen] = useSidebarState();
  useEffect(() => {
    if (isSmall) setOpen(false);
  }, [pathname, search, isSmall, setOpen]);
  return null;
}

/** The user menu's way to the operator's own page (two-step sign-in). */
function MyAccountItem() {
  const userMenu = useUserMenu();
  const basename = useBasename();
  const translate = useTranslate();
  return (
    <MenuItem component={Link} to={`${basename}/account`} onClick={() => userMenu?.onClose()}>
      <ListItemIcon>
        <SecurityIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('twoStep.myAccount')}</ListItemText>
    </MenuItem>
  );
}

function ConsoleAppBar() {
  return (
    <AppBar
      userMenu={
        <UserMenu>
          <MyAccountItem />
          <Logout />
        </UserMenu>
      }
    />
  );
}

export function ConsoleLayout({ children }: { children: ReactNode }) {
  return (
    <Layout menu={ConsoleMenu} appBar={ConsoleAppBar}>
      <CloseMenuOnNavigation />
      {children}
    </Layout>
  );
}
