import type { Api } from 'grammy';
import type { Language } from '@gift/shared';
import type { Logger } from '../../lib/logger';
import { BotApiError, isUnreachableChat, toBotApiError } from '../../lib/telegramBot';
import { objectId, type Id } from '../../db/ids';
import { allowsMessages, allowsReminder, messageRecipient, stopMessaging } from '../users/players.service';
import { NotificationModel, SETTLED_KEPT_MS } from './notification.model';
import { notificationText, openAppLabel, type NotificationEvent, type NotificationFacts } from './notificationTexts';
import { upsertWithRetry } from '../../db/mongoErrors';
import { isReminder, reminderVerdict, streakReminderFor } from './reminders';
import { notificationTarget } from './notificationTargets';

/** A sender keeps a claimed message this long; one that crashed mid-send is taken over after it. */
const LEASE_MS = 10 * 60_000;
/** Messages in flight at once: the throttler paces them to Telegram's limits. */
const MAX_IN_FLIGHT = 30;
/** After this many failed tries a message is given up (Telegram refused it or stayed unreachable). */
const MAX_ATTEMPTS = 5;
const RETRY_PAUSE_MS = 60_000;
const IDLE_POLL_MS = 1000;

let reportProblem: (error: unknown, key: string) => void = () => {};

/** Where a notification that could not be queued is reported; queuing never fails the event itself. */
export function reportNotificationProblemsTo(logger: Logger): void {
  reportProblem = (error, key) => logger.warn({ err: error, key }, 'notification not queued');
}

/**
 * Queues a message to a player about something that just happened (or will, at `scheduledFor`), once per
 * `key`. Called by the services after their state change succeeded; it never throws, so the event
 * stands even when the queue is unreachable. Players without message permission get none.
 */
export async function notify<E extends NotificationEvent>(
  userId: Id,
  key: string,
  event: E,
  facts: NotificationFacts[E],
  scheduledFor?: Date,
): Promise<void> {
  try {
    const user = objectId(userId);
    // a scheduled message is checked when due instead: the player may allow messages by then (every message is checked then too)
    if (!scheduledFor && !(await (isReminder(event) ? allowsReminder(user, event) : allowsMessages(user)))) return;
    // the same event queued twice at once: the unique key keeps one, and the retry finds it queued
    await upsertWithRetry(() =>
      NotificationModel.updateOne(
        { key },
        {
          $setOnInsert: {
            key,
            user,
            event,
            facts,
            status: 'queued',
            dueAt: scheduledFor ?? new Date(),
            leaseUntil: null,
            leaseHolder: '',
            attempts: 0,
          },
        },
        { upsert: true },
      ),
    );
  } catch (error) {
    reportProblem(error, key);
  }
}

/**
 * A daily mission kept the player's streak on `keptDay` (at `days` days): they are reminded the next evening, App Config's hours
 * before that day ends, unless they keep it that day first. Once per player and day, however often the day is counted.
 */
export async function remindStreakEnding(userId: Id, keptDay: string, days: number, now: Date): Promise<void> {
  const reminder = await streakReminderFor(keptDay, now);
  if (reminder)
    await notify(userId, `streak-ending:${String(userId)}:${reminder.day}`, 'streak-ending', { days, day: reminder.day }, reminder.dueAt);
}

/** Whether a transactional message is due and free to send: broadcasts give way to it. */
export async function notificationsWaiting(now: Date): Promise<boolean> {
  const due = await NotificationModel.exists({
    status: 'queued',
    dueAt: { $lte: now },
    $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }],
  });
  return due !== null;
}

type Claimed = NonNullable<Awaited<ReturnType<typeof claimNext>>>;

/** Takes the next due message for `holder`: one conditional update, so two senders never take the same. */
function claimNext(holder: string, now: Date) {
  return NotificationModel.findOneAndUpdate(
    { status: 'queued', dueAt: { $lte: now }, $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }] },
    { $set: { leaseUntil: new Date(now.getTime() + LEASE_MS), leaseHolder: holder }, $inc: { attempts: 1 } },
    { sort: { dueAt: 1, _id: 1 }, returnDocument: 'after' },
  ).lean();
}

export interface NotificationSenderOptions {
  /** The paced Bot API (throttler + auto-retry) of the current token; null while there is no bot. */
  api: () => Api | null;
  /** The t.me link that opens the mini app, for the message's button: at the page of `startParam` when given (a page target). */
  openAppUrl: (startParam?: string) => Promise<string | undefined>;
  /** This instance, as named in leases. */
  holder: string;
  logger: Logger;
  clock?: () => Date;
}

/** Sends queued notifications while started: up to MAX_IN_FLIGHT at once, paced by the API's throttler. */
export class NotificationSender {
  private inFlight = 0;
  private filling = false;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly clock: () => Date;

  constructor(private readonly options: NotificationSenderOptions) {
    this.clock = options.clock ?? (() => new Date());
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.fill();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  get busy(): boolean {
    return this.inFlight > 0;
  }

  /** Claims due messages while there is room, sends each without waiting, and looks again later. */
  private async fill(): Promise<void> {
    if (this.filling || !this.running) return;
    this.filling = true;
    clearTimeout(this.timer);
    try {
      const api = this.options.api();
      while (api && this.running && this.inFlight < MAX_IN_FLIGHT) {
        const claimed = await claimNext(this.options.holder, this.clock());
        if (!claimed) break;
        this.inFlight++;
        void this.deliver(api, claimed)
          .catch((error) => this.options.logger.warn({ err: error, key: claimed.key }, 'notification not sent'))
          .finally(() => {
            this.inFlight--;
            void this.fill();
          });
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'notification queue unreachable');
    } finally {
      this.filling = false;
      if (this.running) this.timer = setTimeout(() => void this.fill(), IDLE_POLL_MS);
    }
  }

  private async deliver(api: Api, message: Claimed): Promise<void> {
    const user = await messageRecipient(message.user);
    if (!user?.messagePermission) return this.settle(message, 'skipped', 'no message permission');
    let silent = false;
    if (isReminder(message.event)) {
      const verdict = await reminderVerdict({ key: message.key, event: message.event, facts: message.facts }, user, this.clock());
      if ('skip' in verdict) return this.settle(message, 'skipped', verdict.skip);
      // quiet hours: back in the queue until they end, without counting as a try
      if ('wait' in verdict) return this.release(message, verdict.wait, '', -1);
      silent = verdict.silent;
    }
    const language: Language = user.language === 'fa' ? 'fa' : 'en';
    const text = notificationText(language, message.event as NotificationEvent, message.facts as never);
    // the button opens the page the message is about (shared/src/pageTargets.ts)
    const url = await this.options.openAppUrl(notificationTarget(message.event as NotificationEvent, message.facts as never));
    try {
      await api.sendMessage(user.telegramId, text, {
        link_preview_options: { is_disabled: true },
        ...(silent ? { disable_notification: true } : {}),
        ...(url ? { reply_markup: { inline_keyboard: [[{ text: openAppLabel(language), url }]] } } : {}),
      });
    } catch (caught) {
      const error = toBotApiError(caught, 'sendMessage');
      const why = error instanceof BotApiError ? error.description : 'unexpected error';
      if (isUnreachableChat(error)) {
        // blocked the bot (or left Telegram): stop writing to them until they start the bot again
        await stopMessaging(user._id);
        return this.settle(message, 'skipped', why);
      }
      if (message.attempts >= MAX_ATTEMPTS) return this.settle(message, 'failed', why);
      return this.release(message, new Date(this.clock().getTime() + RETRY_PAUSE_MS * message.attempts), why, 0);
    }
    await this.settle(message, 'sent', '');
  }

  /** Gives a claimed message back to the queue, due at `dueAt`; `tries` corrects the count of tries its claim added. */
  private async release(message: Claimed, dueAt: Date, outcome: string, tries: number): Promise<void> {
    await NotificationModel.updateOne(
      { _id: message._id, leaseHolder: this.options.holder },
      { $set: { dueAt, leaseUntil: null, leaseHolder: '', outcome }, ...(tries ? { $inc: { attempts: tries } } : {}) },
    );
  }

  private async settle(message: Claimed, status: 'sent' | 'skipped' | 'failed', outcome: string): Promise<void> {
    const now = this.clock();
    await NotificationModel.updateOne(
      { _id: message._id, status: 'queued' },
      { $set: { status, outcome, leaseUntil: null, settledAt: now, ...(status === 'sent' ? { sentAt: now } : {}) } },
    );
  }
}

/** Removes messages settled over 30 days ago, as the TTL index does on MongoDB (the embedded engine never expires). */
export async function removeSettledNotifications(now: Date): Promise<number> {
  return (await NotificationModel.deleteMany({ settledAt: { $lte: new Date(now.getTime() - SETTLED_KEPT_MS) } })).deletedCount;
}
