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
/**
 * The longest lease a sender holds on its recipients (claimed, or being sent) without renewing it. It renews them
 * every third of it while it lives, so a sender that dies has its claims taken over, and its sends in flight settled
 * as unknown, by another instance (or itself, restarted) within seconds.
 */
export const LIVE_LEASE_MS = 4000;
/** Tries of one message before it is given up (a 429 is not a try: it is waited out). */
export const MAX_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 30_000;
const IDLE_MS = 1000;
/** How long the broadcasts give way when a transactional message is waiting. */
const GIVE_WAY_MS = 250;
/** How often a sender looks for sends left in flight by a sender that died. */
const SETTLE_EVERY_MS = 1000;
/** What a recipient whose player was frozen or banned after the start is settled as. */
export const NOT_ACTIVE = 'Not sent: the player is frozen or banned';
/** Why a recipient found mid-send after its sender stopped is `unknown`: perhaps delivered, so not sent again unless resent. */
export const INTERRUPTED = 'Outcome unknown: the sender stopped during this send; it may have arrived and is not sent again unless resent';

export interface BroadcastSenderOptions {
  /** The bot's paced Bot API (the throttler and auto-retry the notifications use); null while there is no bot. */
  api: () => Api | null;
  links: AppLinks;
  /** Messages a second across every instance (BROADCAST_RATE). */
  rate: number;
  /**
   * The lease on a claimed recipient or a message being sent (BROADCAST_LEASE_MS), at most LIVE_LEASE_MS: renewed
   * every third of it while this sender lives; once it runs out, another instance settles a message left mid-send as
   * unknown.
   */
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
 * Its claims and sends are held by a short lease it renews while it lives: when it dies, another instance takes
 * its claims over and settles its sends in flight as unknown within seconds.
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
  /** The lease this sender takes and renews. */
  private readonly leaseMs: number;
  /** Recipients this sender holds (claimed or being sent), by id, with their claim's token: what its renewals extend. */
  private readonly held = new Map<string, string>();
  private renewTimer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  private lastRenew = 0;

  constructor(private readonly options: BroadcastSenderOptions) {
    this.leaseMs = Math.min(options.sendingLeaseMs, LIVE_LEASE_MS);
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
    // on its own timer, so a round waiting on calls still keeps its leases, and settles a dead sender's sends in time
    this.renewTimer = setInterval(() => void this.tend(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.renewTimer.unref();
    this.loop = this.run();
  }

  /** Stops claiming, and resolves once the messages in flight are settled. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = null;
    await this.flushTally();
  }

  /**
   * Extends the lease on the recipients this sender still holds once less than two thirds of it is left: one
   * conditional update by its claims' tokens, matching only records still under its claim (not taken over, settled or
   * given back meanwhile); those claimed or renewed less than a third of a lease ago are not written again. Never two
   * at once.
   */
  private renew(): Promise<void> {
    if (this.renewing) return this.renewing;
    const renewing = (async () => {
      const now = this.clock();
      this.lastRenew = now.getTime();
      if (!this.held.size) return;
      await BroadcastRecipientModel.updateMany(
        {
          leaseHolder: { $in: [...new Set(this.held.values())] },
          status: { $in: ['queued', 'sending'] },
          leaseUntil: { $ne: null, $lt: new Date(now.getTime() + (2 * this.leaseMs) / 3) },
        },
        { $set: { leaseUntil: new Date(now.getTime() + this.leaseMs) } },
      );
    })()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'broadcast leases not renewed'))
      .finally(() => (this.renewing = null));
    this.renewing = renewing;
    return renewing;
  }

  /**
   * Renews this sender's leases, then (once a second) settles as unknown the sends a sender that died left in flight:
   * its own leases first, so only a sender that stopped renewing leaves sends to settle.
   */
  private async tend(): Promise<void> {
    await this.renew();
    const now = this.clock();
    if (now.getTime() - this.lastSettle < SETTLE_EVERY_MS) return;
    this.lastSettle = now.getTime();
    await settleInterrupted(now).catch((error: unknown) =>
      this.options.logger.warn({ err: error }, 'interrupted broadcast sends not settled'),
    );
  }

  /** Renews when a third of the lease has passed on the sender's clock (a fake clock in tests moves faster than the timer). */
  private async renewIfDue(): Promise<void> {
    if (this.clock().getTime() - this.lastRenew >= this.leaseMs / 3) await this.renew();
  }

  private forget(recipient: Recipient): void {
    this.held.delete(String(recipient._id));
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
    await this.tend();
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
        await release(batch.slice(i), this.held);
        break;
      }
      while (this.inFlight.size >= MAX_IN_FLIGHT) await Promise.race(this.inFlight);
      // not waited for: the timer keeps the leases in real time; this keeps them on a fake clock, which runs faster
      void this.renewIfDue();
      const message = await this.render(recipient);
      // marked before its time comes, so the call itself starts right at its time
      if (!(await this.markSending(recipient))) {
        this.forget(recipient);
        continue;
      }
      const wait = Math.max(start + i * interval, this.holdUntil) - this.clock().getTime();
      if (wait > 0) await this.sleep(wait);
      if (!this.running) {
        // woken by a stop before its time: not sent, so back to the queue with its try given back
        await this.requeue(recipient, new Date(0), '', -1);
        await release(batch.slice(i + 1), this.held);
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
      { $set: { leaseHolder: token, leaseUntil: new Date(now.getTime() + this.leaseMs) } },
    );
    const claimed = await BroadcastRecipientModel.find({ _id: { $in: ids }, leaseHolder: token, status: 'queued' }).lean();
    for (const recipient of claimed) this.held.set(String(recipient._id), token);
    return claimed;
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
      { $set: { status: 'sending', leaseUntil: new Date(this.clock().getTime() + this.leaseMs) }, $inc: { attempts: 1 } },
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
      this.forget(recipient);
      if (!settled.modifiedCount) continue;
      const key = String(recipient.broadcast);
      const counts = this.tally.get(key) ?? {};
      counts.failed = (counts.failed ?? 0) + 1;
      this.tally.set(key, counts);
    }
  }

  private async requeue(recipient: Recipient, dueAt: Date, why: string, attemptsBack: number): Promise<void> {
    await BroadcastRecipientModel.updateOne(
      { _id: recipient._id, status: 'sending', leaseHolder: recipient.leaseHolder },
      { $set: { status: 'queued', dueAt, leaseUntil: null, leaseHolder: '', outcome: why }, $inc: { attempts: attemptsBack } },
    );
    this.forget(recipient);
  }

  private async settle(recipient: Recipient, status: 'sent' | 'failed' | 'blocked', outcome: string): Promise<void> {
    const now = this.clock();
    // only its own send: one another instance settled as unknown meanwhile (this sender stalled past its lease) stays unknown
    const settled = await BroadcastRecipientModel.updateOne(
      { _id: recipient._id, status: 'sending', leaseHolder: recipient.leaseHolder },
      { $set: { status, outcome, leaseUntil: null, ...(status === 'sent' ? { sentAt: now } : {}) } },
    );
    this.forget(recipient);
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
        { $inc: { sent: counts.sent ?? 0, failed: counts.failed ?? 0, blocked: counts.blocked ?? 0, unknown: counts.unknown ?? 0 } },
      );
    }
  }
}

/** Gives claimed recipients back before their time: they were not marked, so nothing of them was sent. */
async function release(recipients: Recipient[], held: Map<string, string>): Promise<void> {
  await BroadcastRecipientModel.updateMany(
    { _id: { $in: recipients.map((r) => r._id) }, status: 'queued', leaseHolder: recipients[0]?.leaseHolder },
    { $set: { leaseUntil: null, leaseHolder: '' } },
  );
  for (const recipient of recipients) held.delete(String(recipient._id));
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
 * Recipients left `sending` by a sender that stopped (its lease ran out, unrenewed) may or may not have been
 * delivered: each is settled as `unknown`, with the reason, by one conditional update, and counted on its broadcast;
 * never sent again unless an operator resends to the unknown ones. The figures are recounted when the broadcast ends.
 */
export async function settleInterrupted(now: Date): Promise<number> {
  const stale = await BroadcastRecipientModel.find({ status: 'sending', leaseUntil: { $lte: now } }, { broadcast: 1 })
    .limit(1000)
    .lean();
  let settled = 0;
  for (const recipient of stale) {
    const moved = await BroadcastRecipientModel.updateOne(
      { _id: recipient._id, status: 'sending', leaseUntil: { $lte: now } },
      { $set: { status: 'unknown', outcome: INTERRUPTED, leaseUntil: null } },
    );
    if (!moved.modifiedCount) continue;
    settled++;
    await BroadcastModel.updateOne({ _id: recipient.broadcast, status: { $ne: 'done' } }, { $inc: { unknown: 1 } });
  }
  return settled;
}
