/** builds/latest.json, written by each build (vite.config.ts) with its version. */
const RELEASE_URL = '/builds/latest.json';
const RELEASE_POLL_MS = 5 * 60_000;

/** A new release is out when builds/latest.json names another version than the one running. */
async function newReleaseOut(running: string): Promise<boolean> {
  try {
    const response = await fetch(RELEASE_URL, { cache: 'no-store' });
    if (!response.ok) return false;
    const latest = (await response.json()) as { version?: unknown };
    return typeof latest.version === 'string' && latest.version !== running;
  } catch {
    return false;
  }
}

/** Polls the release file, and checks again when the window gains focus, so a new release is picked up. */
export function watchForReleases(running: string, registration: () => ServiceWorkerRegistration | undefined): () => Promise<void> {
  const check = async () => {
    if (!(await newReleaseOut(running))) return;
    const current = registration();
    // the new worker precaches the release, takes over and reloads the page (registerType autoUpdate)
    if (current) await current.update();
    else window.location.reload();
  };
  setInterval(() => void check(), RELEASE_POLL_MS);
  window.addEventListener('focus', () => void check());
  return check;
}
