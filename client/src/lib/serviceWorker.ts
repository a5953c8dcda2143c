import { watchForReleases } from './releaseWatch';
import { writeStored } from './storage';

/** Where a failed registration is remembered (docs/product.md: the failure is flagged in state). */
const SW_FAILED_KEY = 'serviceWorkerFailed';

let registering = false;

/**
 * Registers the Workbox service worker at /sw.js (scope /); the page reloads when an update activates. The app calls it once
 * the first screen is complete (App.tsx): the worker's precache downloads the whole build, which must not compete with the
 * first screen, and its registration code (workbox-window) is not part of the first screen's JavaScript. Once per page load.
 */
export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || registering) return;
  registering = true;
  let registration: ServiceWorkerRegistration | undefined;
  // the version this page's build names in index.html (vite.config.ts's buildManifest): a build without it watches nothing
  const running = document.querySelector('meta[name="build-version"]')?.getAttribute('content');
  if (running) watchForReleases(running, () => registration);
  if (!('serviceWorker' in navigator)) return;
  const { registerSW } = await import('virtual:pwa-register');
  registerSW({
    immediate: true,
    onRegisteredSW(_url, registered) {
      registration = registered;
      writeStored(SW_FAILED_KEY, null);
      delete document.documentElement.dataset.serviceWorker;
    },
    onRegisterError(error: unknown) {
      writeStored(SW_FAILED_KEY, new Date().toISOString());
      document.documentElement.dataset.serviceWorker = 'failed';
      console.warn('Service worker registration failed', error);
    },
  });
}
