import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { prepareNumbers } from './lib/format';
import { currentLanguage, initI18n } from './lib/i18n';
import { afterFirstScreen } from './lib/laterPages';
import { connectToTelegram } from './lib/telegram';
import { followLaunchTarget } from './lib/launchTarget';
import { telegramLanguage } from './lib/telegramLaunch';
import { captureInstallPrompt } from './lib/installPrompt';

/** The app itself, started by main.tsx once the page's shell is painted; it renders once the player's language is loaded. */
connectToTelegram();
// a launch from a bot message's button opens the page the message is about: once, before the router reads the address
followLaunchTarget();
captureInstallPrompt();
// the worker's precache downloads the whole build: not while the first screen loads, nor its code with the first screen's
afterFirstScreen(() => void import('./lib/serviceWorker').then(({ registerServiceWorker }) => registerServiceWorker()));

// rendered as a transition, React yields to the browser every few milliseconds: the first render is many short tasks rather
// than one long one that would hold back a tap (the shell stays painted meanwhile)
void initI18n(telegramLanguage()).then(() => {
  startTransition(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
  // in a task of its own while the session's request is on its way, rather than in the render of its answer
  setTimeout(() => prepareNumbers(currentLanguage()));
});
