import { QueryClient } from '@tanstack/react-query';
import { httpBatchLink, retryLink, TRPCClientError } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import superjson from 'superjson';
import { TRPC_MAX_BATCH_SIZE } from '@gift/shared/constants';
// type-only: no server code reaches the bundle
import type { AppRouter } from '@gift/server';
import { telegramInitData } from './telegramLaunch';
import { readStored, writeStored } from './storage';

export const trpc = createTRPCReact<AppRouter>();
export type { RouterOutputs } from '@gift/server';

/** Where the token of a web sign-in (username + code, outside Telegram) is kept. */
export const PLAYER_TOKEN_KEY = 'playerToken';

const storedPlayerToken = () => readStored(PLAYER_TOKEN_KEY);

export function storePlayerToken(token: string | null): void {
  // storage off: the player signs in again next visit
  writeStored(PLAYER_TOKEN_KEY, token || null);
}

export type CredentialKind = 'telegram' | 'web' | 'demo';

/**
 * Who the player is, in the order the server trusts it: Telegram's signed launch data, then a web
 * sign-in token, then the demo player (which only a development server accepts).
 */
export function playerCredential(): { kind: CredentialKind; authorization: string } {
  const initData = telegramInitData();
  if (initData) return { kind: 'telegram', authorization: `tma ${initData}` };
  const token = storedPlayerToken();
  if (token) return { kind: 'web', authorization: `Bearer ${token}` };
  return { kind: 'demo', authorization: 'demo' };
}

/** The API client; tests pass their own fetch (a stand-in server). */
export function createTrpcClient({ url = '/trpc', fetch }: { url?: string; fetch?: typeof globalThis.fetch } = {}) {
  return trpc.createClient({
    links: [
      retryLink({ retry: shouldRetryCall, retryDelayMs: (attempt) => 500 * attempt }),
      httpBatchLink({
        url,
        transformer: superjson,
        // the server refuses larger batches
        maxItems: TRPC_MAX_BATCH_SIZE,
        headers: () => ({ Authorization: playerCredential().authorization }),
        ...(fetch ? { fetch } : {}),
      }),
    ],
  });
}

/** The product's error code of a failed call (see shared ERROR_MESSAGES), if it has one. */
export function appErrorOf(error: unknown): { code: string; params: Record<string, string | number> } | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = error.data as { appCode?: string | null; params?: Record<string, string | number> | null } | undefined;
  return data?.appCode ? { code: data.appCode, params: data.params ?? {} } : null;
}

/** Statuses a second try can cure (docs/product.md). */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

function httpStatusOf(error: unknown): number | null {
  return (error as { data?: { httpStatus?: number } | null } | null)?.data?.httpStatus ?? null;
}

/** Reads are retried once on a retryable status; writes never, so a tap never counts twice. */
function shouldRetryCall({ op, error, attempts }: { op: { type: string }; error: unknown; attempts: number }): boolean {
  const status = httpStatusOf(error);
  return op.type === 'query' && attempts < 2 && status !== null && RETRYABLE_STATUSES.has(status);
}

/** The request never got an answer: offline, or the connection dropped. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TRPCClientError && httpStatusOf(error) === null;
}

/**
 * Cache settings of docs/product.md: fresh for 60 s, kept 5 min, 500 ms × attempt between tries. The link
 * already retried what a status allows; the cache only tries again when no answer came at all.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: 5 * 60_000,
        retry: (failureCount, error) => failureCount < 2 && isNetworkFailure(error),
        retryDelay: (failureCount) => 500 * (failureCount + 1),
      },
      // a money action is tried at once even offline, so it fails at once with 'You are offline' instead of waiting
      // silently and firing by itself when the connection comes back, when the player may no longer mean it
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
