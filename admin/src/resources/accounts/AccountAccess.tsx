import type { AccountRecord } from '@gift/server';
import { Card, CardContent, List as Rows, ListItem, ListItemText, Typography } from '@mui/material';
import { useGetMany, useRecordContext, useTranslate } from 'react-admin';
import { formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { usePermissionLabel } from './permissions';

/** One permission's giving, as the server records it. */
interface Grant {
  permission: string;
  grantedBy: string | null;
  approvedBy: string | null;
  grantedAt: string;
}

/** Beside an account's form: who created it, who gave (and approved) each permission, and what waits for a second operator. */
export function AccountAccess() {
  const record = useRecordContext<AccountRecord>();
  const translate = useTranslate();
  const permissionLabel = usePermissionLabel();
  const locales = useDateLocales();
  const grants = (record?.grants ?? []) as Grant[];
  const pending = record?.pendingGrant ?? null;
  const ids = [
    ...new Set(
      [record?.createdBy, pending?.requestedBy, ...grants.flatMap((grant) => [grant.grantedBy, grant.approvedBy])].filter(
        (id): id is string => !!id,
      ),
    ),
  ];
  const { data: accounts = [] } = useGetMany<{ id: string; username: string }>('accounts', { ids }, { enabled: ids.length > 0 });
  if (!record) return null;
  const nameOf = (id: string | null | undefined) => accounts.find((account) => String(account.id) === String(id))?.username ?? String(id);
  const given = (permission: string) => grants.find((grant) => grant.permission === permission);
  return (
    <Card sx={{ ml: { md: 2 }, mt: { xs: 2, md: 0 }, minWidth: 280, maxWidth: { md: 380 } }} data-testid="account-access">
      <CardContent>
        <Typography variant="subtitle1">{translate('accounts.access')}</Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('resources.accounts.fields.createdBy')}:{' '}
          {record.createdBy ? nameOf(record.createdBy) : translate('accounts.noCreator')}
        </Typography>
        <Rows dense>
          {record.permissions.map((permission) => {
            const grant = given(permission);
            const secondary = grant
              ? [
                  translate('accounts.givenBy', { who: grant.grantedBy ? nameOf(grant.grantedBy) : translate('accounts.noCreator') }),
                  grant.approvedBy ? translate('accounts.approvedBy', { who: nameOf(grant.approvedBy) }) : null,
                  formatWhen(grant.grantedAt, locales),
                ]
                  .filter(Boolean)
                  .join(translate('common.separator'))
              : translate('accounts.givenBefore');
            return (
              <ListItem key={permission} disableGutters>
                <ListItemText primary={permissionLabel(permission)} secondary={secondary} />
              </ListItem>
            );
          })}
        </Rows>
        {pending && (
          <Typography variant="body2" color="warning.main">
            {translate('accounts.waitingFor', {
              permissions: pending.permissions.map(permissionLabel).join(', '),
              who: nameOf(pending.requestedBy),
            })}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
