import { HttpError, type AuthProvider } from 'react-admin';
import type { ConsoleAccount, ConsoleSession } from '@gift/server';
import { hasPermission } from '@gift/shared';
import { API_URL, inConsoleLanguage } from './dataProvider';
import { i18nProvider } from './i18n/i18nProvider';
import { adminToken, clearSession, saveSession, storedAccount, tokenExpired } from './session';

const READ_ACTIONS = new Set(['list', 'show', 'export']);

/** The signed-in account: saved at sign-in, or asked of GET /me once per token when this browser has none saved. */
const lookups = new Map<string, Promise<ConsoleAccount | null>>();

async function askServer(token: string): Promise<ConsoleAccount | null> {
  try {
    const response = await fetch(`${API_URL}/me`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
    if (!response.ok) return null;
    const account = (await response.json()) as ConsoleAccount;
    saveSession(token, account);
    return account;
  } catch {
    return null;
  }
}

async function signedInAccount(): Promise<ConsoleAccount | null> {
  const account = storedAccount();
  if (account) return account;
  const token = adminToken();
  if (!token) return null;
  if (!lookups.has(token)) lookups.set(token, askServer(token));
  return lookups.get(token)!;
}

/** Pages opened by another resource's permission: access waiting for approval is the accounts'. */
const PERMISSION_OF: Record<string, string> = { 'account-grants': 'accounts', 'league-standings': 'leagues', 'league-weeks': 'leagues' };

/**
 * What an account with these permissions may do with a resource's page: lists and forms by its own permission; a record's page also
 * through the reads another permission implies (a withdrawal's player, for a withdrawals operator), read-only.
 */
export function mayAccess(permissions: readonly string[], resource: string, action: string): boolean {
  return hasPermission(
    permissions,
    PERMISSION_OF[resource] ?? resource,
    action === 'show' ? 'lookup' : READ_ACTIONS.has(action) ? 'read' : 'write',
  );
}

/** The password was right and the account has two-step sign-in on: the sign-in form asks for the code and signs in again with it. */
export class TotpRequired extends Error {
  constructor() {
    super('twoStep.loginAsked');
    this.name = 'TotpRequired';
  }
}

export const authProvider: AuthProvider = {
  async login({ username, password, totp }: { username: string; password: string; totp?: string }) {
    const response = await fetch(`${API_URL}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(totp ? { username, password, totp } : { username, password }),
    });
    const answer = (await response.json().catch(() => ({}))) as Partial<ConsoleSession> & { message?: string; totpRequired?: boolean };
    if (response.ok && answer.totpRequired) throw new TotpRequired();
    if (!response.ok || !answer.token || !answer.account) {
      // react-admin translates its own key when the server said nothing
      throw inConsoleLanguage(new HttpError(answer.message ?? 'ra.auth.sign_in_error', response.status, answer), i18nProvider.getLocale());
    }
    saveSession(answer.token, answer.account);
  },

  logout() {
    clearSession();
    return Promise.resolve();
  },

  checkAuth() {
    const token = adminToken();
    if (token && !tokenExpired(token)) return Promise.resolve();
    clearSession();
    return Promise.reject(new Error('Please sign in'));
  },

  /** 401: the token is gone or revoked, sign out. 403: signed in but not allowed, stay. */
  checkError(error: { status?: number }) {
    if (error?.status !== 401) return Promise.resolve();
    clearSession();
    return Promise.reject(new Error('Your session has ended, please sign in again'));
  },

  async getIdentity() {
    const account = await signedInAccount();
    if (!account) throw new Error('Please sign in');
    return { id: account.id, fullName: account.username };
  },

  async getPermissions() {
    return (await signedInAccount())?.permissions ?? [];
  },

  /** Hides what the account may not use; the server enforces the same rule on every call. */
  async canAccess({ resource, action }: { resource: string; action: string }) {
    if (resource === 'dashboard') return true;
    return mayAccess((await signedInAccount())?.permissions ?? [], resource, action);
  },
};
