import { openLink, openTelegramLink } from './telegramLinks';
import { recordWindowOpen } from '../../test/windowOpen';

const posted: Array<{ type: string; data: unknown }> = [];
beforeEach(() => {
  posted.length = 0;
  (window as unknown as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy = {
    postEvent: (type: string, data: string) => posted.push({ type, data: JSON.parse(data) }),
  };
});
afterEach(() => {
  delete (window as unknown as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy;
});

describe('opening a t.me link inside Telegram (docs/product.md)', () => {
  it('sends web_app_open_tg_link with the path from protocol 6.1', () => {
    window.location.hash = '#tgWebAppData=query_id%3D1&tgWebAppVersion=7.0';
    openTelegramLink('https://t.me/share/url?url=https%3A%2F%2Ft.me%2Fbot');
    expect(posted).toEqual([{ type: 'web_app_open_tg_link', data: { path_full: '/share/url?url=https%3A%2F%2Ft.me%2Fbot' } }]);
  });

  it("refuses other protocols and hosts with the spec's messages, or runs the fallback when given", () => {
    expect(() => openTelegramLink('ftp://t.me/file')).toThrow('Url protocol is not supported');
    expect(() => openTelegramLink('https://example.com/channel')).toThrow('Url host is not supported');
    const fallback = jest.fn();
    openTelegramLink('https://example.com/channel', fallback);
    expect(fallback).toHaveBeenCalledTimes(1);
    expect(posted).toEqual([]);
  });
});

describe('Go', () => {
  it('opens t.me links inside Telegram and other links in the browser', async () => {
    const opened = recordWindowOpen();
    window.location.hash = '#tgWebAppData=query_id%3D1&tgWebAppVersion=7.0';
    openLink('https://t.me/toncoin');
    openLink('https://ton.org/');
    openLink('javascript:alert(1)');
    // inside Telegram, Telegram opens other links in the player's browser
    expect(posted).toEqual([
      { type: 'web_app_open_tg_link', data: { path_full: '/toncoin' } },
      { type: 'web_app_open_link', data: { url: 'https://ton.org/' } },
    ]);
    expect(opened).toEqual([]);

    window.location.hash = '';
    sessionStorage.clear();
    // a fresh page outside Telegram: a new tab
    (await launchWith('')).openLink('https://ton.org/');
    expect(opened).toEqual(['https://ton.org/']);
  });
});

/** A fresh copy of the bridge for a launch with this hash (the launch data is read once per page load). */
async function launchWith(hash: string) {
  window.location.hash = hash;
  sessionStorage.clear();
  // the previous launch's bridge stops listening, as the end of its page load would have it
  (await import('@telegram-apps/bridge')).resetPackageState();
  jest.resetModules();
  return {
    ...(await import('./telegram')),
    ...(await import('./telegramScreen')),
    ...(await import('./telegramTheme')),
    ...(await import('./telegramLinks')),
  };
}
const LIGHT = encodeURIComponent(JSON.stringify({ bg_color: '#ffffff', text_color: '#000000' }));
const DARK = { bg_color: '#17212b', text_color: '#f5f5f5' };

describe("the Telegram bridge, without telegram.org's script", () => {
  it('at launch says ready, expands and asks for the theme, and paints the header, background and bottom bar', async () => {
    const bridge = await launchWith(`#tgWebAppData=query_id%3D1&tgWebAppVersion=8.0&tgWebAppThemeParams=${LIGHT}`);
    bridge.connectToTelegram();
    bridge.paintTelegramChrome('#edf2eb');
    expect(posted.map((p) => p.type)).toEqual([
      'web_app_ready',
      'web_app_expand',
      'web_app_request_theme',
      'web_app_request_safe_area',
      'web_app_request_content_safe_area',
      'web_app_set_header_color',
      'web_app_set_background_color',
      'web_app_set_bottom_bar_color',
    ]);
    expect(posted[5]!.data).toEqual({ color: '#edf2eb' });
  });

  it('sends an old Telegram nothing its version lacks', async () => {
    const bridge = await launchWith('#tgWebAppData=query_id%3D1&tgWebAppVersion=6.0');
    bridge.connectToTelegram();
    bridge.paintTelegramChrome('#191919');
    bridge.haptic('success');
    bridge.confirmClosing(true);
    expect(bridge.showTelegramBackButton(() => {})).toBeNull();
    expect(posted.map((p) => p.type)).toEqual(['web_app_ready', 'web_app_expand', 'web_app_request_theme']);
  });

  it('names the header colour by key before 6.10, when a colour by value did not exist', async () => {
    const bridge = await launchWith('#tgWebAppData=query_id%3D1&tgWebAppVersion=6.9');
    bridge.paintTelegramChrome('#191919');
    expect(posted).toEqual([
      { type: 'web_app_set_header_color', data: { color_key: 'bg_color' } },
      { type: 'web_app_set_background_color', data: { color: '#191919' } },
    ]);
  });

  it("follows Telegram's scheme: light at launch, dark when Telegram's theme changes", async () => {
    const bridge = await launchWith(`#tgWebAppData=query_id%3D1&tgWebAppVersion=8.0&tgWebAppThemeParams=${LIGHT}`);
    bridge.connectToTelegram();
    expect(bridge.telegramColorScheme()).toBe('light');
    const seen: string[] = [];
    bridge.onTelegramSchemeChange((scheme) => seen.push(scheme));
    window.Telegram!.WebView!.receiveEvent('theme_changed', { theme_params: DARK });
    expect(seen).toEqual(['dark']);
  });

  it("shows Telegram's Back button, goes back when it is pressed, and hides it again", async () => {
    const bridge = await launchWith('#tgWebAppData=query_id%3D1&tgWebAppVersion=7.0');
    bridge.connectToTelegram();
    posted.length = 0;
    const back = jest.fn();
    const hide = bridge.showTelegramBackButton(back)!;
    window.Telegram!.WebView!.receiveEvent('back_button_pressed');
    expect(back).toHaveBeenCalledTimes(1);
    hide();
    window.Telegram!.WebView!.receiveEvent('back_button_pressed');
    expect(back).toHaveBeenCalledTimes(1);
    expect(posted).toEqual([
      { type: 'web_app_setup_back_button', data: { is_visible: true } },
      { type: 'web_app_setup_back_button', data: { is_visible: false } },
    ]);
  });

  it('sends haptics and the closing confirmation the protocol names', async () => {
    const bridge = await launchWith('#tgWebAppData=query_id%3D1&tgWebAppVersion=7.0');
    bridge.haptic('success');
    bridge.haptic('error');
    bridge.haptic('selection');
    bridge.confirmClosing(true);
    expect(posted).toEqual([
      { type: 'web_app_trigger_haptic_feedback', data: { type: 'notification', notification_type: 'success' } },
      { type: 'web_app_trigger_haptic_feedback', data: { type: 'notification', notification_type: 'error' } },
      { type: 'web_app_trigger_haptic_feedback', data: { type: 'selection_change' } },
      { type: 'web_app_setup_closing_behavior', data: { need_confirmation: true } },
    ]);
  });

  it("asks for write access from 6.9 and answers with the player's choice; an older Telegram is not asked", async () => {
    const bridge = await launchWith('#tgWebAppData=query_id%3D1&tgWebAppVersion=7.0');
    bridge.connectToTelegram();
    posted.length = 0;
    const answer = bridge.requestWriteAccess();
    expect(posted).toEqual([{ type: 'web_app_request_write_access', data: {} }]);
    window.Telegram!.WebView!.receiveEvent('write_access_requested', { status: 'allowed' });
    await expect(answer).resolves.toBe(true);

    const old = await launchWith('#tgWebAppData=query_id%3D1&tgWebAppVersion=6.4');
    old.connectToTelegram();
    posted.length = 0;
    await expect(old.requestWriteAccess()).resolves.toBe(false);
    expect(posted).toEqual([]);
  });

  it('outside Telegram sends nothing at all', async () => {
    delete (window as unknown as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy;
    const bridge = await launchWith('');
    bridge.connectToTelegram();
    bridge.haptic('success');
    expect(bridge.telegramColorScheme()).toBeNull();
    expect(posted).toEqual([]);
  });
});

describe('fullscreen and safe areas (Telegram 8.0 and later)', () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.removeAttribute('style');
  });

  it("pads the app by the insets Telegram reports: the device's, plus the band over which its buttons float", async () => {
    const bridge = await launchWith('#tgWebAppData=query_id%3D1&tgWebAppVersion=8.0');
    bridge.connectToTelegram();
    window.Telegram!.WebView!.receiveEvent('safe_area_changed', { top: 47, bottom: 34, left: 0, right: 0 });
    window.Telegram!.WebView!.receiveEvent('content_safe_area_changed', { top: 46, bottom: 0, left: 0, right: 0 });
    const style = document.documentElement.style;
    expect(style.getPropertyValue('--tg-safe-area-top')).toBe('47px');
    expect(style.getPropertyValue('--tg-safe-area-bottom')).toBe('34px');
    expect(style.getPropertyValue('--tg-content-safe-area-top')).toBe('46px');
    // nonsense from a buggy client changes nothing
    window.Telegram!.WebView!.receiveEvent('safe_area_changed', { top: -5, bottom: 'x' });
    expect(style.getPropertyValue('--tg-safe-area-top')).toBe('47px');
    expect(style.getPropertyValue('--tg-safe-area-bottom')).toBe('34px');
  });

  it('goes fullscreen when asked, says so only once Telegram answers, and opens fullscreen at the next launch', async () => {
    const bridge = await launchWith('#tgWebAppData=query_id%3D1&tgWebAppVersion=8.0');
    bridge.connectToTelegram();
    expect(bridge.canGoFullscreen()).toBe(true);
    expect(bridge.isFullscreen()).toBe(false);
    posted.length = 0;
    const answer = bridge.setFullscreen(true);
    expect(posted).toEqual([{ type: 'web_app_request_fullscreen', data: {} }]);
    window.Telegram!.WebView!.receiveEvent('fullscreen_changed', { is_fullscreen: true });
    await expect(answer).resolves.toBe(true);
    expect(bridge.isFullscreen()).toBe(true);

    const next = await launchWith('#tgWebAppData=query_id%3D2&tgWebAppVersion=8.0');
    next.connectToTelegram();
    expect(posted.map((p) => p.type)).toContain('web_app_request_fullscreen');
    // launched fullscreen already (the link's mode): nothing to ask
    posted.length = 0;
    (await launchWith('#tgWebAppData=query_id%3D3&tgWebAppVersion=8.0&tgWebAppFullscreen=1')).connectToTelegram();
    expect(posted.map((p) => p.type)).not.toContain('web_app_request_fullscreen');
  });

  it('stays in a window where the device cannot go fullscreen, and back to a window when chosen', async () => {
    const bridge = await launchWith('#tgWebAppData=query_id%3D1&tgWebAppVersion=8.0&tgWebAppFullscreen=1');
    bridge.connectToTelegram();
    const refused = bridge.setFullscreen(false);
    window.Telegram!.WebView!.receiveEvent('fullscreen_changed', { is_fullscreen: false });
    await expect(refused).resolves.toBe(false);
    const failed = bridge.setFullscreen(true);
    window.Telegram!.WebView!.receiveEvent('fullscreen_failed', { error: 'UNSUPPORTED' });
    await expect(failed).resolves.toBe(false);
  });

  it('sends a 7.x Telegram no fullscreen or safe-area message', async () => {
    localStorage.setItem('fullscreen', 'on');
    const bridge = await launchWith('#tgWebAppData=query_id%3D1&tgWebAppVersion=7.10');
    bridge.connectToTelegram();
    expect(bridge.canGoFullscreen()).toBe(false);
    await expect(bridge.setFullscreen(true)).resolves.toBe(false);
    expect(posted.map((p) => p.type)).toEqual(['web_app_ready', 'web_app_expand', 'web_app_request_theme']);
  });
});
