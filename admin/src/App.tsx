import { Admin, CustomRoutes, Resource, localStorageStore, StoreContextProvider, type AuthProvider, type DataProvider } from 'react-admin';
import { BrowserRouter, Route, Routes } from 'react-router';
import { authProvider as defaultAuthProvider } from './authProvider';
import { dataProvider as defaultDataProvider } from './dataProvider';
import { Dashboard } from './dashboard/Dashboard';
import { AnalyticsPage } from './dashboard/AnalyticsPage';
import { i18nProvider } from './i18n/i18nProvider';
import { DirectionProvider, useConsoleDirection } from './layout/direction';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { ConsoleLogin } from './layout/ConsoleLogin';
import { consoleThemes } from './theme';
import accounts from './resources/accounts';
import accountGrants from './resources/account-grants';
import audit from './resources/audit';
import broadcasts from './resources/broadcasts';
import gifts from './resources/gifts';
import faqs from './resources/help/faqs';
import appeals from './resources/help/appeals';
import starOffers from './resources/star-shop/starOffers';
import starPurchases from './resources/star-shop/starPurchases';
import { leagueStandings, leagueWeeks } from './resources/leagues/leagues';
import { miningSessions, stakes } from './resources/player-records';
import appConfig from './resources/app-config';
import categories from './resources/categories';
import covers from './resources/covers';
import giftCoins from './resources/gift-coins';
import missions from './resources/missions';
import partners from './resources/partners';
import stakingCoins from './resources/staking-coins';
import userMissions from './resources/user-missions';
import users from './resources/users';
import { RiskList } from './resources/users/risk/RiskList';
import { HoldersList } from './resources/users/HoldersList';
import { MyAccountPage } from './resources/accounts/MyAccountPage';
import { BooksPage } from './resources/books/BooksPage';
import withdraws, { DoneWithdrawList, InPayoutWithdrawList, PendingWithdrawList, TreasuryPage } from './resources/withdraws';

interface ConsoleProps {
  dataProvider?: DataProvider;
  authProvider?: AuthProvider;
  basename?: string;
}

/** react-admin's own store (the same localStorage keys as its default): the language menu keeps the locale in it. */
const store = localStorageStore();

function Console({ dataProvider = defaultDataProvider, authProvider = defaultAuthProvider, basename = '/admin' }: ConsoleProps) {
  const direction = useConsoleDirection();
  return (
    <Admin
      store={store}
      basename={basename}
      title="app.title"
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      dashboard={Dashboard}
      layout={ConsoleLayout}
      loginPage={ConsoleLogin}
      theme={consoleThemes[direction]}
      requireAuth
      disableTelemetry
    >
      <Resource name="users" {...users} />
      <Resource name="user-missions" {...userMissions} />
      <Resource name="missions" {...missions} />
      <Resource name="categories" {...categories} />
      <Resource name="covers" {...covers} />
      <Resource name="partners" {...partners} />
      <Resource name="gift-coins" {...giftCoins} />
      <Resource name="staking-coins" {...stakingCoins} />
      <Resource name="withdraws" {...withdraws} />
      <Resource name="accounts" {...accounts} />
      <Resource name="account-grants" {...accountGrants} />
      <Resource name="app-config" {...appConfig} />
      <Resource name="audit" {...audit} />
      <Resource name="broadcasts" {...broadcasts} />
      <Resource name="gifts" {...gifts} />
      <Resource name="faqs" {...faqs} />
      <Resource name="appeals" {...appeals} />
      <Resource name="star-offers" {...starOffers} />
      <Resource name="star-purchases" {...starPurchases} />
      <Resource name="league-standings" {...leagueStandings} />
      <Resource name="league-weeks" {...leagueWeeks} />
      <Resource name="ledger-entries" />
      <Resource name="balances" />
      <Resource name="stakes" {...stakes} />
      <Resource name="mining-sessions" {...miningSessions} />
      <CustomRoutes>
        <Route path="/withdraw" element={<PendingWithdrawList />} />
        <Route path="/withdraw/done" element={<DoneWithdrawList />} />
        <Route path="/withdraw/payout" element={<InPayoutWithdrawList />} />
        <Route path="/treasury" element={<TreasuryPage />} />
        <Route path="/books" element={<BooksPage />} />
        <Route path="/risk" element={<RiskList />} />
        <Route path="/analytics" element={<AnalyticsPage />} />
        <Route path="/holders" element={<HoldersList />} />
        <Route path="/account" element={<MyAccountPage />} />
      </CustomRoutes>
    </Admin>
  );
}

/**
 * The console at /admin with real paths (/admin/users, /admin/withdraw/done), not react-admin's
 * default hash router; tests pass their own providers.
 */
export function App(props: ConsoleProps) {
  const basename = props.basename ?? '/admin';
  return (
    <BrowserRouter>
      <Routes>
        <Route
          path={`${basename}/*`}
          element={
            <StoreContextProvider value={store}>
              <DirectionProvider>
                <Console {...props} basename={basename} />
              </DirectionProvider>
            </StoreContextProvider>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}
