import { Alert, AlertTitle } from '@mui/material';
import HourglassIcon from '@mui/icons-material/HourglassTop';
import { useGetIdentity, useGetOne, useRecordContext, useTranslate } from 'react-admin';
import { formatWhen, useDateLocales } from '../lists/ConsoleDateField';
import { useConsoleCalls } from '../dataProvider';
import { ApproveOrReject, type ApproveOrRejectLabels } from './ApproveOrReject';

/** A change that loosens a money brake, as the server shows it on a record: its fields as they would be (amounts as decimals). */
interface WaitingChange {
  id: string;
  requestedBy: string;
  requestedAt: string;
  set: Record<string, unknown>;
}
type WithChange = { id: string; waitingChange?: WaitingChange | null };

const CHANGE_DECISION: ApproveOrRejectLabels = {
  approve: 'brakes.approveChange',
  reject: 'brakes.rejectReward',
  approveTitle: 'brakes.confirmChangeTitle',
  rejectTitle: 'brakes.rejectChangeTitle',
  rejectReason: 'brakes.rejectReason',
  own: 'brakes.ownRequest',
};

interface ChangeWaitingProps {
  /** The resource whose records hold the change (`gift-coins`, `staking-coins`): its decision routes. */
  resource: string;
  /** The change in the operator's words, from its fields. */
  describe: (set: Record<string, unknown>) => string;
}

/**
 * On a record's page: the change that waits for a second operator (a looser brake, a richer staking offer), who asked and
 * when, and the decision, each confirmed first. The operator who asked may withdraw it but not approve it (the server refuses too).
 */
export function ChangeWaiting({ resource, describe }: ChangeWaitingProps) {
  const record = useRecordContext<WithChange>();
  const { identity } = useGetIdentity();
  const calls = useConsoleCalls();
  const translate = useTranslate();
  const locales = useDateLocales();
  const waiting = record?.waitingChange ?? null;
  const { data: asker } = useGetOne<{ id: string; username: string }>(
    'accounts',
    { id: waiting?.requestedBy ?? '' },
    { enabled: !!waiting, retry: false },
  );
  if (!record || !waiting) return null;
  const change = describe(waiting.set);
  const decide = (decision: 'approve' | 'reject', rejectReason?: string) =>
    calls.decideReward(`${resource}/${encodeURIComponent(record.id)}/change/${decision}`, {
      id: waiting.id,
      ...(decision === 'reject' ? { rejectReason } : {}),
    });
  return (
    <Alert severity="warning" icon={<HourglassIcon />} sx={{ m: 2, mb: 0 }} data-testid="change-waiting-banner">
      <AlertTitle>{translate('brakes.changeWaiting')}</AlertTitle>
      {translate('brakes.changeWaitingText', {
        change,
        when: [asker?.username, formatWhen(waiting.requestedAt, locales)].filter(Boolean).join(', '),
      })}
      <ApproveOrReject
        labels={CHANGE_DECISION}
        onPage
        own={identity?.id !== undefined && String(identity.id) === waiting.requestedBy}
        approveContent={translate('brakes.confirmChange', { change })}
        approve={() => decide('approve')}
        approved="brakes.changeApproved"
        reject={(reason) => decide('reject', reason)}
        rejected="brakes.changeRejected"
      />
    </Alert>
  );
}
