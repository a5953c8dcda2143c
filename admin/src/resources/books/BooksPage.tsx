import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Card, CardContent, Chip, Stack, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { Loading, Title, useTranslate } from 'react-admin';
import type { Books } from '@gift/server';
import { useConsoleCalls } from '../../dataProvider';
import { dayWriter, formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { useAmount, useNumbers } from '../../lists/useAmount';

type CoinBooks = Books['coins'][number];
type HouseRow = CoinBooks['house'][number];

/** What each source created, in the page's order: a source account goes negative by what it created. */
const SOURCES = [
  'rewards:mission',
  'rewards:mining',
  'staking:profit',
  'rewards:referral',
  'rewards:streak',
  'rewards:league',
  'gifts',
] as const;
/** The house accounts that hold what left players, each on its own line after the sources. */
const HOLDERS = [
  ['clawbacks', 'books.takenBack'],
  ['stakes:held', 'books.heldInStakes'],
  ['withdrawals:in-flight', 'books.inFlight'],
  ['paid:chain', 'books.paidOnChain'],
] as const;
const KNOWN = new Set<string>([...SOURCES, ...HOLDERS.map(([account]) => account)]);

/** A decimal string negated: what a source account's (negative) balance says it created. */
const negated = (decimal: string) => (decimal.startsWith('-') ? decimal.slice(1) : decimal === '0' ? '0' : `-${decimal}`);

function Line({ label, amount, indent = false, testId }: { label: ReactNode; amount: ReactNode; indent?: boolean; testId?: string }) {
  return (
    <TableRow data-testid={testId}>
      <TableCell sx={{ pl: indent ? 4 : 2, borderBottomStyle: indent ? 'dashed' : 'solid' }}>{label}</TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        {amount}
      </TableCell>
    </TableRow>
  );
}

/** The trial balance: green when players and house add up to zero, red with the difference when not. */
function TrialBalance({ books }: { books: CoinBooks }) {
  const translate = useTranslate();
  const amount = useAmount();
  const balanced = books.trialBalance === '0';
  return (
    <Chip
      data-testid={`books-trial-${books.coin.symbol}`}
      color={balanced ? 'success' : 'error'}
      label={`${translate('books.trialBalance')}: ${balanced ? translate('books.balanced') : translate('books.off', { difference: amount(books.trialBalance) })}`}
    />
  );
}

/** The hot wallet's holdings beside what is owed, and whether they cover it (or why the holdings are not known). */
function HotWallet({ books }: { books: CoinBooks }) {
  const translate = useTranslate();
  const amount = useAmount();
  const { holdings, owed, solvent, reason } = books.hotWallet;
  return (
    <Box data-testid={`books-hot-wallet-${books.coin.symbol}`} sx={{ mt: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="subtitle1" component="h3">
          {translate('books.hotWallet')}
        </Typography>
        {solvent !== null && (
          <Chip size="small" color={solvent ? 'success' : 'error'} label={translate(solvent ? 'books.solvent' : 'books.short')} />
        )}
      </Stack>
      <Table size="small">
        <TableBody>
          <Line label={translate('books.holdings')} amount={holdings === null ? translate('books.unknown') : amount(holdings)} />
          <Line label={translate('books.owed')} amount={amount(owed)} />
        </TableBody>
      </Table>
      {reason && (
        <Typography variant="body2" color={reason === 'noHotWallet' ? 'text.secondary' : 'warning.main'} sx={{ mt: 1 }}>
          {translate(`books.reasons.${reason}`)}
        </Typography>
      )}
    </Box>
  );
}

/** One coin's books: what players hold, what each source created, where the rest sits, the trial balance and the hot wallet. */
function CoinCard({ books }: { books: CoinBooks }) {
  const translate = useTranslate();
  const amount = useAmount();
  const count = useNumbers();
  const house = new Map(books.house.map((row: HouseRow) => [row.account, row.balance]));
  const others = books.house.filter((row) => !KNOWN.has(row.account));
  return (
    <Card data-testid={`books-coin-${books.coin.symbol}`} sx={{ minWidth: 0 }}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}>
          <Typography variant="h6" component="h2" dir="ltr">
            {books.coin.symbol}
          </Typography>
          <TrialBalance books={books} />
        </Stack>
        <Table size="small" aria-label={books.coin.symbol} sx={{ mt: 1 }}>
          <TableBody>
            <Line
              label={<strong>{translate('books.playersHold')}</strong>}
              amount={<strong>{amount(books.players)}</strong>}
              testId="books-players"
            />
            <Line label={translate('books.created')} amount="" />
            {SOURCES.map((account) => (
              <Line
                key={account}
                indent
                testId={`books-${account}`}
                label={translate(`books.accounts.${account}`)}
                amount={amount(negated(house.get(account) ?? '0'))}
              />
            ))}
            {HOLDERS.map(([account, label]) => (
              <Line key={account} testId={`books-${account}`} label={translate(label)} amount={amount(house.get(account) ?? '0')} />
            ))}
            {others.map((row) => (
              <Line key={row.account} label={translate('books.unknownAccount', { account: row.account })} amount={amount(row.balance)} />
            ))}
          </TableBody>
        </Table>
        {books.inFlight > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('books.operationsInFlight', { smart_count: books.inFlight, count: count.format(books.inFlight) })}
          </Typography>
        )}
        <HotWallet books={books} />
      </CardContent>
    </Card>
  );
}

/** The books (GET /api/admin/books): per coin, the players and the house side by side, in double entry. */
export function BooksPage() {
  const translate = useTranslate();
  const calls = useConsoleCalls();
  const locales = useDateLocales();
  const { data, isPending, isError } = useQuery({ queryKey: ['books'], queryFn: () => calls.getBooks() });
  if (isPending) return <Loading />;
  if (isError) return <Alert severity="error">{translate('books.loadFailed')}</Alert>;
  return (
    <Box sx={{ mt: 2 }}>
      <Title title="books.title" />
      <Typography variant="body2" color="text.secondary">
        {translate('books.intro')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="books-as-of">
        {translate('books.asOf', { when: formatWhen(data.asOf, locales) })}
        {data.rolledUpTo &&
          `${translate('common.separator')}${translate('books.rolledUpTo', {
            day: dayWriter(locales, { dateStyle: 'medium' })(data.rolledUpTo),
          })}`}
      </Typography>
      {!data.coins.length && <Typography>{translate('books.noCoins')}</Typography>}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
        {data.coins.map((coin) => (
          <CoinCard key={coin.coin.id} books={coin} />
        ))}
      </Box>
    </Box>
  );
}
