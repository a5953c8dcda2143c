import { Alert, AlertTitle } from '@mui/material';
import HourglassIcon from '@mui/icons-material/HourglassTop';
import { useGetOne, useRecordContext, useTranslate } from 'react-admin';
import { formatWhen, useDateLocales } from '../lists/ConsoleDateField';
import { useLocalDigits } from '../lists/localDigits';
import { useConsoleCalls, type Decision } from '../dataProvider';
import { ApproveOrReject, type ApproveOrRejectLabels } from './ApproveOrReject';

/** What waits for a second operator, as the server shows it on a record: the change's id, who asked and when. */
export interface Asked {
  id: string;
  requestedBy: string;
  requestedAt: string;
}

/** One kind of banner: its decision's labels and the message keys of its title, its text and its confirmation. */
export interface WaitingKind {
  labels: ApproveOrRejectLabels;
  title: string;
  /** Takes the subject's values and `when` (who asked, when). */
  text: string;
  confirm: string;
  testId: string;
}

interface WaitingBannerProps {
  kind: WaitingKind;
  waiting: Asked;
  /** What waits in the operator's words (`{ change }`, `{ reward }`), for the text and the confirmation. */
  subject: Record<string, string>;
  decide: (decision: Decision) => Promise<unknown>;
}

/**
 * On a record's page: what waits for a second operator, who asked and when, and the decision, each confirmed first. The operator
 * who asked may withdraw it but not approve it; the server also refuses an approver the asker created or empowered. What waits
 * is written in the console's digits (amounts digit by digit, never through a float) and, in Persian, its punctuation.
 */
export function WaitingBanner({ kind, waiting, subject: written, decide }: WaitingBannerProps) {
  const translate = useTranslate();
  const locales = useDateLocales();
  const digits = useLocalDigits();
  // Persian lists its parts with its own comma and semicolon (، ؛)
  const persian = locales === 'fa-IR';
  const local = (text: string) => (persian ? digits(text).replace(/; /g, '؛ ').replace(/, /g, '، ') : text);
  const subject = Object.fromEntries(Object.entries(written).map(([key, text]) => [key, local(text)]));
  const { data: asker } = useGetOne<{ id: string; username: string }>('accounts', { id: waiting.requestedBy }, { retry: false });
  const when = [asker?.username, formatWhen(waiting.requestedAt, locales)].filter(Boolean).join(persian ? '، ' : ', ');
  return (
    <Alert severity="warning" icon={<HourglassIcon />} sx={{ m: 2, mb: 0 }} data-testid={kind.testId}>
      <AlertTitle>{translate(kind.title)}</AlertTitle>
      {translate(kind.text, { ...subject, when })}
      <ApproveOrReject
        labels={kind.labels}
        onPage
        requestedBy={waiting.requestedBy}
        approveContent={translate(kind.confirm, subject)}
        approve={() => decide({ id: waiting.id })}
        reject={(rejectReason) => decide({ id: waiting.id, rejectReason })}
      />
    </Alert>
  );
}

const CHANGE: WaitingKind = {
  labels: {
    approve: 'brakes.approveChange',
    reject: 'brakes.rejectReward',
    approveTitle: 'brakes.confirmChangeTitle',
    rejectTitle: 'brakes.rejectChangeTitle',
    rejectReason: 'brakes.rejectReason',
    own: 'brakes.ownRequest',
    approved: 'brakes.changeApproved',
    rejected: 'brakes.changeRejected',
  },
  title: 'brakes.changeWaiting',
  text: 'brakes.changeWaitingText',
  confirm: 'brakes.confirmChange',
  testId: 'change-waiting-banner',
};

/** A change that loosens a money brake, as the server shows it on a record: its fields as they would be (amounts as decimals). */
type WithChange = { id: string; waitingChange?: (Asked & { set: Record<string, unknown> }) | null };

interface ChangeWaitingProps {
  /** The resource whose records hold the change: its decision routes. */
  resource: 'gift-coins' | 'staking-coins' | 'league-weeks' | 'star-offers';
  /** The change in the operator's words, from its fields. */
  describe: (set: Record<string, unknown>) => string;
}

/** On a coin's or an offer's page: the change that waits for a second operator (a looser brake, a richer staking offer). */
export function ChangeWaiting({ resource, describe }: ChangeWaitingProps) {
  const record = useRecordContext<WithChange>();
  const calls = useConsoleCalls();
  const waiting = record?.waitingChange;
  if (!record || !waiting) return null;
  return (
    <WaitingBanner
      kind={CHANGE}
      waiting={waiting}
      subject={{ change: describe(waiting.set) }}
      decide={(decision) => calls.decideChange(resource, record.id, decision)}
    />
  );
}
