import { useTranslate } from 'react-admin';
import { ADMIN_RESOURCES, type AdminResource } from '@gift/shared/constants';
import { IMPLIED_READS } from '@gift/shared/permissions';

/** '*' or read / write on one resource (write implies read), each said with the reads it implies; the audit is only ever read. */
export function usePermissionChoices(): Array<{ id: string; name: string }> {
  const translate = useTranslate();
  const resourceName = (resource: AdminResource) => translate(`resources.${resource}.name`, { smart_count: 2 });
  const said = (resource: AdminResource, message: string) => {
    const permission = translate(message, { resource: resourceName(resource) });
    const reads = IMPLIED_READS[resource];
    return reads?.length ? translate('accounts.alsoLooksUp', { permission, resources: reads.map(resourceName).join(', ') }) : permission;
  };
  return [
    { id: '*', name: translate('accounts.everything') },
    ...ADMIN_RESOURCES.flatMap((resource) => [
      { id: `${resource}:read`, name: said(resource, 'accounts.read') },
      ...(resource === 'audit' ? [] : [{ id: `${resource}:write`, name: said(resource, 'accounts.readWrite') }]),
    ]),
  ];
}

/** A permission as an operator reads it ('Missions: read and write'), never the raw id. */
export function usePermissionLabel(): (id: string) => string {
  const translate = useTranslate();
  return (id: string) => {
    if (id === '*') return translate('accounts.everything');
    const [resource, access] = id.split(':');
    if (!ADMIN_RESOURCES.includes(resource as AdminResource) || (access !== 'read' && access !== 'write')) return id;
    const name = translate(`resources.${resource}.name`, { smart_count: 2 });
    return translate(access === 'read' ? 'accounts.read' : 'accounts.readWrite', { resource: name });
  };
}
