import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes } from '../src/App';
import { createQueryClient, createTrpcClient } from '../src/lib/trpc';
import { fakeTrpcServer, type Handlers } from './fakeTrpcServer';

export const DEMO_PLAYER = {
  id: '65f000000000000000000001',
  telegramId: 0,
  name: 'Demo Player',
  username: 'demo_player',
  language: 'en',
  theme: 'dark',
  messagePermission: false,
  isPremium: false,
  photoUrl: '',
  isDemo: true,
  referralCode: 'DEMO42',
  inviteLimit: 100,
  referrersCount: 4,
  missionsCount: 9,
  doneMissionsCount: 7,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  coins: [{ coinId: 'c1', symbol: 'GIFT', name: 'Gift Coin', icon: '', balance: '1250.5', rewards: '1000', earned: '250.5', withdrawn: '0', gifts: '0' }],
};

export const HOME = {
  covers: [],
  partners: [],
  categories: [
    { id: '65f0000000000000000000c1', title: 'Get started', description: '', image: '', missionsTotal: 3, missionsDone: 1 },
    { id: '65f0000000000000000000c2', title: 'Social', description: '', image: '', missionsTotal: 2, missionsDone: 0 },
  ],
  starMissions: [
    { id: '65f0000000000000000000a1', categoryId: '65f0000000000000000000c1', title: 'Read how Gift Rewards works', reward: '150', coin: { id: 'c1', symbol: 'GIFT' }, mustDone: true, status: 'not_started' },
  ],
};

export const CURRENCY = [
  { id: 'c0', name: 'Toncoin', symbol: 'TON', icon: '', decimals: 9, usdPrice: '3.25', balance: '2', value: '6.50' },
  { id: 'c2', name: 'Star Points', symbol: 'STAR', icon: '', decimals: 9, usdPrice: null, balance: '0', value: null },
];

/** The whole app at a path, talking to a stand-in server answering with these handlers. */
export function renderApp(path: string, handlers: Handlers) {
  const server = fakeTrpcServer(handlers);
  render(
    <AppProviders queryClient={createQueryClient()} trpcClient={createTrpcClient({ fetch: server.fetch })}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
  return server;
}

export const signedInPlayer: Handlers = {
  'user.me': () => DEMO_PLAYER,
  'home.get': () => HOME,
  'home.currency': () => CURRENCY,
  'user.updateSettings': () => ({ ok: true }),
  'mining.status': () => ({ configured: false, active: null, readyToMove: 0, readyAmounts: [], coin: null, earnAmount: '0', earnDurationHours: 8, serverTime: new Date() }),
};

