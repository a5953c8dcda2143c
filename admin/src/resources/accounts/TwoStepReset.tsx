import { useState } from 'react';
import type { AccountRecord } from '@gift/server';
import { Alert, Box, Button, Card, CardContent, Typography } from '@mui/material';
import { Confirm, useGetIdentity, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { securityCall } from './security';
import { failureNotice } from '../failureNotice';

/** On another operator's account page: whether two-step sign-in is on, and its reset (a lost phone), confirmed first. */
export function TwoStepReset() {
  const record = useRecordContext<AccountRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { identity } = useGetIdentity();
  const [asking, setAsking] = useState(false);
  // an operator turns their own off on My account, with a code
  if (!record || !identity || String(identity.id) === String(record.id)) return null;
  const reset = async () => {
    setAsking(false);
    try {
      await securityCall('DELETE', `${encodeURIComponent(String(record.id))}/totp`);
      notify('operatorSecurity.resetDone', { type: 'success' });
      refresh();
    } catch (error) {
      notify(...failureNotice(error));
    }
  };
  return (
    <Card variant="outlined" sx={{ m: 2 }} data-testid="two-step-reset">
      <CardContent>
        <Typography variant="h6">{translate('operatorSecurity.twoStepTitle')}</Typography>
        <Alert severity={record.totpEnabled ? 'success' : 'info'} sx={{ my: 1 }}>
          {translate(record.totpEnabled ? 'operatorSecurity.twoStepOn' : 'operatorSecurity.twoStepOff')}
        </Alert>
        {record.totpEnabled && (
          <>
            <Typography variant="body2">{translate('operatorSecurity.resetHelp')}</Typography>
            <Box sx={{ mt: 1 }}>
              <Button variant="outlined" color="error" onClick={() => setAsking(true)}>
                {translate('operatorSecurity.reset')}
              </Button>
            </Box>
          </>
        )}
        <Confirm
          isOpen={asking}
          title="operatorSecurity.reset"
          content={translate('operatorSecurity.resetConfirm', { name: record.username })}
          onConfirm={() => void reset()}
          onClose={() => setAsking(false)}
        />
      </CardContent>
    </Card>
  );
}
