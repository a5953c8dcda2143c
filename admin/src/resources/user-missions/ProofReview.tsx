import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import {
  Confirm,
  FunctionField,
  useLocaleState,
  ReferenceField,
  useGetList,
  useGetOne,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
  useUpdate,
} from 'react-admin';
import {
  Alert,
  Box,
  Button,
  ButtonBase,
  Card,
  CardContent,
  Link,
  Stack,
  TextField as MuiTextField,
  Typography,
  useTheme,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import OpenInFullIcon from '@mui/icons-material/OpenInFull';
import { toMicros } from '@gift/shared';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import type { MissionRecord, ProgressRecord } from '@gift/server';
import { useConsoleCalls } from '../../dataProvider';
import { failureNotice } from '../failureNotice';
import { useDateLocales } from '../../lists/ConsoleDateField';
import { heldByAnother, useClaimLock, useReviewerId, type ClaimHolder } from './claimLocks';
import { ProofZoomDialog } from './ProofZoom';

/**
 * A proof picture, fetched with the operator's token (an <img> alone cannot send it): a preview low enough for the decision to
 * stay in view, which opens full size (zoomable) when clicked.
 */
function ProofImage({ imageId, zoomed, onZoom }: { imageId: string; zoomed: boolean; onZoom: (open: boolean) => void }) {
  const translate = useTranslate();
  const calls = useConsoleCalls();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    calls
      .proofImage(imageId)
      .then((blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [calls, imageId]);
  if (failed) return <Typography color="error">{translate('reviews.imageMissing')}</Typography>;
  if (!url) return <Typography color="text.secondary">{translate('ra.page.loading')}</Typography>;
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <ButtonBase onClick={() => onZoom(true)} sx={{ borderRadius: 1, cursor: 'zoom-in' }}>
        <Box
          component="img"
          src={url}
          alt={translate('reviews.screenshot')}
          sx={{
            display: 'block',
            maxWidth: '100%',
            maxHeight: 240,
            objectFit: 'contain',
            borderRadius: 1,
            border: 1,
            borderColor: 'divider',
          }}
        />
      </ButtonBase>
      <Button size="small" startIcon={<OpenInFullIcon />} onClick={() => onZoom(true)}>
        {translate('reviews.openFull')}
      </Button>
      <ProofZoomDialog url={url} open={zoomed} onClose={() => onZoom(false)} />
    </Stack>
  );
}

/** The mission's own instructions, which the proof is read against. */
function MissionInstructions() {
  return (
    <ReferenceField<ProgressRecord> source="mission" reference="missions" link={false}>
      <FunctionField<MissionRecord>
        render={(mission) => (
          <Stack spacing={0.5}>
            <Typography variant="subtitle1">{mission.title}</Typography>
            {mission.description && <Typography variant="body2">{mission.description}</Typography>}
            {mission.link && (
              <Link href={mission.link} target="_blank" rel="noopener noreferrer" variant="body2">
                {mission.link}
              </Link>
            )}
          </Stack>
        )}
      />
    </ReferenceField>
  );
}

/** The claim's proof: the link (opened in a new tab, never followed here), the text and the screenshot. */
function ClaimProof({ proof, zoomed, onZoom }: { proof: ProgressRecord['proof']; zoomed: boolean; onZoom: (open: boolean) => void }) {
  const translate = useTranslate();
  if (!proof.link && !proof.text && !proof.imageId) return <Typography color="text.secondary">{translate('reviews.noProof')}</Typography>;
  return (
    <Stack spacing={1}>
      {proof.link && (
        <Link href={proof.link} target="_blank" rel="noopener noreferrer nofollow" sx={{ wordBreak: 'break-all' }} data-testid="proof-link">
          {proof.link}
        </Link>
      )}
      {proof.text && (
        <Typography sx={{ whiteSpace: 'pre-wrap' }} data-testid="proof-text">
          {proof.text}
        </Typography>
      )}
      {proof.imageId && <ProofImage imageId={proof.imageId} zoomed={zoomed} onZoom={onZoom} />}
    </Stack>
  );
}

const typing = (target: EventTarget | null) => target instanceof HTMLElement && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);

/** Whether a reward (a decimal) is above its coin's threshold for a second operator (0: never): such an approval asks first. */
function aboveThreshold(reward: string, threshold: string | undefined): boolean {
  try {
    return !!threshold && toMicros(threshold) > 0n && toMicros(reward) > toMicros(threshold);
  } catch {
    return true;
  }
}

/** A canned reason (App Config's) picked, or '' for the reviewer's own words. */
type CannedReason = { id: string; en: string; fa: string };

/** App Config's canned reasons to reject a claim, each shown in the console's language. */
function useCannedReasons(): CannedReason[] {
  const calls = useConsoleCalls();
  const { data } = useQuery({ queryKey: ['user-missions', 'reject-reasons'], queryFn: () => calls.rejectReasons(), staleTime: 60_000 });
  return data ?? [];
}

/** Another reviewer has this claim open: who, and until when at the latest. */
function HeldByAnother({ holder }: { holder: ClaimHolder }) {
  const translate = useTranslate();
  const locales = useDateLocales();
  const time = holder.until ? new Date(holder.until).toLocaleTimeString(locales, { hour: '2-digit', minute: '2-digit' }) : '';
  return (
    <Alert severity="warning" data-testid="claim-locked">
      <strong>{translate('reviews.lockedBy', { name: holder.name })}</strong>
      {translate('common.separator')}
      {translate('reviews.lockedHelp', { time })}
    </Alert>
  );
}

/**
 * A pending Manual mission's review: its instructions beside the player's proof, and the decision. Keys: A approves, R goes to
 * the reason (Enter there rejects), J or → opens the next claim waiting, K or ← the previous one; none of them while the picture
 * is open full size. After a decision the next waiting claim opens, or the list once none is left. The approve button and its
 * key name the reward they credit, so the keyboard flow stays one key for an everyday claim; a claim whose reward is above its
 * coin's threshold asks first (A, then Enter). One past the reviewer's daily limit is left for a second operator by the server,
 * and says so. Opening the claim holds it for this reviewer (`useClaimLock`): one another reviewer holds says who, and its
 * decision waits; the queue's keys pass over claims others hold. A rejection's reason is one of App Config's (the player reads
 * it in their language) or the reviewer's own words.
 */
export function ProofReview() {
  const record = useRecordContext<ProgressRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const [locale] = useLocaleState();
  const [update, { isPending }] = useUpdate<ProgressRecord>();
  const [reason, setReason] = useState('');
  const [cannedId, setCannedId] = useState('');
  const [reasonError, setReasonError] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [zoomed, setZoomed] = useState(false);
  const canned = useCannedReasons();
  const me = useReviewerId();
  const holder = useClaimLock(record ? String(record.id) : undefined, record?.status === 'pending');
  const { data: coin } = useGetOne<{ id: string; symbol: string; giftApprovalAbove?: string }>(
    'gift-coins',
    { id: record?.coin ?? '' },
    { enabled: !!record?.coin, retry: false },
  );
  const reasonField = useRef<HTMLInputElement>(null);
  const queue = useGetList<ProgressRecord>('user-missions', {
    filter: { status: 'pending' },
    // the same order as the queue's list: the longest waiting first
    sort: { field: 'claimedAt', order: 'ASC' },
    pagination: { page: 1, perPage: 100 },
  });
  // the claims another reviewer has open are theirs: the keys pass over them
  const ids = (queue.data ?? []).filter((r) => String(r.id) === String(record?.id) || !heldByAnother(r, me)).map((r) => String(r.id));
  const here = record ? ids.indexOf(String(record.id)) : -1;
  const next = ids.slice(here + 1).find((id) => id !== String(record?.id)) ?? ids.find((id) => id !== String(record?.id));
  const previous = here > 0 ? ids[here - 1] : undefined;
  const open = (id: string | undefined) => (id ? redirect('edit', 'user-missions', id) : redirect('list', 'user-missions'));
  const blocked = isPending || !!holder;

  const decide = (data: { status: 'done' } | { status: 'rejected'; rejectReason?: string; reasonId?: string }) => {
    if (!record || blocked) return;
    void update(
      'user-missions',
      { id: record.id, data, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: (saved) => {
          setConfirming(false);
          // past the reviewer's daily limit the claim stays pending for a second operator
          if (data.status === 'done' && saved.status === 'pending') notify('brakes.secondApprovalNeeded', { type: 'warning' });
          else notify(data.status === 'done' ? 'reviews.approvedOne' : 'reviews.rejectedOne', { type: 'success' });
          setReason('');
          setCannedId('');
          open(next);
        },
        onError: (error) => notify(...failureNotice(error)),
      },
    );
  };
  const big = !!record && aboveThreshold(record.reward, coin?.giftApprovalAbove);
  const approve = () => (big ? setConfirming(true) : decide({ status: 'done' }));
  const reject = () => {
    if (cannedId) return decide({ status: 'rejected', reasonId: cannedId });
    if (!reason.trim()) {
      setReasonError(true);
      reasonField.current?.focus();
      return;
    }
    decide({ status: 'rejected', rejectReason: reason.trim() });
  };

  // the arrow that points forward: → when read left to right, ← in the right-to-left (Persian) console
  const rtl = useTheme().direction === 'rtl';
  // the key listener is added once and reads the latest handlers
  const keys = useRef({ approve, next, previous, open, rtl, zoomed });
  useEffect(() => {
    keys.current = { approve, next, previous, open, rtl, zoomed };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
      const { approve: approveNow, next: nextId, previous: previousId, open: openId, rtl: backwards, zoomed: looking } = keys.current;
      // the full-size picture has the keyboard (Esc closes it): no decision, no move, behind it
      if (looking) return;
      // the key's place, not its letter: on a Persian layout the A key types ش, and it still approves
      const key = /^Key[A-Z]$/.test(event.code) ? event.code.slice(3).toLowerCase() : event.key.toLowerCase();
      const [forward, back] = backwards ? ['arrowleft', 'arrowright'] : ['arrowright', 'arrowleft'];
      if (key === 'a') approveNow();
      else if (key === 'r') {
        event.preventDefault();
        reasonField.current?.focus();
      } else if ((key === 'j' || key === forward) && nextId) openId(nextId);
      else if ((key === 'k' || key === back) && previousId) openId(previousId);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (!record) return null;
  const onReasonKey = (event: ReactKeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      reject();
    } else if (event.key === 'Escape') (event.target as HTMLElement).blur();
  };
  const inLanguage = (choice: CannedReason) => (locale === 'fa' ? choice.fa : choice.en);
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ p: 2, alignItems: { md: 'flex-start' } }} data-testid="proof-review">
      <Card variant="outlined" sx={{ flex: 1 }}>
        <CardContent>
          <Typography variant="overline">{translate('reviews.instructions')}</Typography>
          <MissionInstructions />
        </CardContent>
      </Card>
      {/* visible overflow: the decision bar stays stuck to the bottom of the window while the proof scrolls */}
      <Card variant="outlined" sx={{ flex: 1, overflow: 'visible', minWidth: 0 }}>
        <CardContent sx={{ pb: 0 }}>
          <Stack spacing={2}>
            <Typography variant="overline">{translate('reviews.proof')}</Typography>
            <ClaimProof proof={record.proof} zoomed={zoomed} onZoom={setZoomed} />
            {holder && <HeldByAnother holder={holder} />}
            {record.firstApprovedBy && (
              <Alert severity="warning" data-testid="second-approval-needed">
                {translate('brakes.secondApprovalNeeded')}
              </Alert>
            )}
            {canned.length > 0 && (
              <MuiTextField
                select
                label={translate('reviews.cannedReason')}
                value={cannedId}
                onChange={(event) => {
                  setCannedId(event.target.value);
                  setReasonError(false);
                }}
                helperText={translate(cannedId ? 'reviews.cannedHelp' : 'reviews.rejectHelp')}
                slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'canned-reason' } }}
                fullWidth
              >
                <option value="">{translate('reviews.ownReason')}</option>
                {canned.map((choice) => (
                  <option key={choice.id} value={choice.id}>
                    {inLanguage(choice)}
                  </option>
                ))}
              </MuiTextField>
            )}
            {!cannedId && (
              <MuiTextField
                inputRef={reasonField}
                label={translate('reviews.rejectReason')}
                value={reason}
                onChange={(event) => {
                  setReason(event.target.value);
                  setReasonError(false);
                }}
                onKeyDown={onReasonKey}
                error={reasonError}
                helperText={translate(reasonError ? 'reviews.reasonNeeded' : 'reviews.rejectHelp')}
                slotProps={{ htmlInput: { maxLength: 300 } }}
                fullWidth
              />
            )}
          </Stack>
        </CardContent>
        <Box
          data-testid="decision-bar"
          sx={{
            position: 'sticky',
            bottom: 0,
            zIndex: 1,
            bgcolor: 'background.paper',
            borderTop: 1,
            borderColor: 'divider',
            px: 2,
            py: 1.5,
          }}
        >
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }} useFlexGap>
            <Button variant="contained" color="success" startIcon={<CheckIcon />} onClick={approve} disabled={blocked}>
              {translate('reviews.approveKey')}
              {translate('common.separator')}+{record.reward} {record.coinSymbol}
            </Button>
            <Confirm
              isOpen={confirming}
              loading={isPending}
              title="brakes.confirmClaimTitle"
              content={translate('brakes.confirmClaim', { amount: record.reward, symbol: record.coinSymbol })}
              confirm="reviews.approve"
              onConfirm={() => decide({ status: 'done' })}
              onClose={() => setConfirming(false)}
            />
            <Button variant="outlined" color="error" startIcon={<CloseIcon />} onClick={reject} disabled={blocked}>
              {translate('reviews.rejectKey')}
            </Button>
            <Button onClick={() => open(next)} disabled={!next}>
              {translate('reviews.nextKey')}
            </Button>
          </Stack>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
            {translate('reviews.keys')}
          </Typography>
        </Box>
      </Card>
    </Stack>
  );
}
