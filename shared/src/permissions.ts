/**
 * An operator's access to a console resource, the one rule both the server (which enforces it)
 * and the console (which hides what an account may not use) apply: '*' is everything, write implies read.
 */
export function hasPermission(permissions: readonly string[], resource: string, access: 'read' | 'write'): boolean {
  if (permissions.includes('*')) return true;
  if (permissions.includes(`${resource}:write`)) return true;
  return access === 'read' && permissions.includes(`${resource}:read`);
}
