import { useState } from 'react';
import {
  useCreate,
  useDelete,
  useGetOne,
  useLocaleState,
  useNotify,
  useTranslate,
  useUpdate,
  type CreateResult,
  type RaRecord,
} from 'react-admin';
import { Alert, Box, Button, Card, CardContent, FormControlLabel, FormGroup, Stack, Switch, Typography } from '@mui/material';
import type { AlertLink, AlertSettingsRecord } from '@gift/server';
import { OPERATOR_ALERT_KINDS, type OperatorAlertKind } from '@gift/shared';
import { formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { failureNotice } from '../failureNotice';

/** While a link is shown, the page looks every few seconds for the chat the operator links in Telegram. */
const LINK_POLL_MS = 3_000;

/**
 * My account's Telegram alerts (GET, PUT /api/admin/alerts/me): a one-time link to the bot (POST and DELETE /alerts/me/link),
 * and a switch for each kind of alert the operator's permissions allow.
 */
export function AlertSettings() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const locales = useDateLocales();
  const notify = useNotify();
  const [link, setLink] = useState<AlertLink | null>(null);
  const { data: settings, refetch } = useGetOne<AlertSettingsRecord>(
    'alerts',
    { id: 'me' },
    // until the operator presses Start in the bot and the chat is linked
    { refetchInterval: (query) => (link && !query.state.data?.linked ? LINK_POLL_MS : false) },
  );
  const [create, { isPending: linking }] = useCreate<RaRecord, Error, AlertLink & RaRecord>();
  const [update, { isPending: saving }] = useUpdate<AlertSettingsRecord>();
  const [remove, { isPending: unlinking }] = useDelete();
  // nothing to show until the server answered with the operator's settings (a refused or failed read shows no section)
  if (!settings?.available) return null;

  const refused = (error: unknown) => notify(...failureNotice(error));
  const startLink = () =>
    void create(
      'alerts/me/link',
      { data: { language: locale === 'fa' ? 'fa' : 'en' } },
      { onSuccess: (answer: CreateResult<AlertLink & RaRecord>['data']) => setLink(answer), onError: refused },
    );
  const unlink = () =>
    void remove(
      'alerts/me',
      { id: 'link', previousData: { id: 'link' } },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setLink(null);
          notify('alerts.unlinked', { type: 'info' });
          void refetch();
        },
        onError: refused,
      },
    );
  const choose = (kind: OperatorAlertKind, on: boolean) => {
    const kinds = OPERATOR_ALERT_KINDS.filter((each) => (each === kind ? on : settings.kinds.includes(each)));
    void update(
      'alerts',
      { id: 'me', data: { kinds, language: locale === 'fa' ? 'fa' : 'en' }, previousData: settings },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('alerts.saved', { type: 'info' });
          void refetch();
        },
        onError: refused,
      },
    );
  };

  return (
    <Card sx={{ mt: 2 }} data-testid="alert-settings">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6">{translate('alerts.title')}</Typography>
          <Typography variant="body2">{translate('alerts.intro')}</Typography>
          {settings.linked ? (
            <Alert
              severity="success"
              data-testid="alerts-linked"
              action={
                <Button color="inherit" size="small" disabled={unlinking} onClick={unlink}>
                  {translate('alerts.unlink')}
                </Button>
              }
            >
              {translate('alerts.linked', { when: formatWhen(settings.linkedAt ?? new Date(), locales) })}
            </Alert>
          ) : (
            <Alert severity="info">{translate('alerts.notLinked')}</Alert>
          )}
          {link && !settings.linked && (
            <Box data-testid="alerts-link">
              <Typography variant="body2">{translate('alerts.linkHelp', { time: formatWhen(link.expiresAt, locales) })}</Typography>
              <Box component="code" dir="ltr" sx={{ display: 'block', wordBreak: 'break-all', my: 1 }}>
                {link.url}
              </Box>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Button variant="contained" href={link.url} target="_blank" rel="noopener noreferrer">
                  {translate('alerts.openBot')}
                </Button>
                <Typography variant="body2" color="text.secondary">
                  {translate('alerts.waiting')}
                </Typography>
              </Stack>
            </Box>
          )}
          {!settings.linked && (
            <Box>
              <Button variant={link ? 'text' : 'contained'} disabled={linking} onClick={startLink}>
                {translate(link ? 'alerts.newLink' : 'alerts.link')}
              </Button>
            </Box>
          )}
          <Typography variant="subtitle2">{translate('alerts.choose')}</Typography>
          {settings.available.length ? (
            <FormGroup>
              {settings.available.map((kind) => (
                <FormControlLabel
                  key={kind}
                  control={
                    <Switch
                      checked={settings.kinds.includes(kind)}
                      disabled={saving}
                      onChange={(event) => choose(kind, event.target.checked)}
                    />
                  }
                  label={translate(`alerts.kinds.${kind}`)}
                />
              ))}
            </FormGroup>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {translate('alerts.none')}
            </Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
