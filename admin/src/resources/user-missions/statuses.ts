import { USER_MISSION_STATUSES } from '@gift/shared/constants';

const LABELS: Record<(typeof USER_MISSION_STATUSES)[number], string> = {
  started: 'Started',
  pending: 'Pending review',
  done: 'Done',
  rejected: 'Rejected',
};

export const USER_MISSION_STATUS_CHOICES = USER_MISSION_STATUSES.map((id) => ({ id, name: LABELS[id] }));
export const userMissionStatusLabel = (status: string) => LABELS[status as keyof typeof LABELS] ?? status;
