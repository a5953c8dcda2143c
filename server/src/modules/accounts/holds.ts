import { ADMIN_RESOURCES, hasPermission, isMoneyPermission, type AdminResource } from '@gift/shared';
import type { AdminPrincipal } from '../../http/ports';
import { forbidden } from '../../lib/errors';

/** Whether `holder` has `permission` itself: '*' only through '*', read through read or write. */
export function holds(holder: readonly string[], permission: string): boolean {
  if (holder.includes('*')) return true;
  if (permission === '*') return false;
  const [resource, access] = permission.split(':') as [AdminResource, 'read' | 'write'];
  return ADMIN_RESOURCES.includes(resource) && hasPermission(holder, resource, access);
}

/** Permissions given at once, and the money permissions that wait for a second operator. */
export function splitByMoney(permissions: readonly string[]): { atOnce: string[]; waiting: string[] } {
  return {
    atOnce: permissions.filter((permission) => !isMoneyPermission(permission)),
    waiting: permissions.filter((permission) => isMoneyPermission(permission)),
  };
}

/**
 * Another account is changed, disabled, deleted or given a password only by an operator who holds
 * every permission it has: otherwise a lesser operator could set a stronger one's password and sign in as it.
 */
export function checkMayManage(actor: AdminPrincipal, target: { _id: unknown; permissions: string[] }, action: string) {
  if (actor.id === String(target._id)) return;
  const beyond = target.permissions.filter((p) => !holds(actor.permissions, p));
  if (beyond.length) throw forbidden(`You cannot ${action} an account with access you do not have (${beyond.join(', ')})`);
}
