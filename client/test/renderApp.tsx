import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders, AppRoutes } from '../src/App';
import { createQueryClient, createTrpcClient } from '../src/lib/trpc';
import { fakeTrpcServer, type Handlers } from './fakeTrpcServer';

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
