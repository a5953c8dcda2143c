import type { QueryClient } from '@tanstack/react-query';
import { fetchAhead, listedFiles } from './listedFiles';

const CHECK_MS = 500;
let started = false;

/** Whether the first screen is complete: no call running, every picture on screen loaded. */
function firstScreenComplete(queryClient: QueryClient): boolean {
  if (document.readyState !== 'complete' || queryClient.isFetching() > 0) return false;
  return [...document.images].every((image) => image.complete || image.loading === 'lazy');
}

/**
 * Has the browser fetch the code of the pages the first screen did not load (listed by the build in #later-pages) into its
 * cache, once the first screen is complete and the browser is idle: prefetches run at idle priority and are not executed,
 * so they neither slow the first screen nor compete with its pictures. Once per page load.
 */
export function prefetchLaterPages(queryClient: QueryClient): void {
  if (started) return;
  const files = listedFiles('later-pages');
  if (!files.length) return;
  started = true;
  const prefetch = () => {
    for (const file of files) fetchAhead(file, 'prefetch');
  };
  const whenIdle = (run: () => void) =>
    'requestIdleCallback' in window ? window.requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 200);
  const check = () => (firstScreenComplete(queryClient) ? whenIdle(prefetch) : setTimeout(check, CHECK_MS));
  setTimeout(check, CHECK_MS);
}
