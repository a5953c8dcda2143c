import { useIsFetching, useIsMutating, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/** The 3 px bar at the top: primary colour while calls run, error colour when the last one failed. */
export function LoadingBar() {
  const busy = useIsFetching() + useIsMutating() > 0;
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState(false);

  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated') return;
        if (event.action.type === 'error') setFailed(true);
        if (event.action.type === 'success') setFailed(false);
      }),
    [queryClient],
  );

  const state = busy ? 'loading' : failed ? 'error' : 'idle';
  return <div className={`loading-bar loading-bar-${state}`} role="progressbar" aria-hidden={state === 'idle'} aria-busy={busy} />;
}
