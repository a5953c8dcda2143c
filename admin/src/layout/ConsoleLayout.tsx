import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Layout, useSidebarState } from 'react-admin';
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

export function ConsoleLayout({ children }: { children: ReactNode }) {
  return (
    <Layout menu={ConsoleMenu}>
      <CloseMenuOnNavigation />
      {children}
    </Layout>
  );
}
