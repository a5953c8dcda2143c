import { Link, useLocation } from 'wouter';
import { useTranslation } from '../lib/translator';
import { OBJECT_ID_PATTERN } from '@gift/shared/constants';
import { CurrencyIcon, InviteIcon, ProfileIcon, StakingIcon, TasksIcon } from './icons';

/** Home's own pages (a category or a mission opened from it, the category pages) keep Tasks lit. */
const isHomeChild = (pathname: string) => /^\/(tasks\/|categories(\/|$))/i.test(pathname) || OBJECT_ID_PATTERN.test(pathname.slice(1));

const TABS = [
  { to: '/', label: 'nav.tasks', icon: TasksIcon, end: true },
  { to: '/staking', label: 'nav.staking', icon: StakingIcon, end: false },
  { to: '/invite', label: 'nav.invite', icon: InviteIcon, end: false },
  { to: '/currency', label: 'nav.currency', icon: CurrencyIcon, end: false },
  { to: '/profile', label: 'nav.profile', icon: ProfileIcon, end: false },
] as const;

/** The player's sections (labels in docs/product.md); Settings sits under Profile. */
export function BottomNav() {
  const { t } = useTranslation();
  const [pathname] = useLocation();
  return (
    <nav className="bottom-nav" aria-label="Main">
      {TABS.map(({ to, label, icon: TabIcon, end }) => {
        // the tab's own page, or (unless it is `end`) a page below it, is the current one
        const current = pathname === to || (!end && pathname.startsWith(`${to}/`));
        return (
          <Link
            key={to}
            to={to}
            aria-current={current ? 'page' : undefined}
            className={current || (to === '/' && isHomeChild(pathname)) ? 'tab tab-active' : 'tab'}
          >
            <TabIcon />
            <span>{t(label)}</span>
          </Link>
        );
      })}
    </nav>
  );
}
