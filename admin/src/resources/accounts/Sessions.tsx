import type { AccountRecord, OperatorSession } from '@gift/server';
import { Box, Button, Chip, List as Rows, ListItem, ListItemText, Stack } from '@mui/material';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { deviceOf, SecurityCard, securityCall, useSecurityList } from './security';

/**
 * The live console sessions of the signed-in operator (`mine`, on My account: sign out one, or every other) or of the account
 * whose page this is (the accounts permission: sign out one, or all).
 */
export function Sessions({ mine = false }: { mine?: boolean }) {
  const record = useRecordContext<AccountRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const locales = useDateLocales();
  const base = mine ? 'me' : record ? encodeURIComponent(String(record.id)) : null;
  const { rows, reload, refused } = useSecurityList<OperatorSession>(base && `${base}/sessions`);
  if (!base || !rows) return null;

  const signOut = async (path: string) => {
    try {
      const { revoked } = await securityCall<{ revoked: number }>('DELETE', `${base}/${path}`);
      notify('operatorSecurity.signedOut', { type: 'info', messageArgs: { count: revoked.toLocaleString(locales) } });
      await reload();
    } catch (error) {
      await refused(error);
    }
  };
  const others = rows.filter((session) => !session.current);

  return (
    <SecurityCard section="sessions" mine={mine} empty={rows.length ? null : 'operatorSecurity.noSessions'}>
      <Rows aria-label={translate('operatorSecurity.sessionsTitle')}>
        {rows.map((session) => (
          <ListItem key={session.id} divider disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
            <ListItemText
              sx={{ minWidth: 0, flex: '1 1 220px' }}
              primary={
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <span title={session.userAgent}>{deviceOf(session.userAgent) ?? translate('operatorSecurity.unknownDevice')}</span>
                  {session.current && <Chip size="small" color="primary" label={translate('operatorSecurity.thisSession')} />}
                </Stack>
              }
              secondary={
                <>
                  {translate('operatorSecurity.address')}: <bdi dir="ltr">{session.ip || '—'}</bdi>
                  <br />
                  {translate('operatorSecurity.signedInAt')}: {formatWhen(session.signedInAt, locales)}
                  <br />
                  {translate('operatorSecurity.lastSeen')}: {formatWhen(session.lastSeenAt, locales)}
                </>
              }
            />
            {!session.current && (
              <Button size="small" variant="outlined" onClick={() => void signOut(`sessions/${encodeURIComponent(session.id)}`)}>
                {translate('operatorSecurity.signOut')}
              </Button>
            )}
          </ListItem>
        ))}
      </Rows>
      {(mine ? others.length > 0 : rows.length > 0) && (
        <Box sx={{ mt: 1 }}>
          <Button variant="contained" color="warning" onClick={() => void signOut('sessions')}>
            {translate(mine ? 'operatorSecurity.signOutOthers' : 'operatorSecurity.signOutAll')}
          </Button>
        </Box>
      )}
    </SecurityCard>
  );
}
