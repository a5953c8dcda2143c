/** The operator's session in this browser: the token from /api/admin/login and what it says. */
export const ADMIN_TOKEN_KEY = 'adminToken';
const ADMIN_ACCOUNT_KEY = 'adminAccount';

export interface SignedInAccount {
  id: string;
  username: string;
  /** '*' or '<resource>:read' / '<resource>:write'; null when the server did not say. */
  permissions: string[] | null;
}

export function adminToken(): string | null {
  return localStorage.getItem(ADMIN_TOKEN_KEY);
}

export function storedAccount(): SignedInAccount | null {
  const raw = localStorage.getItem(ADMIN_ACCOUNT_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as SignedInAccount;
  } catch {
    return null;
  }
}

export function saveSession(token: string, account: SignedInAccount | null): void {
  localStorage.setItem(ADMIN_TOKEN_KEY, token);
  if (account) localStorage.setItem(ADMIN_ACCOUNT_KEY, JSON.stringify(account));
  else localStorage.removeItem(ADMIN_ACCOUNT_KEY);
}

export function clearSession(): void {
  localStorage.removeItem(ADMIN_TOKEN_KEY);
  localStorage.removeItem(ADMIN_ACCOUNT_KEY);
}

/** The JWT's claims, read without verifying (the server verifies; this only shows a name and an expiry). */
export function tokenClaims(token: string): { sub?: string; username?: string; exp?: number } | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const json = decodeURIComponent(Array.from(atob(base64), (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''));
    return JSON.parse(json) as { sub?: string; username?: string; exp?: number };
  } catch {
    return null;
  }
}

export function tokenExpired(token: string, now = Date.now()): boolean {
  const exp = tokenClaims(token)?.exp;
  return typeof exp === 'number' && exp * 1000 <= now;
}
