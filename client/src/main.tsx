// The entry is small on purpose: the styles (render-blocking, so the shell in index.html is painted in the app's colours),
// then the app's code fetched at once and started once the shell is on screen. Evaluating that code is the first screen's
// longest task; started after the shell is painted, it no longer holds back the first paint, nor the cover the server put
// in the shell on a launch (the first screen's largest picture). The code is fetched from here rather than preloaded by
// the page, so the styles and the cover come first on a slow connection.
import './styles.css';
import { chosenLanguage, loadTexts } from './lib/language';
import { fetchAhead, listedFiles } from './lib/listedFiles';
import { telegramLanguage } from './lib/telegramLaunch';

/** How long the app waits at most for the shell's cover to be painted. */
const COVER_WAIT_MS = 500;

/** Resolves once `cover` is on screen (as the browser reports its largest paint, else decoded and two frames on), or after the wait. */
function painted(cover: HTMLImageElement): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    setTimeout(done, COVER_WAIT_MS);
    if (PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
      new PerformanceObserver((list, observer) => {
        if (list.getEntries().some((entry) => (entry as PerformanceEntry & { element?: Element | null }).element === cover)) {
          observer.disconnect();
          done();
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    } else {
      cover.decode().then(() => requestAnimationFrame(() => requestAnimationFrame(done)), done);
    }
  });
}

// the app's code (listed by the build in #app-code), fetched beside the cover; it runs when imported below
for (const file of listedFiles('app-code')) fetchAhead(file, 'modulepreload');
// the player's language's texts (the other language's load when the player switches), fetched beside the code: the app
// renders once they are in (lib/i18n.ts asks for the same module, which by then has arrived)
loadTexts(chosenLanguage(telegramLanguage())).catch(() => undefined);
const cover = document.querySelector<HTMLImageElement>('#root .covers img');
const shellPainted = cover ? painted(cover) : new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
void shellPainted.then(() => setTimeout(() => void import('./boot')));
