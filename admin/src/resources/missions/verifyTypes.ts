import { VERIFY_TYPES } from '@gift/shared/constants';

const LABELS: Record<(typeof VERIFY_TYPES)[number], string> = {
  auto: 'Auto',
  time: 'Time',
  telegram: 'Telegram',
  youtube: 'YouTube',
  instagram: 'Instagram',
  manual: 'Manual',
};

export const VERIFY_TYPE_CHOICES = VERIFY_TYPES.map((id) => ({ id, name: LABELS[id] }));
export const verifyTypeLabel = (type: string) => LABELS[type as keyof typeof LABELS] ?? type;
