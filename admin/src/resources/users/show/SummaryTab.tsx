import type { ReactElement } from 'react';
import type { CoinFigures } from '@gift/server';
import {
  ArrayField,
  BooleanField,
  Datagrid,
  FunctionField,
  Labeled,
  NumberField,
  ReferenceField,
  SimpleList,
  TextField,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { ConsoleDateField, formatWhen, useDateLocales } from '../../../lists/ConsoleDateField';
import type { PlayerStatus } from '@gift/shared';
import { StatusChip } from '../StatusButtons';
import { Box, Stack } from '@mui/material';
import { useIsSmall } from '../../../layout/useIsSmall';
import { useLocalDigits } from '../../../lists/localDigits';
import type { TabContentProps } from './PlayerRecords';

const FIGURES = ['balance', 'rewards', 'earned', 'withdrawn', 'pendingWithdrawals', 'gifts'] as const;

/** Figures per coin: a table on a wide screen, one line per coin on a phone, with the console language's digits. */
function CoinFiguresField() {
  const isSmall = useIsSmall();
  const translate = useTranslate();
  const digits = useLocalDigits();
  return (
    <Labeled label="players.figures" fullWidth>
      <ArrayField source="coins">
        {isSmall ? (
          <SimpleList<CoinFigures>
            primaryText={(r) => `${digits(r.balance)} ${r.symbol}`}
            secondaryText={(r) => translate('players.rewardsLine', { rewards: digits(r.rewards), earned: digits(r.earned) })}
            tertiaryText={(r) =>
              translate('players.withdrawnLine', {
                withdrawn: digits(r.withdrawn),
                pending: digits(r.pendingWithdrawals),
                gifts: digits(r.gifts),
              })
            }
            linkType={false}
          />
        ) : (
          // a table wider than the page scrolls in its place (width 0, at least the page's): the page never does
          <Box sx={{ overflowX: 'auto', width: 0, minWidth: '100%' }}>
            <Datagrid bulkActionButtons={false} rowClick={false} empty={<span>—</span>}>
              <TextField source="symbol" label="resources.gift-coins.fields.symbol" />
              {FIGURES.map((figure) => (
                <FunctionField<CoinFigures> key={figure} source={figure} textAlign="right" render={(r) => digits(r[figure])} />
              ))}
            </Datagrid>
          </Box>
        )}
      </ArrayField>
    </Labeled>
  );
}

/** The player's status and, when frozen or banned, the reason they read in each language. */
function StatusSummary() {
  const record = useRecordContext<{
    status?: PlayerStatus;
    statusReason?: string;
    fa?: { statusReason?: string };
    statusChangedAt?: string;
  }>();
  const translate = useTranslate();
  const locales = useDateLocales();
  if (!record) return null;
  return (
    <Labeled label="resources.users.fields.status">
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <StatusChip status={record.status} />
        {record.statusReason && <span>{record.statusReason}</span>}
        {record.fa?.statusReason && (
          <span dir="rtl" lang="fa">
            {record.fa.statusReason}
          </span>
        )}
        {record.status !== 'active' && record.statusChangedAt && (
          <span>{translate('players.status.since', { at: formatWhen(record.statusChangedAt, locales) })}</span>
        )}
      </Stack>
    </Labeled>
  );
}

/** Claw-backs the player's balance has not yet covered: they block withdrawals. */
function OwedSummary() {
  const record = useRecordContext<{ owed?: Array<{ id: string; owed: string; symbol: string; reason: string }> }>();
  const translate = useTranslate();
  if (!record?.owed?.length) return null;
  return (
    <Labeled label="clawBack.owedTitle">
      <Stack spacing={0.5}>
        {record.owed.map((debt) => (
          <span key={debt.id}>{translate('clawBack.owedLine', { owed: debt.owed, symbol: debt.symbol, reason: debt.reason })}</span>
        ))}
      </Stack>
    </Labeled>
  );
}

/** Who the player is (before their figures per coin), then their counters and dates, each under its field's label. */
const IDENTITY = [
  <TextField source="name" />,
  <TextField source="username" emptyText="—" />,
  <NumberField source="telegramId" options={{ useGrouping: false }} />,
];
const COUNTERS = [
  <ReferenceField source="referrer" reference="users" emptyText="—" link="show" />,
  <NumberField source="referrersCount" />,
  <NumberField source="inviteLimit" />,
  <NumberField source="missionsCount" />,
  <NumberField source="doneMissionsCount" />,
  <TextField source="language" />,
  <BooleanField source="messagePermission" />,
  <BooleanField source="isPremium" />,
  <TextField source="referralCode" />,
  <ConsoleDateField source="lastSeenAt" showTime />,
  <ConsoleDateField source="createdAt" showTime />,
];
const labelled = (fields: ReactElement[]) => fields.map((field, index) => <Labeled key={index}>{field}</Labeled>);

/** Who the player is, their status, what they owe, their figures per coin and their counters. */
export function SummaryTab(_props: TabContentProps) {
  return (
    <Stack spacing={1}>
      <StatusSummary />
      <OwedSummary />
      {labelled(IDENTITY)}
      <CoinFiguresField />
      {labelled(COUNTERS)}
    </Stack>
  );
}
