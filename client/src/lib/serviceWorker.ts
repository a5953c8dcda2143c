import { registerSW } from 'virtual:pwa-register';

/** Where a failed registration is remembered (spec §4: the failure is flagged in state). */
export const SW_FAILED_KEY = 'serviceWorkerFailed';
const RELEASE_URL = '/builds/latest.json';
const RELEASE_POLL_MS = 5 * 60_000;

function remember(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage off: the flag on <html> still says it for this visit
  }
}

/** A new release is out when builds/latest.json names another version than the one running. */
async function newReleaseOut(): Promise<boolean> {
  try {
    const response = await fetch(RELEASE_URL, { cache: 'no-store' });
    if (!response.ok) return false;
    const latest = (await response.json()) as { version?: unknown };
    return typeof latest.version === 'string' && latest.version !== __BUILD_VERSION__;
  } catch {
    return false;
  }
}

/** Polls the release file, and checks again when the window gains focus, so a new release is picked up. */
function watchForReleases(registration: () => ServiceWorkerRegistration | undefined) {
  const check = async () => {
    if (!(await newReleaseOut())) return;
    const current = registration();
    // the new worker precaches the release, takes over and reloads the page (registerType autoUpdate)
    if (current) await current.update();
    else window.location.reload();
  };
  setInterval(() => void check(), RELEASE_POLL_MS);
  window.addEventListener('focus', () => void check());
}

/** Registers the Workbox service worker at /sw.js (scope /); the page reloads when an update activates. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD) return;
  let registration: ServiceWorkerRegistration | undefined;
  watchForReleases(() => registration);
  if (!('serviceWorker' in navigator)) return;
  registerSW({
    immediate: true,
    onRegisteredSW(_url, registered) {
      registration = registered;
      remember(SW_FAILED_KEY, null);
      delete document.documentElement.dataset.serviceWorker;
    },
    onRegisterError(error: unknown) {
      remember(SW_FAILED_KEY, new Date().toISOString());
      document.documentElement.dataset.serviceWorker = 'failed';
      console.warn('Service worker registration failed', error);
    },
  });
}
