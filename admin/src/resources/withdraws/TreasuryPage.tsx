import { Alert, Box, Card, CardContent, FormControlLabel, Switch, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Loading, Title, useGetOne, useNotify, useUpdate } from 'react-admin';
import type { Treasury } from '@gift/server';

const wrap = { wordBreak: 'break-all' } as const;

function CoinRows({ treasury }: { treasury: Treasury }) {
  const owed = (coin: string, status: string) => treasury.owed.find((row) => row.coin === coin && row.status === status);
  return (
    <Table size="small" aria-label="Coins">
      <TableHead>
        <TableRow>
          <TableCell>Coin</TableCell>
          <TableCell align="right">Hot wallet</TableCell>
          <TableCell align="right">Pending</TableCell>
          <TableCell align="right">Approved</TableCell>
          <TableCell align="right">Sending</TableCell>
          <TableCell align="right">Paid today / cap</TableCell>
          <TableCell align="right">Two approvals above</TableCell>
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
              {coin.paidToday} / {coin.dailyCap === '0' ? 'no cap' : coin.dailyCap}
            </TableCell>
            <TableCell align="right">{coin.secondApprovalAbove === '0' ? 'never' : coin.secondApprovalAbove}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Batches({ treasury }: { treasury: Treasury }) {
  if (!treasury.batches.length) return <Typography color="text.secondary">No batch in flight.</Typography>;
  return (
    <Table size="small" aria-label="Batches in flight">
      <TableHead>
        <TableRow>
          <TableCell>Seqno</TableCell>
          <TableCell>State</TableCell>
          <TableCell align="right">Payouts</TableCell>
          <TableCell align="right">Sends</TableCell>
          <TableCell>Valid until</TableCell>
          <TableCell>Transaction</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {treasury.batches.map((batch) => (
          <TableRow key={batch.id} data-testid="treasury-batch">
            <TableCell>{batch.seqno}</TableCell>
            <TableCell>{batch.state}</TableCell>
            <TableCell align="right">{batch.count}</TableCell>
            <TableCell align="right">{batch.sends}</TableCell>
            <TableCell>{new Date(batch.validUntil * 1000).toLocaleString()}</TableCell>
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
  const { data, isPending, error, refetch } = useGetOne<Treasury & { id: string }>('treasury', { id: 'treasury' }, { refetchInterval: 5_000 });
  const [update, { isPending: saving }] = useUpdate<Treasury & { id: string }>();
  if (isPending) return <Loading />;
  if (error || !data) return <Alert severity="error">The treasury could not be loaded.</Alert>;
  const togglePause = (paused: boolean) =>
    void update(
      'treasury',
      { id: 'treasury', data: { paused }, previousData: data },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(paused ? 'Payouts paused' : 'Payouts resumed', { type: 'info' });
          void refetch();
        },
        onError: (failure) => notify(failure instanceof Error ? failure.message : 'Save failed', { type: 'error' }),
      },
    );
  return (
    <Box sx={{ mt: 2 }}>
      <Title title="Treasury" />
      <Card>
        <CardContent>
          <Typography variant="h6">Hot wallet</Typography>
          {data.hotWallet ? (
            <Typography sx={wrap} data-testid="treasury-hot-wallet">
              {data.hotWallet} ({data.network})
            </Typography>
          ) : (
            <Typography color="text.secondary">No hot wallet: withdrawals are paid by hand, and their hashes are checked on chain.</Typography>
          )}
          {data.stopped && (
            <Alert severity="warning" sx={{ mt: 1 }} data-testid="treasury-stopped">
              {data.stopped}
            </Alert>
          )}
          <FormControlLabel
            sx={{ mt: 1 }}
            control={<Switch checked={data.paused} disabled={saving || !data.hotWallet} onChange={(event) => togglePause(event.target.checked)} />}
            label={data.paused ? 'Payouts paused' : 'Payouts running'}
          />
        </CardContent>
      </Card>
      <Card sx={{ mt: 2 }}>
        <CardContent sx={{ overflowX: 'auto' }}>
          <Typography variant="h6">Coins</Typography>
          <CoinRows treasury={data} />
        </CardContent>
      </Card>
      <Card sx={{ mt: 2 }}>
        <CardContent sx={{ overflowX: 'auto' }}>
          <Typography variant="h6">Batches in flight</Typography>
          <Batches treasury={data} />
        </CardContent>
      </Card>
    </Box>
  );
}
