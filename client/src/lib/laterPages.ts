import type { QueryClient } from '@tanstack/react-query';
import { fetchAhead, listedFiles } from './listedFiles';

const CHECK_MS = 500;
/** How many files one task asks the browser to prefetch: each request started costs the page a little of its thread. */
const PREFETCH_BATCH = 4;
let started = false;

/** Whether the first screen is complete: no call running, nothing shown as loading (grey shapes), every picture on screen loaded. */
function firstScreenComplete(queryClient: QueryClient): boolean {
  if (document.readyState !== 'complete' || queryClient.isFetching() > 0) return false;
  // between two calls, or while a slow phone renders what they answered, the page still shows its grey shapes
  if (document.querySelector('[aria-busy="true"]')) return false;
  return [...document.images].every((image) => image.complete || image.loading === 'lazy');
}

/** Runs `run` once the first screen is complete (no call running, its pictures loaded) and the browser is idle. */
function whenFirstScreenComplete(queryClient: QueryClient, run: () => void): void {
  const whenIdle = (idle: () => void) =>
    'requestIdleCallback' in window ? window.requestIdleCallback(idle, { timeout: 2000 }) : setTimeout(idle, 200);
  const check = () => (firstScreenComplete(queryClient) ? whenIdle(run) : setTimeout(check, CHECK_MS));
  setTimeout(check, CHECK_MS);
}

const waiting: Array<() => void> = [];
let watching = false;
let complete = false;

/**
 * Has `run` called once the first screen is complete and the browser is idle (boot.tsx: the service worker's registration;
 * the later pages' prefetch), or at once when it already was.
 */
export function afterFirstScreen(run: () => void): void {
  if (complete) run();
  else waiting.push(run);
}

/**
 * Watches for the first screen to be complete, signed in or not, then marks the moment on the page's timeline (the
 * `first-screen` mark: what the page fetched before it is the first screen's cost, as the bundle report weighs it) and runs
 * what waits for it. Once per page load.
 */
export function watchFirstScreen(queryClient: QueryClient): void {
  if (watching) return;
  watching = true;
  whenFirstScreenComplete(queryClient, () => {
    // (a test's fake clock stands in for the page's timeline, without marks)
    if ('mark' in performance) performance.mark('first-screen');
    complete = true;
    waiting.splice(0).forEach((run) => run());
  });
}

/**
 * Has the browser fetch the code of the pages the first screen did not load (listed by the build in #later-pages) into its
 * cache, once the first screen is complete and the browser is idle (after the `first-screen` mark, so they are not counted
 * as its cost): prefetches run at idle priority and are not executed, so they neither slow the first screen nor compete
 * with its pictures. Once per page load.
 */
export function prefetchLaterPages(): void {
  if (started) return;
  const files = listedFiles('later-pages');
  if (!files.length) return;
  started = true;
  // a few per task, so that starting them makes no long task of its own
  const prefetchSome = () => {
    for (const file of files.splice(0, PREFETCH_BATCH)) fetchAhead(file, 'prefetch');
    if (files.length) setTimeout(prefetchSome);
  };
  afterFirstScreen(() => setTimeout(prefetchSome));
}
