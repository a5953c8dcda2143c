import { ADMIN_RESOURCES } from '@gift/shared/constants';
import { IMPLIED_READS } from '@gift/shared/permissions';

const LABELS: Record<(typeof ADMIN_RESOURCES)[number], string> = {
  users: 'Users',
  'user-missions': 'User Missions',
  missions: 'Missions',
  categories: 'Categories',
  covers: 'Covers',
  partners: 'Partners',
  'gift-coins': 'Gift Coins',
  'staking-coins': 'Staking Coins',
  withdraws: 'Withdraws',
  accounts: 'Accounts',
  'app-config': 'App Config',
  audit: 'Audit',
};

/** What the reads a permission implies add, said beside it so an operator knows what they grant. */
const implied = (resource: (typeof ADMIN_RESOURCES)[number]) => {
  const reads = IMPLIED_READS[resource];
  return reads?.length ? ` (also looks up ${reads.map((r) => LABELS[r]).join(', ')})` : '';
};

/** '*' or read / write on one resource (write implies read); the audit is only ever read. */
export const PERMISSION_CHOICES = [
  { id: '*', name: 'Everything' },
  ...ADMIN_RESOURCES.flatMap((resource) => [
    { id: `${resource}:read`, name: `${LABELS[resource]}: read${implied(resource)}` },
    ...(resource === 'audit' ? [] : [{ id: `${resource}:write`, name: `${LABELS[resource]}: read and write${implied(resource)}` }]),
  ]),
];

/** A permission as an operator reads it ('Missions: read and write'), never the raw id. */
export function permissionLabel(id: string): string {
  return PERMISSION_CHOICES.find((choice) => choice.id === id)?.name.replace(/ \(also.*\)$/, '') ?? id;
}
