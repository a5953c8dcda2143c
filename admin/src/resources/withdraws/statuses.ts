import { WITHDRAWAL_STATUSES } from '@gift/shared/constants';

const LABELS: Record<(typeof WITHDRAWAL_STATUSES)[number], string> = {
  pending: 'Pending',
  approved: 'Approved',
  sending: 'Sending',
  done: 'Done',
  rejected: 'Rejected',
};

export const WITHDRAWAL_STATUS_CHOICES = WITHDRAWAL_STATUSES.map((id) => ({ id, name: LABELS[id] }));
export const withdrawalStatusLabel = (status: string) => LABELS[status as keyof typeof LABELS] ?? status;
