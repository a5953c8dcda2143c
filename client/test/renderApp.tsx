import { render } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AppProviders, AppRoutes } from '../src/App';
import { setLanguage } from '../src/lib/i18n';
import { createQueryClient, createTrpcClient } from '../src/lib/trpc';
import { fakeTrpcServer, type Handlers } from './fakeTrpcServer';
import { CURRENCY, DEMO_PLAYER, HOME } from './fixtures';

export { CURRENCY, DEMO_PLAYER, HOME };

/**
 * The whole app at a path (null: at the window's own address, as a launch opens it), talking to a stand-in server answering
 * with these handlers.
 */
export function renderApp(path: string | null, handlers: Handlers) {
  const server = fakeTrpcServer(handlers);
  render(
    <AppProviders queryClient={createQueryClient()} trpcClient={createTrpcClient({ fetch: server.fetch })}>
      {path === null ? (
        <AppRoutes />
      ) : (
        <Router hook={memoryLocation({ path }).hook}>
          <AppRoutes />
        </Router>
      )}
    </AppProviders>,
  );
  return server;
}

/** The whole app in Persian (a test sets English back when the next one expects it). */
export async function renderAppInPersian(path: string, handlers: Handlers) {
  await setLanguage('fa');
  return renderApp(path, handlers);
}

export const signedInPlayer: Handlers = {
  'user.me': () => DEMO_PLAYER,
  'home.get': () => HOME,
  'home.currency': () => CURRENCY,
  'user.updateSettings': ({ language = 'en', theme = 'dark' }) => ({ language, theme }),
  'mining.status': () => ({
    configured: false,
    active: null,
    readyToMove: 0,
    readyAmounts: [],
    coin: null,
    earnAmount: '0',
    earnDurationHours: 8,
    serverTime: new Date(),
  }),
};
