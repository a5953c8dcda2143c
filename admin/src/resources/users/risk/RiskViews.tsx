import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Chip, IconButton, List as MuiList, ListItem, ListItemText, Stack, Tooltip, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Button, Confirm, FunctionField, Labeled, useBasename, useCanAccess, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useConsoleCalls } from '../../../dataProvider';
import { useConsoleAction } from '../../useConsoleAction';
import { formatWhen, useDateLocales } from '../../../lists/ConsoleDateField';
import { useNumbers } from '../../../lists/useAmount';
import { Link } from 'react-router';
import type { RiskLevel, RiskSignal } from '@gift/shared';
import { ClusterCleanUpButton } from './ClusterCleanUp';

interface SignalRow {
  signal: RiskSignal;
  strength: number;
  points: number;
  evidence: Record<string, string | number>;
  cluster?: Record<string, string> | null;
}
export interface RiskRecord {
  id: string;
  risk?: { score: number; level: RiskLevel; signals: SignalRow[]; assessedAt?: string | null };
  /** An operator's clearance: referral rewards go while the score stays at or below this one. */
  riskCleared?: { score?: number | null; by?: string | null; at?: string | null } | null;
  walletAddresses?: string[];
}

/**
 * Clears the player's risk (an operator who writes players, after reading the signals): their referral rewards, which wait
 * while they are at review or high, are paid, now and until the score rises above the one cleared. Asks first.
 */
function ClearRiskButton({ record }: { record: RiskRecord }) {
  const translate = useTranslate();
  const calls = useConsoleCalls();
  const { busy, run } = useConsoleAction();
  const [asking, setAsking] = useState(false);
  const { canAccess } = useCanAccess({ resource: 'users', action: 'edit' });
  if (!canAccess) return null;
  return (
    <>
      <Button label="risk.clear.action" onClick={() => setAsking(true)} disabled={busy} variant="outlined" />
      <Confirm
        isOpen={asking}
        title="risk.clear.title"
        content={translate('risk.clear.content', { score: record.risk?.score ?? 0 })}
        onConfirm={() => {
          setAsking(false);
          void run(
            () => calls.clearRisk(record.id),
            (answer) => ({ message: 'risk.clear.done', args: { smart_count: answer.released, score: answer.score } }),
          );
        }}
        onClose={() => setAsking(false)}
      />
    </>
  );
}

/** A level as a chip: review and high stand out. */
export function RiskChip({ level, score }: { level?: RiskLevel; score?: number }) {
  const translate = useTranslate();
  const locales = useDateLocales();
  const current = level ?? 'low';
  return (
    <Chip
      size="small"
      label={`${new Intl.NumberFormat(locales).format(score ?? 0)}${translate('common.separator')}${translate(`risk.levels.${current}`)}`}
      color={current === 'high' ? 'error' : current === 'review' ? 'warning' : 'default'}
      variant={current === 'low' ? 'outlined' : 'filled'}
    />
  );
}

/** The player's risk as last assessed (`playerRisk` on a withdrawal or a claim), as a chip; a dash when it did not come. */
export function PlayerRiskField({ label }: { label: string; sortable?: boolean }) {
  return (
    <FunctionField<{ playerRisk?: { score: number; level: RiskLevel } | null }>
      label={label}
      render={(r) => (r.playerRisk ? <RiskChip level={r.playerRisk.level} score={r.playerRisk.score} /> : '—')}
    />
  );
}

/** The console's list of players that shows a signal's cluster (the friends, the network, the wallet's players), newest first. */
function ClusterLink({ cluster }: { cluster: Record<string, string> }) {
  const basename = useBasename();
  const filter = encodeURIComponent(JSON.stringify(cluster));
  return (
    <Button
      component={Link}
      to={`${basename}/users?filter=${filter}&order=DESC&sort=createdAt&perPage=50`}
      label="risk.showCluster"
      size="small"
      // the row's own click opens nothing: only the button moves
      onClick={(event) => event.stopPropagation()}
    />
  );
}

/** A wallet as wallets show it (UQ…), shortened to its ends; the whole address (and its raw form) on hover, and a copy button. */
function WalletAddress({ wallet }: { wallet: { raw: string; address: string } }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { address } = wallet;
  const short = address.length > 16 ? `${address.slice(0, 6)}…${address.slice(-6)}` : address;
  return (
    <Stack direction="row" sx={{ alignItems: 'center' }}>
      <Tooltip title={<span dir="ltr">{`${address} (${wallet.raw})`}</span>}>
        <Typography variant="body2" dir="ltr" data-address={address} sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
          {short}
        </Typography>
      </Tooltip>
      <IconButton
        size="small"
        aria-label={translate('risk.copyAddress')}
        onClick={() => void navigator.clipboard?.writeText(address).then(() => notify('risk.copied', { type: 'info' }))}
      >
        <ContentCopyIcon fontSize="inherit" />
      </IconButton>
    </Stack>
  );
}

/** One signal in words, with its points and the cluster behind it. */
function SignalLine({ signal }: { signal: SignalRow }) {
  const translate = useTranslate();
  const numbers = useNumbers();
  return (
    <ListItem disableGutters sx={{ flexWrap: 'wrap', columnGap: 1 }}>
      <ListItemText
        primary={translate(`risk.signals.${signal.signal}`, signal.evidence)}
        secondary={translate('risk.points', {
          points: numbers.format(signal.points),
          strength: numbers.format(Math.round(signal.strength * 100)),
        })}
      />
      {signal.cluster ? (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <ClusterLink cluster={signal.cluster} />
          <ClusterCleanUpButton cluster={signal.cluster} />
        </Stack>
      ) : null}
    </ListItem>
  );
}

/** Why the player scores what they score, in words, and what an operator does at that level; then their wallets, current and past. */
export function RiskTab(_props: { label?: false }) {
  const record = useRecordContext<RiskRecord>();
  const translate = useTranslate();
  const locales = useDateLocales();
  const calls = useConsoleCalls();
  // the wallets in the form wallets show them (UQ…), the raw form kept for the cluster's filter
  const { data } = useQuery({
    queryKey: ['risk', record?.id, 'wallets', record?.walletAddresses],
    queryFn: () => calls.playerWallets(String(record!.id)),
    enabled: !!record,
  });
  if (!record) return null;
  const wallets = data?.wallets ?? [];
  const risk = record.risk ?? { score: 0, level: 'low' as const, signals: [] };
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h6">{translate('risk.score', { score: new Intl.NumberFormat(locales).format(risk.score) })}</Typography>
        <RiskChip level={risk.level} score={risk.score} />
        <Typography variant="body2" color="text.secondary">
          {risk.assessedAt ? translate('risk.assessedAt', { at: formatWhen(risk.assessedAt, locales) }) : translate('risk.notAssessed')}
        </Typography>
      </Stack>
      <Alert severity={risk.level === 'high' ? 'error' : risk.level === 'review' ? 'warning' : 'success'}>
        {translate(`risk.advice.${risk.level}`)}
      </Alert>
      {typeof record.riskCleared?.score === 'number' && record.riskCleared.at ? (
        <Typography variant="body2">
          {translate('risk.clear.cleared', { score: record.riskCleared.score, at: formatWhen(record.riskCleared.at, locales) })}
        </Typography>
      ) : null}
      {risk.level !== 'low' ? (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Typography variant="body2">{translate('risk.clear.note')}</Typography>
          <ClearRiskButton record={record} />
        </Stack>
      ) : null}
      {risk.signals.length ? (
        <MuiList dense aria-label={translate('risk.signalsTitle')}>
          {risk.signals.map((signal) => (
            <SignalLine key={signal.signal} signal={signal} />
          ))}
        </MuiList>
      ) : (
        <Typography>{translate('risk.noSignals')}</Typography>
      )}
      <Labeled label="risk.wallets">
        <Stack spacing={0.5}>
          {wallets.length ? (
            wallets.map((wallet) => (
              <Stack key={wallet.raw} direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <WalletAddress wallet={wallet} />
                <ClusterLink cluster={{ walletAddresses: wallet.raw }} />
                <ClusterCleanUpButton cluster={{ walletAddresses: wallet.raw }} />
              </Stack>
            ))
          ) : data ? (
            <Typography variant="body2">—</Typography>
          ) : null}
        </Stack>
      </Labeled>
    </Stack>
  );
}
