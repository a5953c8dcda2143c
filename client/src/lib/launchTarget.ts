import { readPageTarget, type PageTarget } from '@gift/shared/pageTargets';
import { launchStartParam } from './telegramLaunch';

/** Where each page target opens the app (shared/src/pageTargets.ts): a route, and the part of it to bring into view, best first. */
const PLACES: Record<PageTarget, (id?: string) => { path: string; anchors: string[] }> = {
  // mining and the streak live on home
  mining: () => ({ path: '/', anchors: ['mining'] }),
  streak: () => ({ path: '/', anchors: ['today'] }),
  stakes: (id) => ({ path: '/staking', anchors: id ? [`stake-${id}`, 'stakes'] : ['stakes'] }),
  leagues: () => ({ path: '/leagues', anchors: [] }),
  withdrawals: () => ({ path: '/profile/withdraw', anchors: ['withdrawals'] }),
  friends: () => ({ path: '/invite', anchors: ['friends'] }),
  appeal: () => ({ path: '/profile/help', anchors: ['appeal-title'] }),
  // a mission's verdict: that mission's page, as home's tasks open it (it finds the mission's category); without one, home
  mission: (id) => (id ? { path: `/tasks/${id}`, anchors: [] } : { path: '/', anchors: [] }),
};

/** How long a page that is still loading is kept aligned on its part once the part is there (its data and pictures arrive and move it). */
const ALIGN_MS = 4000;
/** How long a slow launch may take to render any of the parts at all (a slow phone renders home in slices after its data). */
const WAIT_MS = 20_000;

/**
 * Keeps the best of `anchors` found so far in view while the page loads (at the top of the screen when it lies lower than
 * the upper half), until the player moves the page themselves, leaves it, or ALIGN_MS pass from the moment a part showed
 * (WAIT_MS if none ever does).
 */
function bringIntoView(path: string, anchors: string[]): void {
  let best = anchors.length;
  let timer = setTimeout(stop, WAIT_MS);
  const align = () => {
    if (window.location.pathname !== path) return stop();
    const found = anchors.findIndex((id) => document.getElementById(id));
    if (found < 0 || found > best) return;
    if (best === anchors.length) {
      // the first part to show starts the alignment's own time, however long the page took to render it
      clearTimeout(timer);
      timer = setTimeout(stop, ALIGN_MS);
    }
    best = found;
    const part = document.getElementById(anchors[found]!)!;
    // a part already in the upper half of the screen stays where it is: the page's head (a notice, its title) stays in view
    const { top } = part.getBoundingClientRect();
    if (top < 0 || top > window.innerHeight / 2) part.scrollIntoView?.({ block: 'start' });
  };
  const observer = new MutationObserver(align);
  const resized = typeof ResizeObserver === 'function' ? new ResizeObserver(align) : null;
  const PLAYER_MOVES = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
  function stop() {
    observer.disconnect();
    resized?.disconnect();
    clearTimeout(timer);
    for (const type of PLAYER_MOVES) window.removeEventListener(type, stop, true);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  resized?.observe(document.body);
  for (const type of PLAYER_MOVES) window.addEventListener(type, stop, { capture: true, passive: true });
}

/**
 * At launch only (called once per page load, before the router starts): a launch at home from a bot message's button opens
 * the page its page target names, in place of home, and brings the part the message is about into view. A referral code, an
 * unknown target or no start parameter leaves the launch as it is (home). The launch data stays in the URL hash.
 */
export function followLaunchTarget(): void {
  const target = readPageTarget(launchStartParam());
  if (!target || window.location.pathname !== '/') return;
  const place = PLACES[target.page](target.id);
  if (place.path !== '/')
    window.history.replaceState(window.history.state, '', `${place.path}${window.location.search}${window.location.hash}`);
  if (place.anchors.length) bringIntoView(place.path, place.anchors);
}
