import { useIsFetching, useIsMutating, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/translator';
import { appErrorOf } from '../lib/trpc';

/**
 * Answers the page itself explains as its state (the sign-in page, the launch to reopen, the banned notice): an
 * expected check, not a failure, so they leave the bar alone.
 */
const EXPECTED_CODES: ReadonlySet<string> = new Set(['UNAUTHORIZED', 'ACCOUNT_BANNED']);

const isExpected = (error: unknown) => {
  const code = appErrorOf(error)?.code;
  return (code !== undefined && EXPECTED_CODES.has(code)) || (error as { data?: { httpStatus?: number } })?.data?.httpStatus === 401;
};

/** The 3 px bar at the top: primary colour while calls run, error colour when the last one failed unexpectedly. */
export function LoadingBar() {
  const { t } = useTranslation();
  const busy = useIsFetching() + useIsMutating() > 0;
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState(false);

  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated') return;
        if (event.action.type === 'error') setFailed(!isExpected(event.action.error));
        if (event.action.type === 'success') setFailed(false);
      }),
    [queryClient],
  );

  const state = busy ? 'loading' : failed ? 'error' : 'idle';
  return (
    <div
      className={`loading-bar loading-bar-${state}`}
      role="progressbar"
      aria-label={t('common.loading')}
      aria-hidden={state === 'idle'}
      aria-busy={busy}
    />
  );
}
