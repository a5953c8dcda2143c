import { ADMIN_RESOURCES, hasPermission, isMoneyPermission, type AdminResource } from '@gift/shared';

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
