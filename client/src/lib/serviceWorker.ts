/** Registers /sw.js (scope /) so the app installs; reloads once when a new version takes over. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  const hadController = !!navigator.serviceWorker.controller;
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    // the first install also fires this: only an update should reload the page
    if (!hadController || reloading) return;
    reloading = true;
    window.location.reload();
  });
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      document.documentElement.dataset.serviceWorker = 'failed';
      console.warn('Service worker registration failed', error);
    });
  });
}
