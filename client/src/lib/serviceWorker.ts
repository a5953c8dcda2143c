import { registerSW } from 'virtual:pwa-register';
import { watchForReleases } from './releaseWatch';
import { writeStored } from './storage';

/** Where a failed registration is remembered (docs/product.md: the failure is flagged in state). */
const SW_FAILED_KEY = 'serviceWorkerFailed';

/** Registers the Workbox service worker at /sw.js (scope /); the page reloads when an update activates. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD) return;
  let registration: ServiceWorkerRegistration | undefined;
  watchForReleases(__BUILD_VERSION__, () => registration);
  if (!('serviceWorker' in navigator)) return;
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
