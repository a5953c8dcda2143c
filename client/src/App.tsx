import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Outlet, Route, Routes } from 'react-router';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import { BottomNav } from './ui/BottomNav';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { LoadingBar } from './ui/LoadingBar';
import { NotFoundPage } from './ui/NotFoundPage';
import { ThemeProvider } from './ui/theme';
import { PlayerSession } from './features/signIn/PlayerSession';
import { HomePage } from './features/home/HomePage';
import { CategoriesPage } from './features/categories/CategoriesPage';
import { CategoryMissionsPage } from './features/categories/CategoryMissionsPage';
import { StakingPage } from './features/staking/StakingPage';
import { CurrencyPage } from './features/currency/CurrencyPage';
import { ProfilePage } from './features/profile/ProfilePage';
import { SettingsPage } from './features/profile/SettingsPage';

// TON Connect comes with the wallet screens only, so the first screen's JavaScript does not carry it
const WithdrawPage = lazy(() => import('./features/wallet').then((module) => ({ default: module.WithdrawPage })));
const MyWalletsPage = lazy(() => import('./features/wallet').then((module) => ({ default: module.MyWalletsPage })));

function WalletScreen({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return <Suspense fallback={<div className="splash" aria-busy="true">{t('common.loading')}</div>}>{children}</Suspense>;
}

/** Theme, API client and cache; tests pass their own clients. */
export function AppProviders({ children, queryClient, trpcClient }: {
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
        <trpc.Provider client={clients.trpcClient} queryClient={clients.queryClient}>
          <QueryClientProvider client={clients.queryClient}>{children}</QueryClientProvider>
        </trpc.Provider>
      </ThemeProvider>
    </ErrorBoundary>
  );
}

function PlayerLayout() {
  return (
    <div className="app">
      <LoadingBar />
      <PlayerSession>
        <main>
          <Outlet />
        </main>
        <BottomNav />
      </PlayerSession>
    </div>
  );
}

/** The player's routes (spec §2). */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PlayerLayout />}>
        <Route index element={<HomePage />} />
        <Route path="profile">
          <Route index element={<ProfilePage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="withdraw" element={<WalletScreen><WithdrawPage /></WalletScreen>} />
          <Route path="my-wallets" element={<WalletScreen><MyWalletsPage /></WalletScreen>} />
        </Route>
        <Route path="staking">
          <Route index element={<StakingPage />} />
          <Route path=":id" element={<StakingPage />} />
        </Route>
        <Route path="currency" element={<CurrencyPage />} />
        <Route path="categories">
          <Route index element={<CategoriesPage />} />
          <Route path=":id/missions" element={<CategoryMissionsPage />} />
        </Route>
      </Route>
      <Route path="*" element={<div className="app"><NotFoundPage /></div>} />
    </Routes>
  );
}

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
