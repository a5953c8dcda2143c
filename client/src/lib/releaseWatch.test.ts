import { watchForReleases } from './releaseWatch';

function serveRelease(version: string) {
  const asked: string[] = [];
  globalThis.fetch = (async (url: string) => {
    asked.push(String(url));
    return new Response(JSON.stringify({ version }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  return asked;
}

it('updates the service worker when builds/latest.json names another version, when the window gains focus', async () => {
  const asked = serveRelease('2026-11-22');
  const update = jest.fn(async () => undefined);
  watchForReleases('2026-11-21', () => ({ update }) as unknown as ServiceWorkerRegistration);
  window.dispatchEvent(new Event('focus'));
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(asked).toEqual(['/builds/latest.json']);
  expect(update).toHaveBeenCalledTimes(1);
});

it('leaves the running release alone while it is the latest', async () => {
  serveRelease('2026-11-21');
  const update = jest.fn(async () => undefined);
  const check = watchForReleases('2026-11-21', () => ({ update }) as unknown as ServiceWorkerRegistration);
  await check();
  expect(update).not.toHaveBeenCalled();
});
