import type { Api } from 'grammy';
import type { BroadcastInput, BroadcastSegment, BroadcastStatus, BroadcastUpdate, Language } from '@gift/shared';
import type { Env } from '../../env';
import { AppError, badInput } from '../../lib/errors';
import { BotApiError, interactiveApi, toBotApiError } from '../../lib/telegramBot';
import { operatorTelegramId } from '../accounts/accounts.service';
import { openInTelegramLink, resolveBotToken } from '../config/config.service';
import { isDuplicateKey } from '../../db/mongoErrors';
import { objectId, type Id } from '../../db/ids';
import { recordAudit, type Operator } from '../audit/audit.service';
import { BroadcastModel, BroadcastRecipientModel, recipientId, type BroadcastDocument, type BroadcastRecord } from './broadcast.model';
import { forEachSegmentPage } from './segments';

export type { BroadcastRecord };

/** Where a broadcast's button leads: the mini app at a page (a web_app button needs the app's https address). */
export interface AppLinks {
  /** The app's public https address (PUBLIC_URL), when it has one. */
  publicUrl?: string;
  /** The t.me link that opens the mini app, used when there is no public address. */
  openAppUrl: () => Promise<string | undefined>;
}

/** What the console's routes need of the server's settings, given once by the app (createApp). */
let settings: Pick<Env, 'BROADCAST_RATE' | 'PUBLIC_URL' | 'TELEGRAM_API_ROOT' | 'TELEGRAM_BOT_TOKEN'> | null = null;

export function configureBroadcasts(env: Env): void {
  settings = env;
}

/** The bot's token, which sends broadcasts; a console action that needs it is refused without one. */
export async function requireBotToken(): Promise<string> {
  const token = settings ? await resolveBotToken(settings as Env) : undefined;
  if (!token) throw new AppError('BOT_MISSING');
  return token;
}

/** Broadcast messages a second across every instance. */
export const broadcastRate = () => settings?.BROADCAST_RATE ?? 20;

/** Where buttons lead when the bot's own name is not at hand: App Config's bot. */
function appLinks(): AppLinks {
  return { publicUrl: settings?.PUBLIC_URL, openAppUrl: async () => (await openInTelegramLink()) ?? undefined };
}

/**
 * Whether a button opens the page it names: only through the app's public https address (PUBLIC_URL), as a web_app
 * button. Without one a button leads to the app's t.me link, which opens the app at its home page (and without a bot
 * name to build that link, the message goes without its button). The console says so beside the button's fields;
 * it learns a yes or no, never the address.
 */
export function buttonsOpenTheirPage(): boolean {
  return appLinks().publicUrl?.startsWith('https://') ?? false;
}

type Content = Pick<BroadcastDocument, 'text' | 'fa' | 'imageUrl' | 'button'>;

/** The message as a player in `language` gets it: the Persian text where one is given, else the English. */
export async function renderBroadcast(broadcast: Content, language: Language, links: AppLinks) {
  const text = (language === 'fa' && broadcast.fa?.text) || broadcast.text;
  const button = broadcast.button;
  let reply_markup: { inline_keyboard: Array<Array<Record<string, unknown>>> } | undefined;
  if (button?.text) {
    const label = (language === 'fa' && button.fa?.text) || button.text;
    const path = button.path || '/';
    if (links.publicUrl?.startsWith('https://')) {
      reply_markup = { inline_keyboard: [[{ text: label, web_app: { url: `${links.publicUrl.replace(/\/$/, '')}${path}` } }]] };
    } else {
      const url = await links.openAppUrl();
      if (url) reply_markup = { inline_keyboard: [[{ text: label, url }]] };
    }
  }
  return { text, imageUrl: broadcast.imageUrl || '', reply_markup };
}

/** Sends one rendered broadcast message: a photo with the text as its caption, or the text. */
export async function sendBroadcastMessage(api: Api, chatId: number, message: Awaited<ReturnType<typeof renderBroadcast>>) {
  const extra = { parse_mode: 'HTML' as const, ...(message.reply_markup ? { reply_markup: message.reply_markup as never } : {}) };
  if (message.imageUrl) await api.sendPhoto(chatId, message.imageUrl, { caption: message.text, ...extra });
  else await api.sendMessage(chatId, message.text, { link_preview_options: { is_disabled: true }, ...extra });
}

/** The console's record: the stored figures, what is left, and when the rest should be out at `rate` a second. */
export function presentBroadcast(doc: unknown, rate: number, now = new Date()): BroadcastRecord {
  const record = (doc as BroadcastDocument).toJSON() as unknown as BroadcastRecord;
  const remaining = Math.max(0, record.audience - record.sent - record.failed - record.blocked - (record.unknown ?? 0));
  const sending = record.status === 'sending' && record.materialisedAt;
  return {
    ...record,
    remaining,
    rate,
    expectedFinish: sending ? new Date(now.getTime() + Math.ceil((remaining / rate) * 1000)).toISOString() : null,
  };
}

/** A time already past is no schedule (finding 15): refused with the field's message, nothing saved. */
function refusePastSchedule(scheduledAt: Date | null | undefined, now: Date): void {
  if (scheduledAt && scheduledAt.getTime() <= now.getTime())
    throw badInput({ scheduledAt: 'Choose a time in the future, or none to send at once' });
}

export async function createBroadcast(input: BroadcastInput, operator: Operator, now = new Date()): Promise<BroadcastDocument> {
  refusePastSchedule(input.scheduledAt, now);
  return BroadcastModel.create({ ...input, status: 'draft', createdBy: operator.id });
}

/** Statuses a command may come from, and what it is called in a refusal. */
const MOVES: Record<'sending' | 'paused' | 'cancelled', { from: BroadcastStatus[]; action: string }> = {
  sending: { from: ['draft', 'scheduled', 'paused', 'sending'], action: 'started' },
  paused: { from: ['sending', 'scheduled', 'paused'], action: 'paused' },
  cancelled: { from: ['draft', 'scheduled', 'sending', 'paused'], action: 'cancelled' },
};
const EDITABLE: BroadcastStatus[] = ['draft', 'scheduled'];

/**
 * PUT /api/admin/broadcasts/:id. Content changes only before sending starts; a status command moves the
 * broadcast by one conditional update, so two operators pressing at once leave one outcome. Starting a draft
 * with a time in the future schedules it; a paused one goes back to sending (or to its schedule).
 */
export async function updateBroadcast(
  id: string,
  input: BroadcastUpdate,
  named: (field: string) => boolean,
  operator: Operator,
  now = new Date(),
): Promise<BroadcastDocument> {
  const current = await BroadcastModel.findById(id);
  if (!current) throw new AppError('NOT_FOUND');
  const content: Record<string, unknown> = {};
  for (const field of ['text', 'fa', 'imageUrl', 'button', 'segment', 'scheduledAt'] as const)
    if (named(field) && input[field] !== undefined) content[field] = input[field];
  if (Object.keys(content).length && !EDITABLE.includes(current.status)) {
    throw new AppError('BROADCAST_STATE', { status: current.status, action: 'edited' });
  }
  const command = input.status;
  // a new time must be ahead; so must a draft's saved time when it is started (a time passed while it waited is no schedule)
  if (named('scheduledAt')) refusePastSchedule(content.scheduledAt as Date | null | undefined, now);
  else if (command === 'sending' && current.status === 'draft') refusePastSchedule(current.scheduledAt, now);
  if (!command) {
    // an edit takes a scheduled broadcast back to a draft: what goes out is confirmed again with its new content
    const edited = await BroadcastModel.findOneAndUpdate(
      { _id: id, status: { $in: EDITABLE } },
      { $set: { ...content, status: 'draft' } },
      { returnDocument: 'after' },
    );
    if (!edited) throw new AppError('BROADCAST_STATE', { status: current.status, action: 'edited' });
    return edited;
  }
  const move = MOVES[command];
  if (!move.from.includes(current.status)) throw new AppError('BROADCAST_STATE', { status: current.status, action: move.action });
  const scheduledAt = (content.scheduledAt as Date | null | undefined) ?? current.scheduledAt;
  const next: BroadcastStatus = command === 'sending' && scheduledAt && scheduledAt > now ? 'scheduled' : command;
  const set: Record<string, unknown> = { ...content, status: next };
  if (next === 'sending' && !current.startedAt) set.startedAt = now;
  if (command === 'cancelled') set.finishedAt = now;
  const moved = await BroadcastModel.findOneAndUpdate({ _id: id, status: current.status }, { $set: set }, { returnDocument: 'after' });
  if (!moved) {
    const latest = await BroadcastModel.findById(id, { status: 1 }).lean();
    throw new AppError('BROADCAST_STATE', { status: latest?.status ?? 'gone', action: move.action });
  }
  if (command === 'sending' && current.status === 'draft') {
    // the text as it goes out, beside the status change the console's audit records; once per start (a draft
    // edited after its schedule is started again, with its new text)
    await recordAudit({
      operator,
      action: 'update',
      resource: 'broadcasts',
      record: id,
      before: null,
      after: {
        text: moved.text,
        fa: moved.fa,
        imageUrl: moved.imageUrl,
        button: moved.button,
        segment: moved.segment as BroadcastSegment,
        scheduledAt: moved.scheduledAt,
      },
      note: next === 'scheduled' ? 'scheduled: the message as it will be sent' : 'started: the message as sent',
      key: `broadcast-started:${id}:${moved.updatedAt.toISOString()}`,
    });
  }
  return moved;
}

/** Scheduled broadcasts whose time has come start sending (one conditional update each, whichever instance sees it first). */
export async function startDueBroadcasts(now: Date): Promise<number> {
  const due = await BroadcastModel.updateMany(
    { status: 'scheduled', scheduledAt: { $lte: now } },
    { $set: { status: 'sending', startedAt: now } },
  );
  return due.modifiedCount;
}

/**
 * Records the audience of a started broadcast: one recipient per player the segment reaches now. Their ids come
 * from the broadcast and the player, so a second run after a crash adds only the players the first one did not
 * reach, and nobody twice. Returns the audience.
 */
export async function materialise(broadcastId: Id, now = new Date()): Promise<number> {
  const broadcast = await BroadcastModel.findById(broadcastId).lean();
  if (!broadcast || broadcast.materialisedAt) return broadcast?.audience ?? 0;
  await forEachSegmentPage((broadcast.segment ?? {}) as BroadcastSegment, now, async (members) => {
    const records = members.map((m) => ({
      _id: recipientId(broadcast._id, String(m._id)),
      broadcast: broadcast._id,
      user: m._id,
      telegramId: m.telegramId,
      language: m.language === 'fa' ? 'fa' : 'en',
      // a lean insert (no casting of a page of documents) writes no defaults: every field is given
      status: 'queued',
      dueAt: new Date(0),
      leaseUntil: null,
      leaseHolder: '',
      attempts: 0,
      outcome: '',
      sentAt: null,
    }));
    try {
      await BroadcastRecipientModel.insertMany(records, { ordered: false, lean: true });
    } catch (error) {
      // recorded by an earlier, interrupted run
      if (!isDuplicateKey(error) && !(error as { writeErrors?: unknown[] }).writeErrors) throw error;
    }
  });
  const audience = await BroadcastRecipientModel.countDocuments({ broadcast: broadcast._id });
  await BroadcastModel.updateOne({ _id: broadcast._id, materialisedAt: null }, { $set: { materialisedAt: now, audience } });
  return audience;
}

/** The figures from the recipients themselves: exact whatever a crash did to the running counts. */
async function recountProgress(broadcastId: Id): Promise<void> {
  const id = objectId(broadcastId);
  const rows = await BroadcastRecipientModel.aggregate<{ _id: string; count: number }>([
    { $match: { broadcast: id } },
    { $group: { _id: '$status', count: { $sum: 1 } } },
  ]);
  const by = Object.fromEntries(rows.map((r) => [r._id, r.count])) as Record<string, number>;
  const audience = rows.reduce((sum, r) => sum + r.count, 0);
  await BroadcastModel.updateOne(
    { _id: id },
    { $set: { audience, sent: by.sent ?? 0, failed: by.failed ?? 0, blocked: by.blocked ?? 0, unknown: by.unknown ?? 0 } },
  );
}

/**
 * A broadcast with nothing left to send is done: the status first, conditionally (a pause or cancel pressed
 * meanwhile stands), then its figures recounted from the recipients, which no sender changes any more (their
 * running counts stop applying to a done broadcast), so they are exact whatever a crash did to them.
 */
export async function finishIfDrained(broadcastId: Id, now: Date): Promise<boolean> {
  const open = await BroadcastRecipientModel.exists({ broadcast: broadcastId, status: { $in: ['queued', 'sending'] } });
  if (open) return false;
  const done = await BroadcastModel.updateOne(
    { _id: broadcastId, status: 'sending', materialisedAt: { $ne: null } },
    { $set: { status: 'done', finishedAt: now } },
  );
  if (done.modifiedCount !== 1) return false;
  await recountProgress(broadcastId);
  return true;
}

/** Broadcasts being sent now, and whether each has its audience recorded (the sender reads their content when it renders). */
export function sendingBroadcasts() {
  return BroadcastModel.find({ status: 'sending' }, { materialisedAt: 1 }).lean();
}

/**
 * POST /api/admin/broadcasts/:id/test: the message as players will get it, sent now to the operator's own
 * Telegram account, in English and (when it has a Persian text) in Persian. Telegram's refusal is the answer.
 */
export async function sendTestBroadcast(id: string, operatorId: string): Promise<{ languages: Language[] }> {
  const broadcast = await BroadcastModel.findById(id, { text: 1, fa: 1, imageUrl: 1, button: 1 }).lean();
  if (!broadcast) throw new AppError('NOT_FOUND');
  const chatId = await operatorTelegramId(operatorId);
  if (!chatId) throw new AppError('NO_TELEGRAM_ID');
  const token = await requireBotToken();
  const api = interactiveApi({ apiRoot: settings!.TELEGRAM_API_ROOT, token });
  const languages: Language[] = broadcast.fa?.text || broadcast.button?.fa?.text ? ['en', 'fa'] : ['en'];
  for (const language of languages) {
    try {
      await sendBroadcastMessage(api, chatId, await renderBroadcast(broadcast, language, appLinks()));
    } catch (caught) {
      const error = toBotApiError(caught, 'sendMessage');
      throw new AppError('TELEGRAM_REFUSED', { reason: error instanceof BotApiError ? error.description : 'no answer' });
    }
  }
  return { languages };
}

/** How many of a broadcast's failures its page lists. */
const FAILURES_SHOWN = 100;

/**
 * GET /api/admin/broadcasts/:id/failures: players it did not reach (failed or blocked), or may not have reached
 * (unknown), with the reason, in the order recorded.
 */
export async function failuresOf(broadcastId: string) {
  const rows = await BroadcastRecipientModel.find(
    { broadcast: objectId(broadcastId), status: { $in: ['failed', 'blocked', 'unknown'] } },
    { user: 1, telegramId: 1, status: 1, outcome: 1, attempts: 1 },
  )
    .sort({ _id: 1 })
    .limit(FAILURES_SHOWN)
    .lean();
  return rows.map((row) => ({
    id: String(row._id),
    user: String(row.user),
    telegramId: row.telegramId,
    status: row.status,
    outcome: row.outcome,
    attempts: row.attempts,
  }));
}

/** What a recipient requeued by a resend to the unknown ones carries until it is settled again. */
export const RESENT = 'Resent by an operator after an unknown outcome';

/**
 * POST /api/admin/broadcasts/:id/resend-unknown: the operator's explicit choice to send again to the players whose
 * message had an unknown outcome (the sender died with it in flight), knowing some may get it twice. Only a finished
 * (`done`) broadcast with unknown ones. It is held paused by one conditional update on the finish it was read with,
 * so two presses at once requeue once (the second is refused); its unknown recipients are queued again with their
 * tries given back; then it goes back to sending. Held paused meanwhile, no sender can find it drained and finish it
 * before they are queued; a crash part-way leaves it paused, for the operator to resume (and, if nothing was queued,
 * to find it done again with its unknown ones).
 */
export async function resendUnknown(
  id: string,
  operator: Operator,
  now = new Date(),
): Promise<{ broadcast: BroadcastDocument; requeued: number }> {
  const current = await BroadcastModel.findById(id);
  if (!current) throw new AppError('NOT_FOUND');
  const action = 'resent to the players whose outcome is unknown';
  if (current.status !== 'done') throw new AppError('BROADCAST_STATE', { status: current.status, action });
  const unknown = await BroadcastRecipientModel.countDocuments({ broadcast: current._id, status: 'unknown' });
  if (!unknown) throw new AppError('BROADCAST_STATE', { status: 'done with no outcome unknown', action });
  const held = await BroadcastModel.updateOne(
    { _id: current._id, status: 'done', finishedAt: current.finishedAt },
    { $set: { status: 'paused', finishedAt: null } },
  );
  if (held.modifiedCount !== 1) {
    const latest = await BroadcastModel.findById(id, { status: 1 }).lean();
    throw new AppError('BROADCAST_STATE', { status: latest?.status ?? 'gone', action });
  }
  const requeued = await BroadcastRecipientModel.updateMany(
    { broadcast: current._id, status: 'unknown' },
    { $set: { status: 'queued', dueAt: new Date(0), leaseUntil: null, leaseHolder: '', attempts: 0, outcome: RESENT } },
  );
  await recountProgress(current._id);
  await BroadcastModel.updateOne(
    { _id: current._id, status: 'paused' },
    { $set: { status: 'sending', startedAt: current.startedAt ?? now } },
  );
  await recordAudit({
    operator,
    action: 'update',
    resource: 'broadcasts',
    record: id,
    before: { status: 'done', unknown: current.unknown },
    after: { status: 'sending', requeued: requeued.modifiedCount },
    note: `resent to the ${requeued.modifiedCount} players whose outcome was unknown: each may get it twice`,
    key: `broadcast-resend-unknown:${id}:${current.finishedAt?.toISOString() ?? ''}`,
  });
  return { broadcast: (await BroadcastModel.findById(id))!, requeued: requeued.modifiedCount };
}
