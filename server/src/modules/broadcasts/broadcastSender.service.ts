import type { Api } from 'grammy';
import type { Types } from 'mongoose';
import type { Language, RecipientStatus } from '@gift/shared';
import type { Logger } from '../../lib/logger';
import { BotApiError, isUnreachableChat, toBotApiError } from '../../lib/telegramBot';
import { isDuplicateKey } from '../../db/mongoErrors';
import { runIfFree } from '../jobs/jobLease.service';
import { notificationsWaiting } from '../notifications/notifications.service';
import { playersNotActiveAmong, stopMessaging } from '../users/players.service';
import { BroadcastModel, BroadcastPaceModel, BroadcastRecipientModel, PACE_ID } from './broadcast.model';
import {
  finishIfDrained,
  materialise,
  renderBroadcast,
  sendBroadcastMessage,
  sendingBroadcasts,
  startDueBroadcasts,
  type AppLinks,
} from './broadcasts.service';

/** Seconds of sending claimed at once: a pause or a cancel takes effect after at most this much. */
const BATCH_SECONDS = 1;
/** Calls to Telegram open at once per instance. */
const MAX_IN_FLIGHT = 10;
/** A claimed recipient not yet tried is taken over by another instance after this. */
const CLAIM_LEASE_MS = 60_000;
/** Tries of one message before it is given up (a 429 is not a try: it is waited out). */
export const MAX_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 30_000;
const IDLE_MS = 1000;
/** How long the broadcasts give way when a transactional message is waiting. */
const GIVE_WAY_MS = 250;
const SETTLE_EVERY_MS = 5000;
/** What a recipient found mid-send after its sender stopped is settled as: perhaps delivered, so never sent again. */
/** What a recipient whose player was frozen or banned after the start is settled as. */
export const NOT_ACTIVE = 'Not sent: the player is frozen or banned';
export const INTERRUPTED = 'The sender stopped during this send; it may have arrived and is not sent again';

export interface BroadcastSenderOptions {
  /** The bot's paced Bot API (the throttler and auto-retry the notifications use); null while there is no bot. */
  api: () => Api | null;
  links: AppLinks;
  /** Messages a second across every instance (BROADCAST_RATE). */
  rate: number;
  /** How long a message being sent is held before another instance settles it as interrupted. */
  sendingLeaseMs: number;
  /** This instance, as leases name it. */
  holder: string;
  logger: Logger;
  clock?: () => Date;
  /** Waits `ms` on the sender's clock (tests pass a fake clock's). */
  sleep?: (ms: number) => Promise<void>;
}

type Recipient = {
  _id: Types.ObjectId;
  broadcast: Types.ObjectId;
  user: Types.ObjectId;
  telegramId: number;
  language: string;
  attempts: number;
  leaseHolder: string;
};
type Rendered = Awaited<ReturnType<typeof renderBroadcast>>;

/**
 * Sends the broadcasts being sent, on every instance at once. Each round it claims about a second of
 * recipients (a conditional update, so instances never claim the same), reserves their send times from the pace
 * all instances share, and sends each at its time. A recipient is marked `sending` just before its call and
 * settled after: sent, blocked (the player's message permission is cleared), retried a few times, or failed.
 * Transactional notifications go first: while one is waiting, broadcasts give way.
 */
export class BroadcastSender {
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly clock: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;
  private wake: (() => void) | null = null;
  private claims = 0;
  private lastSettle = 0;
  /** Telegram asked every sender to wait (a 429) until then. */
  private holdUntil = 0;
  private readonly tally = new Map<string, Partial<Record<RecipientStatus, number>>>();
  private readonly rendered = new Map<string, Promise<Rendered>>();

  constructor(private readonly options: BroadcastSenderOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.sleep =
      options.sleep ??
      ((ms) =>
        new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            this.wake = null;
            resolve();
          };
          const timer = setTimeout(done, ms);
          this.wake = done;
        }));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming, and resolves once the messages in flight are settled. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    await this.flushTally();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const waitMs = await this.round();
        if (waitMs > 0 && this.running) await this.sleep(waitMs);
      } catch (error) {
        this.options.logger.warn({ err: error }, 'broadcast round failed');
        if (this.running) await this.sleep(IDLE_MS);
      }
    }
  }

  /** One round; answers how long to wait before the next. */
  private async round(): Promise<number> {
    const now = this.clock();
    await this.flushTally();
    await startDueBroadcasts(now);
    if (now.getTime() - this.lastSettle >= SETTLE_EVERY_MS) {
      this.lastSettle = now.getTime();
      await settleInterrupted(now);
    }
    const api = this.options.api();
    const live = await sendingBroadcasts();
    if (!api || !live.length) return IDLE_MS;
    const unrecorded = live.filter((b) => !b.materialisedAt);
    for (const broadcast of unrecorded) {
      // one instance records the audience; the others send what is recorded meanwhile
      await runIfFree(`broadcast-audience:${String(broadcast._id)}`, () => materialise(broadcast._id, now), { ttlMs: 60_000 });
    }
    // read again only when an audience was being recorded: it may be complete now
    const ready = (unrecorded.length ? await sendingBroadcasts() : live).filter((b) => b.materialisedAt);
    if (!ready.length) return IDLE_MS;
    if (await notificationsWaiting(now)) return GIVE_WAY_MS;
    const claimed = await this.claim(
      ready.map((b) => b._id),
      Math.max(1, Math.round(this.options.rate * BATCH_SECONDS)),
      now,
    );
    // a player frozen or banned since the audience was recorded is not written to (finding 11)
    const excluded = await playersNotActiveAmong(claimed.map((r) => r.user));
    if (excluded.size) await this.skip(claimed.filter((r) => excluded.has(String(r.user))));
    const batch = claimed.filter((r) => !excluded.has(String(r.user)));
    if (claimed.length && !batch.length) return 0;
    if (!batch.length) {
      for (const broadcast of ready) await finishIfDrained(broadcast._id, now);
      return IDLE_MS;
    }
    const interval = 1000 / this.options.rate;
    const start = await reserveSlots(batch.length, interval, now);
    for (const [i, recipient] of batch.entries()) {
      if (!this.running) {
        // stopping: the rest of the round goes back to the queue for another instance (or this one, restarted)
        await release(batch.slice(i));
        break;
      }
      while (this.inFlight.size >= MAX_IN_FLIGHT) await Promise.race(this.inFlight);
      const message = await this.render(recipient);
      // marked before its time comes, so the call itself starts right at its time
      if (!(await this.markSending(recipient))) continue;
      const wait = Math.max(start + i * interval, this.holdUntil) - this.clock().getTime();
      if (wait > 0) await this.sleep(wait);
      if (!this.running) {
        // woken by a stop before its time: not sent, so back to the queue with its try given back
        await this.requeue(recipient, new Date(0), '', -1);
        await release(batch.slice(i + 1));
        break;
      }
      const sending = this.deliver(api, recipient, message).catch((error) =>
        this.options.logger.warn({ err: error, recipient: String(recipient._id) }, 'broadcast message not settled'),
      );
      this.inFlight.add(sending);
      void sending.finally(() => this.inFlight.delete(sending));
    }
    return 0;
  }

  /** Claims up to `count` due recipients of these broadcasts for this round: one conditional update for all. */
  private async claim(broadcasts: Types.ObjectId[], count: number, now: Date): Promise<Recipient[]> {
    const free = { $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }] };
    const candidates = await BroadcastRecipientModel.find(
      { broadcast: { $in: broadcasts }, status: 'queued', dueAt: { $lte: now }, ...free },
      { _id: 1 },
    )
      .limit(count)
      .lean();
    if (!candidates.length) return [];
    const token = `${this.options.holder}#${++this.claims}`;
    const ids = candidates.map((c) => c._id);
    await BroadcastRecipientModel.updateMany(
      { _id: { $in: ids }, status: 'queued', ...free },
      { $set: { leaseHolder: token, leaseUntil: new Date(now.getTime() + Math.min(CLAIM_LEASE_MS, this.options.sendingLeaseMs)) } },
    );
    return BroadcastRecipientModel.find({ _id: { $in: ids }, leaseHolder: token }).lean();
  }

  private render(recipient: Recipient): Promise<Rendered> {
    const language: Language = recipient.language === 'fa' ? 'fa' : 'en';
    const key = `${String(recipient.broadcast)}:${language}`;
    let rendered = this.rendered.get(key);
    if (!rendered) {
      rendered = BroadcastModel.findById(recipient.broadcast, { text: 1, fa: 1, imageUrl: 1, button: 1 })
        .lean()
        .then((broadcast) => renderBroadcast(broadcast!, language, this.options.links))
        .catch((error: unknown) => {
          this.rendered.delete(key);
          throw error;
        });
      this.rendered.set(key, rendered);
    }
    return rendered;
  }

  /** Marks a claimed recipient as being sent, holding it for the sending lease; false when the claim was lost. */
  private async markSending(recipient: Recipient): Promise<boolean> {
    const marked = await BroadcastRecipientModel.updateOne(
      { _id: recipient._id, status: 'queued', leaseHolder: recipient.leaseHolder },
      { $set: { status: 'sending', leaseUntil: new Date(this.clock().getTime() + this.options.sendingLeaseMs) }, $inc: { attempts: 1 } },
    );
    return marked.modifiedCount === 1;
  }

  private async deliver(api: Api, recipient: Recipient, message: Rendered): Promise<void> {
    const attempts = recipient.attempts + 1;
    try {
      await sendBroadcastMessage(api, recipient.telegramId, message);
    } catch (caught) {
      const error = toBotApiError(caught, 'sendMessage');
      const why = error instanceof BotApiError ? error.description : 'unexpected error';
      if (error instanceof BotApiError && error.status === 429) {
        // not delivered: every sender waits it out, and this one goes back to the queue without spending a try
        const until = this.clock().getTime() + (error.retryAfter ?? 1) * 1000;
        this.holdUntil = Math.max(this.holdUntil, until);
        await holdPace(until);
        return this.requeue(recipient, new Date(0), why, -1);
      }
      if (isUnreachableChat(error)) {
        await stopMessaging(recipient.user);
        return this.settle(recipient, 'blocked', why);
      }
      // a refused request (a bad image, a chat that does not exist) fails the same way again
      const refused = error instanceof BotApiError && error.status >= 400 && error.status < 500;
      if (refused || attempts >= MAX_ATTEMPTS) return this.settle(recipient, 'failed', why);
      return this.requeue(recipient, new Date(this.clock().getTime() + RETRY_PAUSE_MS * attempts), why, 0);
    }
    await this.settle(recipient, 'sent', '');
  }

  /** Claimed recipients not to be sent at all (their player is frozen or banned): settled as failed, with why, never sent. */
  private async skip(recipients: Recipient[]): Promise<void> {
    for (const recipient of recipients) {
      const settled = await BroadcastRecipientModel.updateOne(
        { _id: recipient._id, status: 'queued', leaseHolder: recipient.leaseHolder },
        { $set: { status: 'failed', outcome: NOT_ACTIVE, leaseUntil: null } },
      );
      if (!settled.modifiedCount) continue;
      const key = String(recipient.broadcast);
      const counts = this.tally.get(key) ?? {};
      counts.failed = (counts.failed ?? 0) + 1;
      this.tally.set(key, counts);
    }
  }

  private async requeue(recipient: Recipient, dueAt: Date, why: string, attemptsBack: number): Promise<void> {
    await BroadcastRecipientModel.updateOne(
      { _id: recipient._id, status: 'sending' },
      { $set: { status: 'queued', dueAt, leaseUntil: null, leaseHolder: '', outcome: why }, $inc: { attempts: attemptsBack } },
    );
  }

  private async settle(recipient: Recipient, status: 'sent' | 'failed' | 'blocked', outcome: string): Promise<void> {
    const now = this.clock();
    const settled = await BroadcastRecipientModel.updateOne(
      { _id: recipient._id, status: 'sending' },
      { $set: { status, outcome, leaseUntil: null, ...(status === 'sent' ? { sentAt: now } : {}) } },
    );
    if (!settled.modifiedCount) return;
    const key = String(recipient.broadcast);
    const counts = this.tally.get(key) ?? {};
    counts[status] = (counts[status] ?? 0) + 1;
    this.tally.set(key, counts);
  }

  /** Adds what this instance settled since the last round to the figures of broadcasts not yet done (those are recounted): one write per broadcast. */
  private async flushTally(): Promise<void> {
    const entries = [...this.tally.entries()];
    this.tally.clear();
    for (const [broadcast, counts] of entries) {
      await BroadcastModel.updateOne(
        { _id: broadcast, status: { $ne: 'done' } },
        { $inc: { sent: counts.sent ?? 0, failed: counts.failed ?? 0, blocked: counts.blocked ?? 0 } },
      );
    }
  }
}

/** Gives claimed recipients back before their time: they were not marked, so nothing of them was sent. */
async function release(recipients: Recipient[]): Promise<void> {
  await BroadcastRecipientModel.updateMany(
    { _id: { $in: recipients.map((r) => r._id) }, status: 'queued', leaseHolder: recipients[0]?.leaseHolder },
    { $set: { leaseUntil: null, leaseHolder: '' } },
  );
}

/**
 * Reserves `count` send times, `interval` ms apart, from the pace every instance shares: one conditional
 * update, tried again when another instance reserved first. Answers the first time.
 */
export async function reserveSlots(count: number, interval: number, now: Date): Promise<number> {
  for (;;) {
    const pace = await BroadcastPaceModel.findById(PACE_ID).lean();
    if (!pace) {
      await BroadcastPaceModel.create({ _id: PACE_ID, nextAt: new Date(0) }).catch((error: unknown) => {
        if (!isDuplicateKey(error)) throw error;
      });
      continue;
    }
    const start = Math.max(pace.nextAt.getTime(), now.getTime());
    const taken = await BroadcastPaceModel.updateOne(
      { _id: PACE_ID, nextAt: pace.nextAt },
      { $set: { nextAt: new Date(start + count * interval) } },
    );
    if (taken.modifiedCount === 1) return start;
  }
}

/** Telegram said to wait until `until`: no instance reserves a time before it. */
async function holdPace(until: number): Promise<void> {
  await BroadcastPaceModel.updateOne({ _id: PACE_ID, nextAt: { $lt: new Date(until) } }, { $set: { nextAt: new Date(until) } });
}

/**
 * Recipients left `sending` by a sender that stopped (its lease ran out) may have been delivered: they are
 * settled as failed, with the reason, and never sent again. The figures are recounted when the broadcast ends.
 */
export async function settleInterrupted(now: Date): Promise<number> {
  const settled = await BroadcastRecipientModel.updateMany(
    { status: 'sending', leaseUntil: { $lte: now } },
    { $set: { status: 'failed', outcome: INTERRUPTED, leaseUntil: null } },
  );
  return settled.modifiedCount;
}
