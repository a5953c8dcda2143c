import type { AdminResource } from './constants';

/**
 * Reads an account gets with a resource, so its screens and forms can show and choose what they refer to
 * (a mission names its category and coin; a review names its player and mission). They open the lists and
 * records of those resources, never their writes, their menus or their sub-pages (a player's ledger).
 */
export const IMPLIED_READS: Readonly<Partial<Record<AdminResource, readonly AdminResource[]>>> = {
  users: ['gift-coins'],
  'user-missions': ['users', 'missions', 'categories', 'gift-coins'],
  missions: ['categories', 'gift-coins'],
  'staking-coins': ['gift-coins'],
  withdraws: ['users', 'gift-coins'],
  'app-config': ['gift-coins'],
  audit: ['accounts'],
  gifts: ['users', 'gift-coins', 'accounts'],
  appeals: ['users'],
};

/**
 * An operator's access to a console resource, the one rule both the server (which enforces it)
 * and the console (which hides what an account may not use) apply: '*' is everything, write implies read.
 * 'lookup' is a read or one implied by another permission (IMPLIED_READS).
 */
export function hasPermission(permissions: readonly string[], resource: string, access: 'read' | 'write' | 'lookup'): boolean {
  if (permissions.includes('*')) return true;
  if (permissions.includes(`${resource}:write`)) return true;
  if (access === 'write') return false;
  if (permissions.includes(`${resource}:read`)) return true;
  if (access === 'read') return false;
  return Object.entries(IMPLIED_READS).some(
    ([holder, reads]) =>
      reads.includes(resource as AdminResource) && (permissions.includes(`${holder}:read`) || permissions.includes(`${holder}:write`)),
  );
}
