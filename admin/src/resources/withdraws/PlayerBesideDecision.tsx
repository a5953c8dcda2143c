import { useState } from 'react';
import { Alert, Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { Link } from 'react-router';
import { useBasename, useRecordContext, useTranslate } from 'react-admin';
import type { WithdrawPage } from '@gift/server';
import { formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { RiskChip } from '../users/risk/RiskViews';
import { useLocalDigits } from '../../lists/localDigits';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What an operator reads before deciding a withdrawal: the player's risk (and whether it holds this payout), how long they
 * have been a player, their balance of the coin now, what they were paid before and their latest withdrawals.
 */
export function PlayerBesideDecision() {
  const translate = useTranslate();
  const basename = useBasename();
  const locales = useDateLocales();
  const digits = useLocalDigits();
  const record = useRecordContext<WithdrawPage>();
  // the page's time when it opened: the player's age does not move while the operator reads
  const [now] = useState(Date.now);
  if (!record || record.balance === undefined) return null;
  const symbol = record.coinSymbol ?? '';
  const days = record.playerJoinedAt ? Math.floor((now - Date.parse(record.playerJoinedAt)) / DAY_MS) : 0;
  const open = record.status === 'pending' || record.status === 'approved';
  return (
    <Card variant="outlined" sx={{ m: 2, mb: 0 }} data-testid="withdrawal-player">
      <CardContent>
        <Stack spacing={1}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            <Typography variant="subtitle1" component="h2">
              {translate('withdraws.player.title', { name: record.userName ?? '' })}
            </Typography>
            {record.playerRisk && <RiskChip level={record.playerRisk.level} score={record.playerRisk.score} />}
            <Link to={`${basename}/users/${record.user ?? ''}/show/risk`}>{translate('withdraws.player.riskTab')}</Link>
          </Box>
          {open && record.riskHeld && (
            <Alert severity="error" role="alert" data-testid="withdrawal-risk-hold">
              {translate('withdraws.player.held')}
            </Alert>
          )}
          <Typography variant="body2">
            {record.playerJoinedAt &&
              translate(days ? 'withdraws.player.joined' : 'withdraws.player.joinedToday', {
                smart_count: days,
                count: digits(String(days)),
                date: formatWhen(record.playerJoinedAt, locales),
              })}
          </Typography>
          <Typography variant="body2">
            {translate('withdraws.player.balance', { amount: `${digits(record.balance)} ${symbol}` })}
          </Typography>
          <Typography variant="body2">
            {translate('withdraws.player.paid', {
              smart_count: record.paid?.count ?? 0,
              count: digits(String(record.paid?.count ?? 0)),
              amount: `${digits(record.paid?.amount ?? '0')} ${symbol}`,
            })}
          </Typography>
          {record.earlier?.length ? (
            <Box component="ul" sx={{ m: 0, ps: 2.5 }} aria-label={translate('withdraws.player.earlier')}>
              {record.earlier.map((w) => (
                <li key={w.id}>
                  <Typography variant="body2" component="span">
                    {`${digits(w.amount)} ${w.symbol}${translate('common.separator')}${translate(`statuses.withdrawal.${w.status}`)}${translate('common.separator')}${formatWhen(w.createdAt, locales)}`}
                  </Typography>
                </li>
              ))}
            </Box>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {translate('withdraws.player.noEarlier')}
            </Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
