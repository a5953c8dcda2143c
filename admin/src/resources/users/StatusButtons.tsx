import { useState, type ReactElement } from 'react';
import { Chip, Stack, TextField as Field } from '@mui/material';
import AcUnitIcon from '@mui/icons-material/AcUnit';
import BlockIcon from '@mui/icons-material/Block';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import {
  Button,
  Confirm,
  useListContext,
  useLocaleState,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  useUnselectAll,
} from 'react-admin';
import { userStatusBulkInput, type PlayerStatus } from '@gift/shared';
import { useConsoleCalls } from '../../dataProvider';
import { ReasonField, useReason } from '../../forms/ReasonField';
import { failureNotice } from '../failureNotice';
import { useDateLocales } from '../../lists/ConsoleDateField';

/** Reasons operators give most, written in both languages the players read. */
const COMMON_REASONS = ['farm', 'sharedWallet', 'fakeFriends', 'automation', 'review'] as const;

function iconOf(status: PlayerStatus): ReactElement {
  if (status === 'frozen') return <AcUnitIcon />;
  return status === 'banned' ? <BlockIcon /> : <PlayArrowIcon />;
}

/**
 * The reason frozen or banned players read, in English and in Persian, with the reasons operators give most as chips that fill
 * both (the status dialog, a cluster's clean-up).
 */
export function StatusReasonFields({
  reason,
  persian,
  setPersian,
}: {
  reason: ReturnType<typeof useReason>;
  persian: string;
  setPersian: (text: string) => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const pick = (key: (typeof COMMON_REASONS)[number]) => {
    reason.change(translate(`players.status.reasons.${key}.en`));
    setPersian(translate(`players.status.reasons.${key}.fa`));
  };
  return (
    <>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {COMMON_REASONS.map((key) => (
          <Chip
            key={key}
            label={translate(`players.status.reasons.${key}.${locale === 'fa' ? 'fa' : 'en'}`)}
            onClick={() => pick(key)}
            size="small"
          />
        ))}
      </Stack>
      <ReasonField reason={reason} label="players.status.reason" help="players.status.playersSee" name="statusReason" />
      <Field
        label={translate('players.status.reasonFa')}
        value={persian}
        onChange={(event) => setPersian(event.target.value)}
        name="fa.statusReason"
        slotProps={{ htmlInput: { dir: 'rtl', lang: 'fa' } }}
        multiline
        fullWidth
      />
    </>
  );
}

/**
 * Sets one status on the players `ids`, asking for the reason the players read (English, and Persian when written), checked with the
 * server's own schema. The dialog asks what will be done ("Ban 15 players?"); the notice afterwards says what was done.
 */
function StatusDialog({ ids, status, onDone }: { ids: string[]; status: PlayerStatus; onDone: () => void }) {
  const translate = useTranslate();
  const locales = useDateLocales();
  const calls = useConsoleCalls();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const reason = useReason();
  const [persian, setPersian] = useState('');
  const submit = async () => {
    const body = { ids, status, ...(status === 'active' ? {} : { statusReason: reason.value, fa: { statusReason: persian } }) };
    if (!reason.check(userStatusBulkInput, body)) return;
    setBusy(true);
    try {
      const { changed } = await calls.setPlayerStatus(body);
      notify('players.status.changed', {
        type: 'info',
        messageArgs: {
          smart_count: changed.length,
          count: new Intl.NumberFormat(locales).format(changed.length),
          status: translate(`players.status.${status}`),
        },
      });
      setOpen(false);
      reason.change('');
      setPersian('');
      onDone();
      refresh();
    } catch (failure) {
      notify(...failureNotice(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button label={`players.status.set.${status}`} color={status === 'active' ? 'primary' : 'error'} onClick={() => setOpen(true)}>
        {iconOf(status)}
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        // what will happen, asked before it happens (the notice afterwards says what was done)
        title={`players.status.ask.${status}`}
        translateOptions={{ smart_count: ids.length, count: new Intl.NumberFormat(locales).format(ids.length) }}
        content={
          status === 'active' ? (
            translate('players.status.activeNote')
          ) : (
            <Stack spacing={2} sx={{ pt: 1 }}>
              <span>{translate(`players.status.note.${status}`)}</span>
              <StatusReasonFields reason={reason} persian={persian} setPersian={setPersian} />
            </Stack>
          )
        }
        confirm={`players.status.set.${status}`}
        confirmColor={status === 'active' ? 'primary' : 'warning'}
        onConfirm={() => void submit()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** The list's bulk actions: freeze, ban or make active every selected player, with one reason. */
export function BulkStatusButtons() {
  const { selectedIds } = useListContext();
  const unselectAll = useUnselectAll('users');
  const ids = selectedIds.map(String);
  return (
    <>
      {(['frozen', 'banned', 'active'] as const).map((status) => (
        <StatusDialog key={status} ids={ids} status={status} onDone={unselectAll} />
      ))}
    </>
  );
}

/** The player's page: the statuses they are not in. */
export function PlayerStatusButtons() {
  const record = useRecordContext<{ id: string; status?: PlayerStatus }>();
  if (!record) return null;
  return (
    <>
      {(['frozen', 'banned', 'active'] as const)
        .filter((status) => status !== (record.status ?? 'active'))
        .map((status) => (
          <StatusDialog key={status} ids={[String(record.id)]} status={status} onDone={() => undefined} />
        ))}
    </>
  );
}

/** A status as a chip: frozen and banned stand out. */
export function StatusChip({ status }: { status?: PlayerStatus }) {
  const translate = useTranslate();
  const current = status ?? 'active';
  return (
    <Chip
      size="small"
      label={translate(`players.status.${current}`)}
      color={current === 'banned' ? 'error' : current === 'frozen' ? 'warning' : 'default'}
      variant={current === 'active' ? 'outlined' : 'filled'}
    />
  );
}
