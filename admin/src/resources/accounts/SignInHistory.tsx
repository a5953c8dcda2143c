import type { AccountRecord, SignInAttempt } from '@gift/server';
import { Chip, List as Rows, ListItem, ListItemText } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { deviceOf, SecurityCard, useSecurityList } from './security';

const COLORS: Record<string, 'success' | 'error' | 'warning' | 'info'> = {
  success: 'success',
  'code-required': 'info',
  disabled: 'warning',
  'rate-limited': 'warning',
};

/** The latest sign-in attempts of the signed-in operator (`mine`, on My account) or of the account whose page this is. */
export function SignInHistory({ mine = false }: { mine?: boolean }) {
  const record = useRecordContext<AccountRecord>();
  const translate = useTranslate();
  const locales = useDateLocales();
  const base = mine ? 'me' : record ? encodeURIComponent(String(record.id)) : null;
  const { rows } = useSecurityList<SignInAttempt>(base && `${base}/sign-ins`);
  if (!base || !rows) return null;
  return (
    <SecurityCard section="history" mine={mine} empty={rows.length ? null : 'operatorSecurity.noHistory'}>
      <Rows dense aria-label={translate('operatorSecurity.historyTitle')}>
        {rows.map((attempt) => (
          <ListItem key={attempt.id} divider disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
            <Chip
              size="small"
              variant="outlined"
              color={COLORS[attempt.outcome] ?? 'error'}
              label={translate(`operatorSecurity.outcomes.${attempt.outcome}`)}
            />
            <ListItemText
              sx={{ minWidth: 0, flex: '1 1 200px' }}
              primary={formatWhen(attempt.at, locales)}
              secondary={
                <>
                  <span title={attempt.userAgent}>{deviceOf(attempt.userAgent) ?? translate('operatorSecurity.unknownDevice')}</span>
                  {translate('common.separator')}
                  <bdi dir="ltr">{attempt.ip || '—'}</bdi>
                </>
              }
            />
          </ListItem>
        ))}
      </Rows>
    </SecurityCard>
  );
}
