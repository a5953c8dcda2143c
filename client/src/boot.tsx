import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { initI18n } from './lib/i18n';
import { connectToTelegram } from './lib/telegram';
import { telegramLanguage } from './lib/telegramLaunch';
import { registerServiceWorker } from './lib/serviceWorker';
import { captureInstallPrompt } from './lib/installPrompt';

/** The app itself, started by main.tsx once the page's shell is painted. */
connectToTelegram();
initI18n(telegramLanguage());
captureInstallPrompt();
registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
