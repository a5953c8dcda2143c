import type { AuthProvider } from 'react-admin';
import { API_URL } from './dataProvider';
import { hasPermission } from '@gift/shared';
import { adminToken, clearSession, saveSession, storedAccount, tokenClaims, tokenExpired, type SignedInAccount } from './session';

const READ_ACTIONS = new Set(['list', 'show', 'export']);

interface LoginAnswer {
  token?: string;
  account?: { id?: string; username?: string; permissions?: string[] };
  message?: string;
}

async function readJson(response: Response): Promise<LoginAnswer> {
  try {
    return (await response.json()) as LoginAnswer;
  } catch {
    return {};
  }
}

/** GET /me answers, remembered per token so a server without it is asked once. */
const lookups = new Map<string, Promise<string[] | null>>();

async function askServer(token: string): Promise<string[] | null> {
  try {
    const response = await fetch(`${API_URL}/me`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
    if (!response.ok) return null;
    const me = (await response.json()) as Partial<SignedInAccount>;
    if (!Array.isArray(me.permissions)) return null;
    saveSession(token, { id: String(me.id ?? ''), username: me.username ?? '', permissions: me.permissions });
    return me.permissions;
  } catch {
    return null;
  }
}

/** The account's permissions: from the login answer, else GET /me; null when the server does not say. */
async function permissions(): Promise<string[] | null> {
  const account = storedAccount();
  if (account?.permissions) return account.permissions;
  const token = adminToken();
  if (!token) return null;
  if (!lookups.has(token)) lookups.set(token, askServer(token));
  return lookups.get(token)!;
}

export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    const response = await fetch(`${API_URL}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const answer = await readJson(response);
    if (!response.ok || !answer.token) throw new Error(answer.message ?? 'Invalid username or password');
    const claims = tokenClaims(answer.token);
    const account = answer.account
      ? {
          id: String(answer.account.id ?? claims?.sub ?? ''),
          username: answer.account.username ?? username,
          permissions: Array.isArray(answer.account.permissions) ? answer.account.permissions : null,
        }
      : null;
    saveSession(answer.token, account);
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

  getIdentity() {
    const token = adminToken();
    const account = storedAccount();
    const claims = token ? tokenClaims(token) : null;
    const username = account?.username || claims?.username || 'operator';
    return Promise.resolve({ id: account?.id || claims?.sub || username, fullName: username });
  },

  async getPermissions() {
    return permissions();
  },

  /** Hides what the account may not use; the server enforces the same rule on every call. */
  async canAccess({ resource, action }: { resource: string; action: string }) {
    const granted = await permissions();
    if (!granted) return true;
    if (resource === 'dashboard') return true;
    return hasPermission(granted, resource, READ_ACTIONS.has(action) ? 'read' : 'write');
  },
};
