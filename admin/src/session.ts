import type { ConsoleAccount } from '@gift/server';

/** The operator's session in this browser: the token from /api/admin/login and the account it signs in. */
export const ADMIN_TOKEN_KEY = 'adminToken';
const ADMIN_ACCOUNT_KEY = 'adminAccount';

export function adminToken(): string | null {
  return localStorage.getItem(ADMIN_TOKEN_KEY);
}

/** The account saved at sign-in; null when this browser has none saved (or a damaged one). */
export function storedAccount(): ConsoleAccount | null {
  const raw = localStorage.getItem(ADMIN_ACCOUNT_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as ConsoleAccount;
  } catch {
    return null;
  }
}

export function saveSession(token: string, account: ConsoleAccount): void {
  localStorage.setItem(ADMIN_TOKEN_KEY, token);
  localStorage.setItem(ADMIN_ACCOUNT_KEY, JSON.stringify(account));
}

export function clearSession(): void {
  localStorage.removeItem(ADMIN_TOKEN_KEY);
  localStorage.removeItem(ADMIN_ACCOUNT_KEY);
}

/** The JWT's expiry, read without verifying (the server verifies; the console only signs out in time). */
function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const { exp } = JSON.parse(atob(base64)) as { exp?: unknown };
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
  }
}

export function tokenExpired(token: string, now = Date.now()): boolean {
  const exp = tokenExpiry(token);
  return exp !== null && exp * 1000 <= now;
}
