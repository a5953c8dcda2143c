import {
  compareVersions,
  hasWebviewProxy,
  isIframe,
  postEvent,
  setTargetOrigin,
  supports,
  type MethodName,
  type MethodNameWithOptionalParams,
  type MethodNameWithoutParams,
  type MethodNameWithRequiredParams,
  type MethodParams,
} from '@telegram-apps/bridge';
import { insideTelegram, telegramVersion } from './telegramLaunch';

// The bridge posts to a framing page only on https://web.telegram.org unless told otherwise; the app posts to whichever page
// frames it, as telegram.org's script does and this app always did. Who may frame it is the server's CSP (frame-ancestors:
// the app itself and *.telegram.org)
setTargetOrigin('*');

/** Where Telegram's own script is stricter than the bridge's table: closing confirmation came with Bot API 6.2. */
const LATER: Partial<Record<MethodName, string>> = { web_app_setup_closing_behavior: '6.2' };

/** Whether this launch's Telegram has `method` and can be reached (its webview's proxy, or the Telegram Web page framing the app). */
export function telegramSupports(method: MethodName): boolean {
  const version = telegramVersion();
  const since = LATER[method];
  return (
    insideTelegram() &&
    (hasWebviewProxy(window) || isIframe()) &&
    supports(method, version) &&
    (!since || compareVersions(version, since) >= 0)
  );
}

/** Sends a method to Telegram when this launch's Telegram has it (otherwise nothing); tells whether it was sent. */
export function sendToTelegram<M extends MethodNameWithRequiredParams | MethodNameWithOptionalParams>(
  method: M,
  params: MethodParams<M>,
): boolean;
export function sendToTelegram(method: MethodNameWithoutParams | MethodNameWithOptionalParams): boolean;
export function sendToTelegram(method: MethodName, params: object = {}): boolean {
  if (!telegramSupports(method)) return false;
  try {
    // postEvent types each method's parameters by overloads, which the ones above repeat; a method without parameters
    // sends {} (Telegram's webview proxy gets JSON either way)
    Reflect.apply(postEvent, undefined, [method, params]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Sends a method and resolves with Telegram's answer: `listen` subscribes to the events that answer it and calls
 * `answer` with the result; `unsent` when the method could not be sent.
 */
export function askTelegram<T>(send: () => boolean, unsent: T, listen: (answer: (result: T) => void) => Array<() => void>): Promise<T> {
  return new Promise((resolve) => {
    const settle = (result: T) => {
      stops.forEach((stop) => stop());
      resolve(result);
    };
    const stops = listen(settle);
    if (!send()) settle(unsent);
  });
}
