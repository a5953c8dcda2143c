import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  FormControlLabel,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { typedAmount } from '@gift/shared/numerals';
import { Loading, Title, useGetOne, useNotify, useTranslate, useUpdate } from 'react-admin';
import { formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import type { Treasury } from '@gift/server';
import { failureNotice } from '../failureNotice';

const wrap = { wordBreak: 'break-all' } as const;
/** A card holding a wide table: the table scrolls inside it, and its width never widens the page (a phone is 390 px). */
const tableCard = { overflowX: 'auto', contain: 'inline-size' } as const;

/** When the balances were read: the last known ones, said so, while the chain is slow. */
function BalancesAsOf({ treasury }: { treasury: Treasury }) {
  const translate = useTranslate();
  const locales = useDateLocales();
  if (!treasury.balancesAsOf)
    return (
      <Typography color="text.secondary" variant="body2" data-testid="treasury-balances-as-of">
        {translate('treasury.balancesUnknown')}
      </Typography>
    );
  const when = formatWhen(treasury.balancesAsOf, locales);
  return (
    <Typography color={treasury.balancesFresh ? 'text.secondary' : 'warning.main'} variant="body2" data-testid="treasury-balances-as-of">
      {translate(treasury.balancesFresh ? 'treasury.balancesAsOf' : 'treasury.balancesStale', { when })}
    </Typography>
  );
}

/** A decimal (an amount, or a balance read from the chain with up to 18 decimals) as an integer of 10⁻¹⁸ units, exactly. */
function exact(decimal: string): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(whole) * 10n ** 18n + BigInt(fraction.slice(0, 18).padEnd(18, '0'));
}

/** What the withdrawals waiting, approved and being sent of one coin add up to (10⁻¹⁸ units). */
function owedOf(treasury: Treasury, coin: string): bigint {
  return treasury.owed.filter((row) => row.coin === coin).reduce((sum, row) => sum + exact(row.total), 0n);
}

/** A warning for each coin whose withdrawals waiting, approved or being sent exceed what the hot wallet holds of it. */
function Shortfalls({ treasury }: { treasury: Treasury }) {
  const translate = useTranslate();
  const short = treasury.coins.filter((coin) => coin.balance != null && owedOf(treasury, coin.coin) > exact(coin.balance));
  return (
    <>
      {short.map((coin) => {
        return (
          <Alert key={coin.coin} severity="error" sx={{ mt: 1 }} data-testid={`treasury-shortfall-${coin.symbol}`}>
            {translate('treasury.shortfall', {
              symbol: coin.symbol,
              owed: formatExact(owedOf(treasury, coin.coin)),
              balance: coin.balance,
            })}
          </Alert>
        );
      })}
    </>
  );
}

/** A warning for each coin the hot wallet holds less of than the threshold an operator set for it. */
function LowBalances({ treasury }: { treasury: Treasury }) {
  const translate = useTranslate();
  const low = treasury.coins.filter(
    (coin) => coin.balance != null && exact(coin.warnBelow) > 0n && exact(coin.balance) < exact(coin.warnBelow),
  );
  return (
    <>
      {low.map((coin) => (
        <Alert key={coin.coin} severity="warning" sx={{ mt: 1 }} data-testid={`treasury-low-${coin.symbol}`}>
          {translate('treasury.low', { symbol: coin.symbol, balance: coin.balance, threshold: coin.warnBelow })}
        </Alert>
      ))}
    </>
  );
}

/** One coin's threshold: the hot wallet is low below it (PUT /api/admin/treasury/threshold, audited). */
function ThresholdForm({ coin, onSaved }: { coin: Treasury['coins'][number]; onSaved: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [value, setValue] = useState(coin.warnBelow);
  const [update, { isPending }] = useUpdate();
  const save = (event: FormEvent) => {
    event.preventDefault();
    void update(
      'treasury',
      { id: 'threshold', data: { coin: coin.coin, below: typedAmount(value) }, previousData: { id: 'threshold' } },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('treasury.thresholdSaved', { type: 'info' });
          onSaved();
        },
        onError: (failure) => notify(...failureNotice(failure)),
      },
    );
  };
  return (
    <Box component="form" onSubmit={save} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <TextField
        size="small"
        label={translate('treasury.warnBelow', { symbol: coin.symbol })}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', 'data-testid': `treasury-threshold-${coin.symbol}` } }}
      />
      <Button type="submit" variant="outlined" disabled={isPending || !value.trim()}>
        {translate('treasury.saveThreshold')}
      </Button>
    </Box>
  );
}

/** 10⁻¹⁸ units as the decimal the console shows (no trailing zeros). */
function formatExact(units: bigint): string {
  const scale = 10n ** 18n;
  const fraction = (units % scale).toString().padStart(18, '0').replace(/0+$/, '');
  return fraction ? `${units / scale}.${fraction}` : String(units / scale);
}

function CoinRows({ treasury }: { treasury: Treasury }) {
  const translate = useTranslate();
  const owed = (coin: string, status: string) => treasury.owed.find((row) => row.coin === coin && row.status === status);
  return (
    <Table size="small" aria-label={translate('treasury.coins')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('treasury.columns.coin')}</TableCell>
          <TableCell align="right">{translate('treasury.columns.hotWallet')}</TableCell>
          <TableCell align="right">{translate('treasury.columns.pending')}</TableCell>
          <TableCell align="right">{translate('treasury.columns.approved')}</TableCell>
          <TableCell align="right">{translate('treasury.columns.sending')}</TableCell>
          <TableCell align="right">{translate('treasury.columns.paidToday')}</TableCell>
          <TableCell align="right">{translate('treasury.columns.twoApprovals')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {treasury.coins.map((coin) => (
          <TableRow key={coin.coin} data-testid={`treasury-coin-${coin.symbol}`}>
            <TableCell>{coin.symbol}</TableCell>
            <TableCell align="right">{coin.balance ?? '—'}</TableCell>
            {(['pending', 'approved', 'sending'] as const).map((status) => {
              const row = owed(coin.coin, status);
              return (
                <TableCell key={status} align="right">
                  {row ? `${row.total} (${row.count})` : '0'}
                </TableCell>
              );
            })}
            <TableCell align="right">
              {coin.paidToday} / {coin.dailyCap === '0' ? translate('treasury.noCap') : coin.dailyCap}
            </TableCell>
            <TableCell align="right">{coin.secondApprovalAbove === '0' ? translate('treasury.never') : coin.secondApprovalAbove}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Batches({ treasury }: { treasury: Treasury }) {
  const translate = useTranslate();
  const locales = useDateLocales();
  if (!treasury.batches.length) return <Typography color="text.secondary">{translate('treasury.noBatches')}</Typography>;
  return (
    <Table size="small" aria-label={translate('treasury.batches')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('treasury.columns.seqno')}</TableCell>
          <TableCell>{translate('treasury.columns.state')}</TableCell>
          <TableCell align="right">{translate('treasury.columns.payouts')}</TableCell>
          <TableCell align="right">{translate('treasury.columns.sends')}</TableCell>
          <TableCell>{translate('treasury.columns.validUntil')}</TableCell>
          <TableCell>{translate('treasury.columns.transaction')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {treasury.batches.map((batch) => (
          <TableRow key={batch.id} data-testid="treasury-batch">
            <TableCell>{batch.seqno}</TableCell>
            <TableCell>{batch.state}</TableCell>
            <TableCell align="right">{batch.count}</TableCell>
            <TableCell align="right">{batch.sends}</TableCell>
            <TableCell>{formatWhen(batch.validUntil * 1000, locales)}</TableCell>
            <TableCell sx={wrap}>{batch.txHash || '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The treasury: the hot wallet and what it owes, the batches in flight, and the pause switch (GET and PUT /api/admin/treasury). */
export function TreasuryPage() {
  const notify = useNotify();
  const translate = useTranslate();
  const { data, isPending, error, refetch } = useGetOne<Treasury & { id: string }>(
    'treasury',
    { id: 'treasury' },
    { refetchInterval: 5_000 },
  );
  const [update, { isPending: saving }] = useUpdate<Treasury & { id: string }>();
  if (isPending) return <Loading />;
  if (error || !data) return <Alert severity="error">{translate('treasury.loadFailed')}</Alert>;
  const togglePause = (paused: boolean) =>
    void update(
      'treasury',
      { id: 'treasury', data: { paused }, previousData: data },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(paused ? 'treasury.paused' : 'treasury.resumed', { type: 'info' });
          void refetch();
        },
        onError: (failure) => notify(...failureNotice(failure)),
      },
    );
  return (
    <Box sx={{ mt: 2 }}>
      <Title title="treasury.title" />
      <Card>
        <CardContent>
          <Typography variant="h6">{translate('treasury.hotWallet')}</Typography>
          {data.hotWallet ? (
            <Typography sx={wrap} data-testid="treasury-hot-wallet">
              {data.hotWallet} ({data.network})
            </Typography>
          ) : (
            <Typography color="text.secondary">{translate('treasury.noHotWallet')}</Typography>
          )}
          {data.stopped && (
            <Alert severity="warning" sx={{ mt: 1 }} data-testid="treasury-stopped">
              {data.stopped}
            </Alert>
          )}
          {/* on: the hot wallet pays; off: paused, approved withdrawals wait */}
          <FormControlLabel
            sx={{ mt: 1 }}
            control={
              <Switch
                checked={!data.paused && !!data.hotWallet}
                disabled={saving || !data.hotWallet}
                onChange={(event) => togglePause(!event.target.checked)}
              />
            }
            label={translate(
              !data.hotWallet
                ? 'treasury.noAutomated'
                : data.paused
                  ? 'treasury.paused'
                  : data.stopped
                    ? 'treasury.stoppedSwitch'
                    : 'treasury.running',
            )}
          />
        </CardContent>
      </Card>
      <Card sx={{ mt: 2 }}>
        <CardContent sx={tableCard}>
          <Typography variant="h6">{translate('treasury.coins')}</Typography>
          {data.hotWallet && <BalancesAsOf treasury={data} />}
          {data.hotWallet && <Shortfalls treasury={data} />}
          {data.hotWallet && <LowBalances treasury={data} />}
          <CoinRows treasury={data} />
        </CardContent>
      </Card>
      <Card sx={{ mt: 2 }}>
        <CardContent>
          <Typography variant="h6">{translate('treasury.thresholds')}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('treasury.thresholdsHelp')}
          </Typography>
          <Stack spacing={2}>
            {data.coins.map((coin) => (
              <ThresholdForm key={`${coin.coin}:${coin.warnBelow}`} coin={coin} onSaved={() => void refetch()} />
            ))}
          </Stack>
        </CardContent>
      </Card>
      <Card sx={{ mt: 2 }}>
        <CardContent sx={tableCard}>
          <Typography variant="h6">{translate('treasury.batches')}</Typography>
          <Batches treasury={data} />
        </CardContent>
      </Card>
    </Box>
  );
}
