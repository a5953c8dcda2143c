import { useState } from 'react';
import {
  Alert,
  Button as MuiButton,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import { Button, useCanAccess, useNotify, useRefresh, useTranslate } from 'react-admin';
import { clusterCleanUpInput, fromMicros, toMicros } from '@gift/shared';
import type { CleanUpPreview } from '@gift/server';
import { useConsoleCalls } from '../../../dataProvider';
import { useReason } from '../../../forms/ReasonField';
import { useDateLocales } from '../../../lists/ConsoleDateField';
import { failureNotice } from '../../failureNotice';
import { StatusReasonFields } from '../StatusButtons';

type CoinTotal = CleanUpPreview['members']['coins'][number];
type Field = 'amount' | 'now' | 'owed';

/** Amounts per coin in the console's language, each kept left to right inside Persian ("12,340 GIFT + 5 TON"); '' when none. */
function useAmounts() {
  const numbers = new Intl.NumberFormat(useDateLocales(), { maximumFractionDigits: 6 });
  const number = (value: number) => numbers.format(value);
  const amounts = (coins: CoinTotal[], field: Field) =>
    coins
      .filter((coin) => toMicros(coin[field]) > 0n)
      // a decimal string is formatted exactly (Intl reads it as a decimal, not a float)
      .map((coin) => `\u2066${numbers.format(coin[field] as unknown as number)} ${coin.symbol}\u2069`)
      .join(' + ');
  return { number, amounts };
}

/** Both sides' coins summed per coin (what the players and their referrers give back together). */
function together(summary: CleanUpPreview): CoinTotal[] {
  const bySymbol = new Map<string, Record<Field, bigint>>();
  for (const coin of [...summary.members.coins, ...summary.referrers.coins]) {
    const sum = bySymbol.get(coin.symbol) ?? { amount: 0n, now: 0n, owed: 0n };
    for (const field of ['amount', 'now', 'owed'] as const) sum[field] += toMicros(coin[field]);
    bySymbol.set(coin.symbol, sum);
  }
  return [...bySymbol].map(([symbol, sum]) => ({
    symbol,
    amount: fromMicros(sum.amount),
    now: fromMicros(sum.now),
    owed: fromMicros(sum.owed),
  }));
}

/**
 * What a clean-up will do (`done` false: asked before it happens) or did, in words: "Ban 15 players and take back 12,340 GIFT and
 * 1,500 GIFT from 2 referrers.", then what the balances cover now and what stays owed.
 */
function CleanUpSentence({ summary, done }: { summary: CleanUpPreview; done: boolean }) {
  const translate = useTranslate();
  const { number, amounts } = useAmounts();
  const key = done ? 'done' : 'ask';
  let text = translate(`risk.cleanUp.${key}`, {
    smart_count: summary.ban,
    count: number(summary.ban),
    members: amounts(summary.members.coins, 'amount') || translate('risk.cleanUp.nothing'),
  });
  if (summary.referrers.players)
    text += ` ${translate(`risk.cleanUp.${key}Referrers`, {
      smart_count: summary.referrers.players,
      count: number(summary.referrers.players),
      amount: amounts(summary.referrers.coins, 'amount'),
    })}`;
  const all = together(summary);
  const owed = amounts(all, 'owed');
  return (
    <Stack spacing={1}>
      <Typography data-testid="clean-up-sentence">{`${text}.`}</Typography>
      {owed ? (
        <Typography variant="body2" color="text.secondary">
          {translate(done ? 'risk.cleanUp.doneCover' : 'risk.cleanUp.cover', {
            now: amounts(all, 'now') || translate('risk.cleanUp.nothing'),
            owed,
          })}
        </Typography>
      ) : null}
    </Stack>
  );
}

/**
 * Bans a risk cluster (the players a signal links to) and takes back what they earned and what their referrers earned from them,
 * in one confirmed action: the dialog first asks the server what it would do, says it, and asks for the reason the players read;
 * once confirmed it says what was done. Shown to an operator who writes players and gifts (a take-back is a claw-back).
 */
export function ClusterCleanUpButton({ cluster }: { cluster: Record<string, string> }) {
  const translate = useTranslate();
  const calls = useConsoleCalls();
  const notify = useNotify();
  const refresh = useRefresh();
  const players = useCanAccess({ resource: 'users', action: 'edit' }).canAccess ?? false;
  const gifts = useCanAccess({ resource: 'gifts', action: 'create' }).canAccess ?? false;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<CleanUpPreview | null>(null);
  const [result, setResult] = useState<CleanUpPreview | null>(null);
  const reason = useReason();
  const [persian, setPersian] = useState('');
  if (!players || !gifts) return null;

  const look = async () => {
    setPreview(null);
    setResult(null);
    setOpen(true);
    try {
      setPreview(await calls.previewCleanUp({ cluster }));
    } catch (failure) {
      notify(...failureNotice(failure));
      setOpen(false);
    }
  };
  const confirm = async () => {
    const body = reason.check(clusterCleanUpInput, {
      cluster,
      key: preview?.key,
      statusReason: reason.value,
      fa: { statusReason: persian },
    });
    if (!body) return;
    setBusy(true);
    try {
      setResult(await calls.cleanUpCluster(body));
      refresh();
    } catch (failure) {
      notify(...failureNotice(failure));
      // the cluster may have changed since the preview: show what it would do now
      setPreview(await calls.previewCleanUp({ cluster }).catch(() => null));
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setOpen(false);
    reason.change('');
    setPersian('');
  };
  return (
    <>
      <Button
        label="risk.cleanUp.action"
        color="error"
        size="small"
        onClick={(event) => {
          // the row's own click opens nothing
          event.stopPropagation();
          void look();
        }}
      >
        <BlockIcon />
      </Button>
      <Dialog open={open} onClose={busy ? undefined : close} fullWidth maxWidth="sm" aria-labelledby="clean-up-title">
        <DialogTitle id="clean-up-title">{translate('risk.cleanUp.title')}</DialogTitle>
        <DialogContent>
          {result ? (
            <Alert severity="success">
              <CleanUpSentence summary={result} done />
            </Alert>
          ) : preview ? (
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Alert severity="warning">
                <CleanUpSentence summary={preview} done={false} />
              </Alert>
              <Typography variant="body2">{translate('risk.cleanUp.reasonNote')}</Typography>
              <StatusReasonFields reason={reason} persian={persian} setPersian={setPersian} />
            </Stack>
          ) : (
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', py: 2 }}>
              <CircularProgress size={20} />
              <Typography>{translate('risk.cleanUp.counting')}</Typography>
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          {/* MUI's buttons: react-admin's show only their icon on a phone, and these have none */}
          <MuiButton onClick={close} disabled={busy}>
            {translate(result ? 'ra.action.close' : 'ra.action.cancel')}
          </MuiButton>
          {result ? null : (
            <MuiButton variant="contained" color="error" onClick={() => void confirm()} disabled={busy || !preview}>
              {translate('risk.cleanUp.action')}
            </MuiButton>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
