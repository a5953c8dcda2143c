import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CurrencyIcon, ProfileIcon, StakingIcon, TasksIcon } from './icons';

const TABS = [
  { to: '/', label: 'nav.tasks', icon: TasksIcon, end: true },
  { to: '/staking', label: 'nav.staking', icon: StakingIcon, end: false },
  { to: '/currency', label: 'nav.currency', icon: CurrencyIcon, end: false },
  { to: '/profile', label: 'nav.profile', icon: ProfileIcon, end: false },
] as const;

/** The player's four sections (spec §2 labels). */
export function BottomNav() {
  const { t } = useTranslation();
  return (
    <nav className="bottom-nav" aria-label="Main">
      {TABS.map(({ to, label, icon: TabIcon, end }) => (
        <NavLink key={to} to={to} end={end} className={({ isActive }) => (isActive ? 'tab tab-active' : 'tab')}>
          <TabIcon />
          <span>{t(label)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
