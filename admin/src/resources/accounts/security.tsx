import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Card, CardContent, Typography } from '@mui/material';
import { fetchUtils, useLogoutIfAccessDenied, useNotify, useTranslate } from 'react-admin';
import { API_URL, inConsoleLanguage } from '../../dataProvider';
import { i18nProvider } from '../../i18n/i18nProvider';
import { adminToken } from '../../session';
import { failureNotice } from '../failureNotice';

/** A call to an operator's sessions or sign-in history (`accounts/me/…` or `accounts/:id/…`), refusals in the console's language. */
export async function securityCall<Answer>(method: 'GET' | 'DELETE', path: string): Promise<Answer> {
  const headers = new Headers({ Accept: 'application/json', Authorization: `Bearer ${adminToken() ?? ''}` });
  try {
    return (await fetchUtils.fetchJson(`${API_URL}/accounts/${path}`, { method, headers })).json as Answer;
  } catch (error) {
    throw inConsoleLanguage(error, i18nProvider.getLocale());
  }
}

/**
 * A list the section reads from the server (`reload` reads it again), and what tells of a refusal: a 401 (this session signed out
 * elsewhere) returns the console to sign-in, any other shows the server's message.
 */
export function useSecurityList<Row>(path: string | null) {
  const notify = useNotify();
  const logoutIfDenied = useLogoutIfAccessDenied();
  const [rows, setRows] = useState<Row[] | null>(null);
  const refused = useCallback(
    async (error: unknown) => {
      if (await logoutIfDenied(error)) return;
      notify(...failureNotice(error));
    },
    [logoutIfDenied, notify],
  );
  const reload = useCallback(() => (path ? securityCall<Row[]>('GET', path).then(setRows, refused) : Promise.resolve()), [path, refused]);
  useEffect(() => void reload(), [reload]);
  return { rows, reload, refused };
}

const BROWSERS: Array<[RegExp, string]> = [
  [/Edg\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iOS/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** "Chrome · Windows" from a browser's user agent; null when it names neither. */
export function deviceOf(userAgent: string): string | null {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return [browser, system].filter(Boolean).join(' · ') || null;
}

const TEXTS = {
  sessions: { title: 'operatorSecurity.sessionsTitle', intro: 'operatorSecurity.sessionsIntro', testId: 'sessions' },
  history: { title: 'operatorSecurity.historyTitle', intro: 'operatorSecurity.historyIntro', testId: 'sign-in-history' },
};

/** One security section's card: its title, what it shows, and a line when it has nothing (outlined: on an account's page it sits in the form's card). */
export function SecurityCard({
  section,
  mine,
  empty,
  children,
}: {
  section: 'sessions' | 'history';
  mine: boolean;
  empty: string | null;
  children: ReactNode;
}) {
  const translate = useTranslate();
  const texts = TEXTS[section];
  return (
    <Card variant="outlined" sx={mine ? { mt: 2 } : { m: 2 }} data-testid={texts.testId}>
      <CardContent>
        <Typography variant="h6">{translate(texts.title)}</Typography>
        <Typography variant="body2" color="text.secondary">
          {translate(texts.intro)}
        </Typography>
        {empty && <Typography sx={{ mt: 1 }}>{translate(empty)}</Typography>}
        {children}
      </CardContent>
    </Card>
  );
}
