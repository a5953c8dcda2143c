import { createHmac } from 'node:crypto';
import type { TelegramLaunchUser } from '../src/lib/telegramAuth';
import { TEST_BOT_TOKEN } from './helpers';

export interface LaunchToSign {
  user: Partial<TelegramLaunchUser> & { id: number };
  /** When Telegram signed it; default now. */
  authDate?: Date;
  startParam?: string;
  queryId?: string;
  /** Any other field, signed as given (e.g. `signature`, `chat_type`). */
  extra?: Record<string, string>;
}

/**
 * A raw initData string signed with real HMAC, as Telegram would hand it to the Mini App.
 * Written from Telegram's documentation independently of the server's code, so the tests check it.
 */
export function signInitData(launch: LaunchToSign, botToken: string = TEST_BOT_TOKEN): string {
  const fields = new Map<string, string>();
  fields.set('user', JSON.stringify({ first_name: `Player ${launch.user.id}`, ...launch.user }));
  fields.set('auth_date', String(Math.floor((launch.authDate ?? new Date()).getTime() / 1000)));
  if (launch.startParam !== undefined) fields.set('start_param', launch.startParam);
  if (launch.queryId !== undefined) fields.set('query_id', launch.queryId);
  for (const [key, value] of Object.entries(launch.extra ?? {})) fields.set(key, value);
  const checkString = [...fields.keys()]
    .sort()
    .map((key) => `${key}=${fields.get(key)}`)
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  fields.set('hash', createHmac('sha256', secret).update(checkString).digest('hex'));
  return new URLSearchParams([...fields.entries()]).toString();
}

/** The `Authorization` header a Mini App sends with this launch. */
export function tmaHeader(launch: LaunchToSign, botToken: string = TEST_BOT_TOKEN): string {
  return `tma ${signInitData(launch, botToken)}`;
}
