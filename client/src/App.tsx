import { QueryClientProvider, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { OBJECT_ID_PATTERN } from '@gift/shared/constants';
import { matchRoute, Route, Switch, useLocation, useParams, useRouter } from 'wouter';
import { prefetchLaterPages, watchFirstScreen } from './lib/laterPages';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import { BottomNav } from './ui/BottomNav';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { LoadingBar } from './ui/LoadingBar';
import { PageSkeleton } from './ui/Skeleton';
import { NotFoundPage } from './ui/NotFoundPage';
import { OfflineNotice } from './ui/OfflineNotice';
import { ThemeProvider } from './ui/theme';
import { ToastProvider } from './ui/toast';
import { PlayerSession } from './features/signIn/PlayerSession';
import { HomePage } from './features/home/HomePage';

// the first screen is home: every other page loads when it is opened, and its code is prefetched once the first screen is
// complete (lib/laterPages.ts), so a tab first opened offline still opens
const page = <T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) =>
  lazy(() => load().then((module) => ({ default: module[name] as ComponentType })));
// home's categories open from the first screen, but are not part of it (as the lazy pages, their props kept)
const CategoryMissionsPage = lazy(() =>
  import('./features/categories/CategoryMissionsPage').then((module) => ({ default: module.CategoryMissionsPage })),
);
const CategoriesPage = page(() => import('./features/categories/CategoriesPage'), 'CategoriesPage');
const StakingPage = page(() => import('./features/staking/StakingPage'), 'StakingPage');
const StakeFormPage = page(() => import('./features/staking/StakeFormPage'), 'StakeFormPage');
const CategoryMissionPage = page(() => import('./features/missions/MissionPage'), 'CategoryMissionPage');
const HomeTaskPage = page(() => import('./features/missions/MissionPage'), 'HomeTaskPage');
const InvitePage = page(() => import('./features/invite/InvitePage'), 'InvitePage');
const CurrencyPage = page(() => import('./features/currency/CurrencyPage'), 'CurrencyPage');
const ProfilePage = page(() => import('./features/profile/ProfilePage'), 'ProfilePage');
const SettingsPage = page(() => import('./features/profile/SettingsPage'), 'SettingsPage');
const HelpPage = page(() => import('./features/help/HelpPage'), 'HelpPage');
const LeaguesPage = page(() => import('./features/leagues/LeaguesPage'), 'LeaguesPage');
const ShopPage = page(() => import('./features/shop/ShopPage'), 'ShopPage');
// TON Connect comes with the wallet screens only, so the first screen's JavaScript does not carry it
const WithdrawPage = page(() => import('./features/wallet'), 'WithdrawPage');
const MyWalletsPage = page(() => import('./features/wallet'), 'MyWalletsPage');

/** Theme, API client and cache; tests pass their own clients. */
export function AppProviders({
  children,
  queryClient,
  trpcClient,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  trpcClient?: ReturnType<typeof createTrpcClient>;
}) {
  const [clients] = useState(() => ({
    queryClient: queryClient ?? createQueryClient(),
    trpcClient: trpcClient ?? createTrpcClient(),
  }));
  return (
    <ErrorBoundary>
      <ThemeProvider>
        <ToastProvider>
          <trpc.Provider client={clients.trpcClient} queryClient={clients.queryClient}>
            <QueryClientProvider client={clients.queryClient}>{children}</QueryClientProvider>
          </trpc.Provider>
        </ToastProvider>
      </ThemeProvider>
    </ErrorBoundary>
  );
}

/** Signed in, with the first screen on its way: the other pages' code follows once it is complete. */
function PrefetchLaterPages() {
  useEffect(() => prefetchLaterPages(), []);
  return null;
}

/** Signed in or not, what waits for the first screen to be complete (boot.tsx: the service worker) starts after it. */
function WatchFirstScreen() {
  const queryClient = useQueryClient();
  useEffect(() => watchFirstScreen(queryClient), [queryClient]);
  return null;
}

function PlayerLayout({ children }: { children: ReactNode }) {
  return (
    <div className="app">
      <LoadingBar />
      <OfflineNotice />
      <WatchFirstScreen />
      <PlayerSession>
        <PrefetchLaterPages />
        <main>
          <Suspense fallback={<PageSkeleton />}>{children}</Suspense>
        </main>
        <BottomNav />
      </PlayerSession>
    </div>
  );
}

/** A one-segment address is a category from home only when it is a category's id; anything else is no page at all. */
function HomeCategoryOrNotFound() {
  const { id = '' } = useParams();
  return OBJECT_ID_PATTERN.test(id) ? <CategoryMissionsPage /> : <NotFoundPage />;
}

/** A category's missions opened from the categories list, with a way back to it. */
const ListedCategoryMissionsPage = () => <CategoryMissionsPage backTo="/categories" />;

/**
 * The player's routes (docs/product.md), tried in this order: the first that matches is the page. Home's nested `/:id`
 * opens a category and `/tasks/:taskId` a ⭐ mission from home; both keep home's tab active.
 */
const PLAYER_ROUTES: readonly (readonly [string, ComponentType])[] = [
  ['/', HomePage],
  ['/tasks/:taskId', HomeTaskPage],
  ['/invite', InvitePage],
  ['/leagues', LeaguesPage],
  ['/shop', ShopPage],
  ['/profile', ProfilePage],
  ['/profile/settings', SettingsPage],
  ['/profile/help', HelpPage],
  ['/profile/withdraw', WithdrawPage],
  ['/profile/my-wallets', MyWalletsPage],
  ['/staking', StakingPage],
  ['/staking/:id', StakeFormPage],
  ['/currency', CurrencyPage],
  ['/categories', CategoriesPage],
  ['/categories/:id/missions', ListedCategoryMissionsPage],
  ['/categories/:id/missions/:missionId/get', CategoryMissionPage],
  // after every page of one segment: any other single segment
  ['/:id', HomeCategoryOrNotFound],
];

/** The player's pages in their layout; an address that is none of them is a not-found page of its own. */
export function AppRoutes() {
  const [pathname] = useLocation();
  const { parser } = useRouter();
  if (!PLAYER_ROUTES.some(([path]) => matchRoute(parser, path, pathname)[0]))
    return (
      <div className="app">
        <NotFoundPage />
      </div>
    );
  return (
    <PlayerLayout>
      <Switch>
        {PLAYER_ROUTES.map(([path, page]) => (
          <Route key={path} path={path} component={page} />
        ))}
      </Switch>
    </PlayerLayout>
  );
}

export function App() {
  return (
    <AppProviders>
      <AppRoutes />
    </AppProviders>
  );
}
