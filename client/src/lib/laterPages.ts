import type { QueryClient } from '@tanstack/react-query';

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
  const list = document.getElementById('later-pages')?.textContent;
  if (!list) return;
  started = true;
  let files: unknown;
  try {
    files = JSON.parse(list);
  } catch {
    return;
  }
  if (!Array.isArray(files)) return;
  const prefetch = () => {
    for (const file of files as unknown[]) {
      if (typeof file !== 'string' || !file.startsWith('/assets/')) continue;
      const link = document.createElement('link');
      link.rel = 'prefetch';
      link.href = file;
      if (file.endsWith('.js')) {
        link.as = 'script';
        link.crossOrigin = '';
      } else link.as = 'style';
      document.head.append(link);
    }
  };
  const whenIdle = (run: () => void) =>
    'requestIdleCallback' in window ? window.requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 200);
  const check = () => (firstScreenComplete(queryClient) ? whenIdle(prefetch) : setTimeout(check, CHECK_MS));
  setTimeout(check, CHECK_MS);
}
