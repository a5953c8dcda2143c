import { useEffect, useState } from 'react';
import type { BroadcastFailure, BroadcastRecord } from '@gift/server';
import { Box, Button, Card, CardContent, Grid, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import {
  Confirm,
  EditButton,
  Show,
  TopToolbar,
  useLocale,
  useNotify,
  useRecordContext,
  useDataProvider,
  useGetOne,
  useRefresh,
  useTranslate,
  useUpdate,
} from 'react-admin';
import type { BroadcastSegment } from '@gift/shared/schemas/broadcasts';
import { useConsoleCalls } from '../../dataProvider';
import { MessagePreview } from './MessagePreview';
import { Progress, StatusChip } from './BroadcastList';
import { failureNotice } from '../failureNotice';

type Command = 'sending' | 'paused' | 'cancelled';

/** The segment the broadcast was saved with, as the server gave it (the server checks it again when counting). */
function savedSegment(record: BroadcastRecord): object {
  const segment: unknown = record.segment;
  return typeof segment === 'object' && segment !== null ? segment : {};
}

/** Start, pause, resume and cancel: `PUT {status}`, each after a confirmation that says what it does. */
function Controls({ record }: { record: BroadcastRecord }) {
  const translate = useTranslate();
  const notify = useNotify();
  const locale = useLocale();
  const calls = useConsoleCalls();
  const [update, { isPending }] = useUpdate<BroadcastRecord>();
  const [asking, setAsking] = useState<Command | null>(null);
  const [audience, setAudience] = useState<number | null>(null);
  const [testing, setTesting] = useState(false);
  const draft = record.status === 'draft' || record.status === 'scheduled';

  const ask = (command: Command) => {
    setAsking(command);
    if (command === 'sending' && draft) {
      setAudience(null);
      calls
        .countSegment(savedSegment(record))
        .then(({ count }) => setAudience(count))
        .catch(() => setAudience(null));
    }
  };
  const run = () => {
    const status = asking!;
    setAsking(null);
    void update(
      'broadcasts',
      { id: record.id, data: { status }, previousData: record },
      {
        onSuccess: () => notify(`broadcasts.done.${status}`, { type: 'info' }),
        onError: (error) => notify(...failureNotice(error)),
      },
    );
  };
  const test = async () => {
    setTesting(true);
    try {
      const { languages } = await calls.testBroadcast(record.id);
      notify('broadcasts.testSent', {
        type: 'info',
        messageArgs: { languages: languages.map((l) => translate(`languages.${l}`)).join(', ') },
      });
    } catch (error) {
      notify(...failureNotice(error));
    } finally {
      setTesting(false);
    }
  };
  const count = audience === null ? '…' : new Intl.NumberFormat(locale).format(audience);
  const when = record.scheduledAt
    ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(record.scheduledAt))
    : '';
  const confirmText = {
    sending: draft
      ? translate(record.scheduledAt ? 'broadcasts.confirm.schedule' : 'broadcasts.confirm.start', { count, when })
      : translate('broadcasts.confirm.resume', { remaining: record.remaining }),
    paused: translate('broadcasts.confirm.pause'),
    cancelled: translate('broadcasts.confirm.cancel', { remaining: record.remaining }),
  };
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
      {record.status === 'draft' || record.status === 'scheduled' ? (
        <Button variant="outlined" onClick={() => void test()} disabled={testing}>
          {translate('broadcasts.actions.test')}
        </Button>
      ) : null}
      {record.status === 'draft' ? (
        <Button variant="contained" onClick={() => ask('sending')} disabled={isPending}>
          {translate(record.scheduledAt ? 'broadcasts.actions.schedule' : 'broadcasts.actions.start')}
        </Button>
      ) : null}
      {record.status === 'sending' || record.status === 'scheduled' ? (
        <Button variant="outlined" onClick={() => ask('paused')} disabled={isPending}>
          {translate('broadcasts.actions.pause')}
        </Button>
      ) : null}
      {record.status === 'paused' ? (
        <Button variant="contained" onClick={() => ask('sending')} disabled={isPending}>
          {translate('broadcasts.actions.resume')}
        </Button>
      ) : null}
      {['draft', 'scheduled', 'sending', 'paused'].includes(record.status) ? (
        <Button color="error" onClick={() => ask('cancelled')} disabled={isPending}>
          {translate('broadcasts.actions.cancel')}
        </Button>
      ) : null}
      <Confirm
        isOpen={asking !== null}
        title="broadcasts.confirm.title"
        content={asking ? confirmText[asking] : ''}
        onConfirm={run}
        onClose={() => setAsking(null)}
      />
      <ResendUnknown record={record} />
    </Stack>
  );
}

/**
 * A finished broadcast with sends whose outcome is unknown (in flight when a sender stopped): the operator may send
 * them again, after a confirmation that says some of those players may get it twice
 * (`POST /broadcasts/:id/resend-unknown`, which requeues them once however often it is pressed).
 */
function ResendUnknown({ record }: { record: BroadcastRecord }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider();
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);
  const unknown = record.unknown ?? 0;
  if (record.status !== 'done' || !unknown) return null;
  const resend = async () => {
    setAsking(false);
    setPending(true);
    try {
      // a POST on the broadcast's own route: react-admin's create posts to it and answers the record
      const { data } = await dataProvider.create<BroadcastRecord & { requeued: number }>(
        `broadcasts/${encodeURIComponent(record.id)}/resend-unknown`,
        { data: {} },
      );
      notify('broadcasts.done.resent', { type: 'info', messageArgs: { count: data.requeued } });
    } catch (error) {
      notify(...failureNotice(error));
    } finally {
      setPending(false);
      refresh();
    }
  };
  return (
    <>
      <Button variant="outlined" color="warning" onClick={() => setAsking(true)} disabled={pending} data-action="resend-unknown">
        {translate('broadcasts.actions.resendUnknown', { count: unknown })}
      </Button>
      <Confirm
        isOpen={asking}
        title="broadcasts.confirm.title"
        content={translate('broadcasts.confirm.resendUnknown', { count: unknown })}
        onConfirm={() => void resend()}
        onClose={() => setAsking(false)}
      />
    </>
  );
}

/** Sent, failed, blocked, unknown and remaining, and when the rest should be out. */
function Figures({ record }: { record: BroadcastRecord }) {
  const translate = useTranslate();
  const locale = useLocale();
  const number = new Intl.NumberFormat(locale);
  const figure = (key: 'sent' | 'failed' | 'blocked' | 'unknown' | 'remaining') => (
    <Box key={key} data-figure={key}>
      <Typography variant="caption" color="text.secondary">
        {translate(`resources.broadcasts.fields.${key}`)}
      </Typography>
      <Typography variant="h6">{number.format(record[key] ?? 0)}</Typography>
    </Box>
  );
  return (
    <Stack sx={{ gap: 1 }}>
      <Stack direction="row" sx={{ gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <StatusChip record={record} />
        <Progress record={record} />
      </Stack>
      <Stack direction="row" sx={{ gap: 4, flexWrap: 'wrap' }}>
        {(['sent', 'failed', 'blocked', 'unknown', 'remaining'] as const).map(figure)}
      </Stack>
      {record.unknown ? (
        <Typography variant="body2" color="warning.main" data-help="unknown">
          {translate('broadcasts.unknownHelp', { count: record.unknown })}
        </Typography>
      ) : null}
      {record.finishedAt ? (
        <Typography variant="body2">
          {translate(record.status === 'done' ? 'broadcasts.finished' : 'broadcasts.cancelledAt', {
            when: new Intl.DateTimeFormat(locale, { timeStyle: 'short', dateStyle: 'medium' }).format(new Date(record.finishedAt)),
          })}
        </Typography>
      ) : null}
      {record.expectedFinish ? (
        <Typography variant="body2">
          {translate('broadcasts.expectedFinish', {
            when: new Intl.DateTimeFormat(locale, { timeStyle: 'short', dateStyle: 'medium' }).format(new Date(record.expectedFinish)),
            rate: record.rate,
          })}
        </Typography>
      ) : null}
    </Stack>
  );
}

/** Who it goes to, in words: each condition of its segment, or everyone who allows messages. */
function Audience({ record }: { record: BroadcastRecord }) {
  const translate = useTranslate();
  const locale = useLocale();
  const segment = (record.segment ?? {}) as BroadcastSegment;
  const coin = useGetOne('gift-coins', { id: segment.holds?.coin ?? '' }, { enabled: !!segment.holds?.coin });
  const mission = useGetOne('missions', { id: segment.mission?.id ?? '' }, { enabled: !!segment.mission?.id });
  const day = (value: unknown) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(String(value)));
  const parts = [
    segment.language && translate(`languages.${segment.language}`),
    segment.activeWithinDays && translate('broadcasts.segmentLine.active', { days: segment.activeWithinDays }),
    segment.inactiveForDays && translate('broadcasts.segmentLine.inactive', { days: segment.inactiveForDays }),
    segment.holds &&
      translate('broadcasts.segmentLine.holds', {
        amount: segment.holds.atLeast,
        coin: (coin.data as { symbol?: string } | undefined)?.symbol ?? '…',
      }),
    segment.mission &&
      translate(segment.mission.done ? 'broadcasts.segmentLine.did' : 'broadcasts.segmentLine.didNot', {
        mission: (mission.data as { title?: string } | undefined)?.title ?? '…',
      }),
    segment.joinedFrom && translate('broadcasts.segmentLine.joinedFrom', { date: day(segment.joinedFrom) }),
    segment.joinedTo && translate('broadcasts.segmentLine.joinedTo', { date: day(segment.joinedTo) }),
    segment.status && translate(`broadcasts.segment.${segment.status}`),
  ].filter(Boolean);
  return (
    <Typography variant="body2">
      {translate('broadcasts.goesTo', { who: parts.length ? parts.join(translate('common.separator')) : translate('broadcasts.everyone') })}
      {record.scheduledAt
        ? `${translate('common.separator')}${translate('broadcasts.sendAt', { when: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(record.scheduledAt)) })}`
        : ''}
    </Typography>
  );
}

/** The players it did not reach, with Telegram's reason. */
function Failures({ record }: { record: BroadcastRecord }) {
  const translate = useTranslate();
  const calls = useConsoleCalls();
  const [rows, setRows] = useState<BroadcastFailure[]>([]);
  const misses = record.failed + record.blocked + (record.unknown ?? 0);
  useEffect(() => {
    if (!misses) return;
    let current = true;
    calls
      .broadcastFailures(record.id)
      .then((answer) => current && setRows(answer))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [record.id, misses, calls]);
  if (!rows.length) return null;
  return (
    <Box>
      <Typography variant="subtitle1">{translate('broadcasts.failures')}</Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate('broadcasts.telegramId')}</TableCell>
            <TableCell>{translate('resources.broadcasts.fields.status')}</TableCell>
            <TableCell>{translate('broadcasts.reason')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell>{row.telegramId}</TableCell>
              <TableCell>{translate(`broadcasts.recipientStatuses.${row.status}`)}</TableCell>
              <TableCell>{row.outcome}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

function BroadcastPage() {
  const translate = useTranslate();
  const record = useRecordContext<BroadcastRecord>();
  if (!record) return null;
  return (
    <Card>
      <CardContent>
        <Stack sx={{ gap: 3 }}>
          <Figures record={record} />
          <Audience record={record} />
          <Controls record={record} />
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>
              <Typography variant="caption">{translate('languages.en')}</Typography>
              <MessagePreview text={record.text} imageUrl={record.imageUrl} button={record.button?.text} />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <Typography variant="caption">{translate('languages.fa')}</Typography>
              <MessagePreview
                text={record.fa?.text || record.text}
                imageUrl={record.imageUrl}
                button={record.button?.fa?.text || record.button?.text}
                rtl={!!record.fa?.text}
              />
            </Grid>
          </Grid>
          <Failures record={record} />
        </Stack>
      </CardContent>
    </Card>
  );
}

function ShowActions() {
  const record = useRecordContext<BroadcastRecord>();
  return <TopToolbar>{record?.status === 'draft' || record?.status === 'scheduled' ? <EditButton /> : null}</TopToolbar>;
}

/** A broadcast's page: its progress live (read again every two seconds), its controls, its preview and its failures. */
export function BroadcastShow() {
  return (
    <Show actions={<ShowActions />} queryOptions={{ refetchInterval: 2000 }}>
      <BroadcastPage />
    </Show>
  );
}
