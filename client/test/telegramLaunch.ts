import { connectToTelegram } from '../src/lib/telegram';

/**
 * A launch inside Telegram for a test: the signed launch data as telegram.org's script would hold it, Telegram's native
 * transport recording what the app posts, and the protocol version. `events` sends the app an event as Telegram does.
 */
export function launchInTelegram({ version = '8.0', initData = 'auth_date=1700000000&hash=test' } = {}) {
  const posted: Array<{ type: string; data: unknown }> = [];
  window.Telegram = { ...window.Telegram, WebApp: { initData } };
  (window as unknown as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy = {
    postEvent: (type: string, data: string) => posted.push({ type, data: JSON.parse(data) as unknown }),
  };
  sessionStorage.setItem('tgWebAppVersion', version);
  // as the app's start does: Telegram's receivers installed, ready and expand said
  connectToTelegram();
  return {
    posted,
    /** What the app posted of these methods, leaving out the rest (the header and background it paints). */
    postedOf: (...types: string[]) => posted.filter((message) => types.includes(message.type)),
    event: (type: string, data?: unknown) => window.Telegram!.WebView!.receiveEvent(type, data),
    end: () => {
      delete window.Telegram?.WebApp;
      delete (window as unknown as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy;
      sessionStorage.clear();
    },
  };
}
