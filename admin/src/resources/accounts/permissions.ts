import { ADMIN_RESOURCES } from '@gift/shared/constants';

/** '*' or read / write on one resource (write implies read). */
export const PERMISSION_CHOICES = [
  { id: '*', name: 'Everything' },
  ...ADMIN_RESOURCES.flatMap((resource) => [
    { id: `${resource}:read`, name: `${resource}: read` },
    { id: `${resource}:write`, name: `${resource}: read and write` },
  ]),
];
