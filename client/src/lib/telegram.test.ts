import { openLink, openTelegramLink } from './telegram';

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

describe('opening a t.me link inside Telegram (spec §5, §7)', () => {
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
  it('opens t.me links inside Telegram and other links in the browser', () => {
    const opened: string[] = [];
    window.open = ((url: string) => {
      opened.push(url);
      return null;
    }) as typeof window.open;
    window.location.hash = '#tgWebAppData=query_id%3D1&tgWebAppVersion=7.0';
    openLink('https://t.me/toncoin');
    openLink('https://ton.org/');
    openLink('javascript:alert(1)');
    expect(posted.map((p) => p.data)).toEqual([{ path_full: '/toncoin' }]);
    expect(opened).toEqual(['https://ton.org/']);
  });
});
