import { Types } from 'mongoose';
import { pacedApi } from '../src/lib/telegramBot';
import { NotificationModel } from '../src/modules/notifications/notification.model';
import { NotificationSender, type NotificationSenderOptions } from '../src/modules/notifications/notifications.service';
import type { UserDocument } from '../src/modules/users/user.model';
import type { BotApiStandIn } from './botApiStandIn';
import { TEST_BOT_TOKEN, silentLogger } from './helpers';

export const APP_LINK = 'https://t.me/GiftRewardsBot/play';

/**
 * A notification sender on the paced API of the stand-in, its clock `ahead` ms in the future (to reach scheduled messages);
 * its buttons link to APP_LINK unless `openAppUrl` makes the links.
 */
export function testSender(
  standIn: BotApiStandIn,
  ahead = { ms: 0 },
  openAppUrl: NotificationSenderOptions['openAppUrl'] = async () => APP_LINK,
) {
  let api: ReturnType<typeof pacedApi> | undefined;
  return new NotificationSender({
    api: () => (api ??= pacedApi({ apiRoot: standIn.apiRoot, token: TEST_BOT_TOKEN })),
    openAppUrl,
    holder: `test-${new Types.ObjectId()}`,
    logger: silentLogger,
    clock: () => new Date(Date.now() + ahead.ms),
  });
}

export const messagesTo = (standIn: BotApiStandIn, player: UserDocument) => standIn.sent.filter((m) => m.chat_id === player.telegramId);

/** Real time: waits until nothing due is left queued and nothing is in flight. */
export async function drained(running: NotificationSender | NotificationSender[], ahead = { ms: 0 }) {
  const senders = Array.isArray(running) ? running : [running];
  for (let i = 0; i < 400; i++) {
    const due = await NotificationModel.countDocuments({ status: 'queued', dueAt: { $lte: new Date(Date.now() + ahead.ms) } });
    if (!due && senders.every((sender) => !sender.busy)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the queue never drained');
}
