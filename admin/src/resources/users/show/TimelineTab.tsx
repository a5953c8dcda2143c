import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Box, Button, Chip, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useBasename, useCanAccess, useLocaleState, useNotify, useRecordContext, useTranslate } from 'react-admin';
import type { TimelineEntry } from '@gift/server';
import { playerNoteInput, TIMELINE_KINDS, type TimelineKind } from '@gift/shared';
import { useConsoleCalls } from '../../../dataProvider';
import { formatWhen, useDateLocales } from '../../../lists/ConsoleDateField';
import { failureNotice } from '../../failureNotice';
import type { TabContentProps } from './PlayerRecords';

/** How many entries a page of the timeline shows. */
const PAGE = 25;

/** The console page of each kind of record an entry opens. */
const PAGES: Record<NonNullable<TimelineEntry['link']>['resource'], (id: string) => string> = {
  'user-missions': (id) => `/user-missions/${id}`,
  withdraws: (id) => `/withdraws/${id}`,
  broadcasts: (id) => `/broadcasts/${id}/show`,
  stakes: (id) => `/stakes/${id}/show`,
  'mining-sessions': (id) => `/mining-sessions/${id}/show`,
  users: (id) => `/users/${id}/show`,
};

/** An amount in the console's language: Persian digits and decimal sign in Persian. */
const amountIn = (amount: string, locale: string) =>
  locale === 'fa' ? amount.replace(/[0-9]/g, (digit) => '۰۱۲۳۴۵۶۷۸۹'[Number(digit)]!).replace('.', '٫') : amount;

/** One line of the timeline: when, what (in the console's words), and the record's page. */
function TimelineLine({ entry }: { entry: TimelineEntry }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const locales = useDateLocales();
  const basename = useBasename();
  // a ledger entry's amount is signed, as the Ledger tab shows it
  const signedAmount = entry.kind === 'ledger' && entry.amount && !entry.amount.startsWith('-') ? `+${entry.amount}` : entry.amount;
  const amount = signedAmount !== undefined ? `${amountIn(signedAmount, locale)} ${entry.symbol ?? ''}`.trim() : '';
  const fields = (entry.fields ?? []).map((field) => translate(`resources.users.fields.${field}`, { _: field })).join('، ');
  // a note reads as its text
  const note = entry.kind === 'note';
  const summary = note
    ? (entry.text ?? '')
    : translate(`timeline.events.${entry.event}`, {
        _: entry.event,
        title: entry.title ?? '',
        amount,
        fields,
        reason: entry.ledgerReason ? translate(`timeline.ledgerReasons.${entry.ledgerReason}`, { _: entry.ledgerReason }) : '',
      });
  const detail = [note ? '' : entry.text, entry.reason, entry.author ? translate('timeline.by', { author: entry.author }) : '']
    .filter(Boolean)
    .join(translate('common.separator'));
  const page = entry.link ? PAGES[entry.link.resource](entry.link.id) : null;
  return (
    <Box
      component="li"
      data-kind={entry.kind}
      sx={{ display: 'flex', gap: 1.5, py: 1, borderBottom: 1, borderColor: 'divider', minWidth: 0, listStyle: 'none' }}
    >
      <Chip size="small" label={translate(`timeline.kinds.${entry.kind}`)} sx={{ flexShrink: 0, mt: 0.25 }} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {page ? <Link to={`${basename}${page}`}>{summary}</Link> : summary}
        </Typography>
        {detail && (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
            {detail}
          </Typography>
        )}
        <Typography variant="caption" color="text.secondary">
          {formatWhen(entry.at, locales)}
        </Typography>
      </Box>
    </Box>
  );
}

/** Where an operator with `users:write` writes an internal note: checked with the server's schema first. */
function NoteForm({ playerId, added }: { playerId: string; added: (entry: TimelineEntry) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const calls = useConsoleCalls();
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const checked = playerNoteInput.safeParse({ text });
    if (!checked.success) {
      const message = checked.error.issues[0]?.message ?? '';
      setError(translate(message, { _: message }));
      return;
    }
    setBusy(true);
    try {
      added(await calls.addPlayerNote(playerId, checked.data));
      setText('');
      notify('timeline.noteAdded', { type: 'info' });
    } catch (failure) {
      notify(...failureNotice(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box
      component="form"
      sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 1, alignItems: { sm: 'flex-start' } }}
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField
        label={translate('timeline.note')}
        helperText={error || translate('timeline.noteHelp')}
        error={!!error}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setError('');
        }}
        name="note"
        multiline
        minRows={1}
        fullWidth
        size="small"
      />
      <Button type="submit" variant="contained" disabled={busy} sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
        {translate('timeline.addNote')}
      </Button>
    </Box>
  );
}

/**
 * The player's timeline (issue 34, item 6): launches, mission progress, ledger entries, withdrawals, status changes,
 * broadcasts received, operators' actions and internal notes, newest first, of every kind or one; "Load more" reads the next
 * page from where the last ended. An operator who may edit players adds notes, which the player never sees.
 */
export function TimelineTab(_props: TabContentProps) {
  const player = useRecordContext<{ id: string }>();
  const translate = useTranslate();
  const notify = useNotify();
  const calls = useConsoleCalls();
  const writes = useCanAccess({ resource: 'users', action: 'edit' }).canAccess ?? false;
  const [kind, setKind] = useState<TimelineKind | 'all'>('all');
  const playerId = player ? String(player.id) : '';
  // the first page of this player and kind; an answer for another (the filter changed meanwhile) is dropped
  const shownFor = `${playerId}:${kind}`;
  const [feed, setFeed] = useState<{ for: string; entries: TimelineEntry[]; next: string | null }>({ for: '', entries: [], next: null });
  const [more, setMore] = useState(false);
  const ask = useCallback(
    (before: string | null) =>
      calls.playerTimeline(playerId, { kind: kind === 'all' ? undefined : kind, before: before ?? undefined, limit: String(PAGE) }),
    [calls, kind, playerId],
  );

  useEffect(() => {
    if (!playerId) return;
    let current = true;
    ask(null).then(
      (page) => current && setFeed({ for: shownFor, entries: page.entries, next: page.next }),
      (failure: unknown) => current && notify(...failureNotice(failure)),
    );
    return () => {
      current = false;
    };
  }, [ask, notify, playerId, shownFor]);

  const loading = feed.for !== shownFor;
  const loadMore = async () => {
    setMore(true);
    try {
      const page = await ask(feed.next);
      setFeed((shown) => (shown.for === shownFor ? { ...shown, entries: [...shown.entries, ...page.entries], next: page.next } : shown));
    } catch (failure) {
      notify(...failureNotice(failure));
    } finally {
      setMore(false);
    }
  };
  const added = (entry: TimelineEntry) => {
    if (kind === 'all' || kind === 'note') setFeed((shown) => ({ ...shown, entries: [entry, ...shown.entries] }));
  };
  const { entries, next } = loading ? { entries: [], next: null } : feed;

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900, minWidth: 0 }}>
      {writes && playerId && <NoteForm playerId={playerId} added={added} />}
      <TextField
        select
        label={translate('timeline.show')}
        value={kind}
        onChange={(event) => setKind(event.target.value as TimelineKind | 'all')}
        size="small"
        sx={{ maxWidth: 260 }}
      >
        <MenuItem value="all">{translate('timeline.all')}</MenuItem>
        {TIMELINE_KINDS.map((choice) => (
          <MenuItem key={choice} value={choice}>
            {translate(`timeline.kinds.${choice}`)}
          </MenuItem>
        ))}
      </TextField>
      <Box component="ol" aria-label={translate('players.tabs.timeline')} sx={{ m: 0, p: 0 }}>
        {entries.map((entry) => (
          <TimelineLine key={entry.id} entry={entry} />
        ))}
      </Box>
      {!loading && !entries.length && <Typography color="text.secondary">{translate('common.noneYet')}</Typography>}
      {next && (
        <Button onClick={() => void loadMore()} disabled={more} sx={{ alignSelf: 'flex-start' }}>
          {translate('timeline.loadMore')}
        </Button>
      )}
    </Stack>
  );
}
