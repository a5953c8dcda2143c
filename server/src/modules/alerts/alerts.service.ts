import { createHash, randomBytes } from 'node:crypto';
import type { Api } from 'grammy';
import { hasPermission, OPERATOR_ALERT_KINDS, type Language, type OperatorAlertKind } from '@gift/shared';
import { objectId } from '../../db/ids';
import { upsertWithRetry } from '../../db/mongoErrors';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { BotApiError, toBotApiError } from '../../lib/telegramBot';
import { countGrantsWaitingFor, grantsWaitingSince, operatorsByIds } from '../accounts/operatorRoster.service';
import { broadcastsFinishedSince } from '../broadcasts/broadcastsFinished.service';
import { unmatchedStarPaymentsSince } from '../shop/starsReconcile.service';
import { getAppConfig } from '../config/config.service';
import { BRAKE_RESOURCES } from '../dashboard/changesWaiting.service';
import { liveFigures } from '../dashboard/dashboard.service';
import { countClaimsWaiting, countClaimsWaitingBetween } from '../missions/claimsWaiting.service';
import { countGiftsWaitingFor, giftsWaitingSince } from '../gifts/giftsWaiting.service';
import { countWithdrawalsToDecide, currentHotWalletWarnings } from '../withdrawals/hotWallet.service';
import { AlertEpisodeModel, AlertLinkModel, OperatorAlertModel } from './alert.models';
import { alertText, linkAnswer, type AlertFacts } from './alertTexts';

/** How long a link to the bot can be used (once). */
const LINK_CODE_MS = 10 * 60_000;
/** New Manual claims are summarised once per window of this length, not one message per claim. */
export const CLAIMS_BATCH_MS = 5 * 60_000;
/** How far back a first claims summary looks (a newly linked chat, or one silent for long). */
const CLAIMS_LOOK_BACK_MS = 24 * 3600_000;
const LEASE_MS = 2 * 60_000;
const MAX_ATTEMPTS = 5;
const RETRY_PAUSE_MS = 60_000;
const SEND_PER_ROUND = 100;
/** The start parameter the console's link carries: `op-` and the code. */
const OPERATOR_START = /^op-([A-Za-z0-9_-]{16,40})$/;

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** Which permission each kind needs: the operator must be able to act on what they are told of. */
const AREA: Record<Exclude<OperatorAlertKind, 'approvals'>, string> = {
  claims: 'user-missions',
  'payouts-stopped': 'withdraws',
  'hot-wallet': 'withdraws',
  'broadcast-finished': 'broadcasts',
  'stars-unmatched': 'star-purchases',
};

/** What a second operator decides: gifts, access, and the brake changes of each resource they write. */
const DECIDED = ['gifts', 'accounts', ...BRAKE_RESOURCES];

/** Whether these permissions cover an alert of this kind (approvals: deciding gifts, access or a brake change, any). */
function covers(permissions: string[], kind: OperatorAlertKind): boolean {
  if (kind === 'approvals') return DECIDED.some((resource) => hasPermission(permissions, resource, 'write'));
  return hasPermission(permissions, AREA[kind], 'read');
}

// ---------------------------------------------------------------------------------------------------------------------
// The operator's own settings (My account)

/** GET /api/admin/alerts/me: whether a chat is linked, what the operator wants, and what their permissions allow. */
export async function alertSettings(account: { id: string; permissions: string[] }) {
  const link = await AlertLinkModel.findOne({ account: objectId(account.id) }).lean();
  return {
    id: 'me' as const,
    linked: link?.chatId != null,
    linkedAt: link?.linkedAt ?? null,
    language: link?.language ?? 'en',
    kinds: link?.kinds ?? [...OPERATOR_ALERT_KINDS],
    available: OPERATOR_ALERT_KINDS.filter((kind) => covers(account.permissions, kind)),
  };
}

/** PUT /api/admin/alerts/me: the kinds to be told of (and the bot's language). */
export async function setAlertPreferences(accountId: string, kinds: OperatorAlertKind[], language?: Language): Promise<void> {
  const account = objectId(accountId);
  await upsertWithRetry(() =>
    AlertLinkModel.updateOne(
      { account },
      { $set: { kinds: [...new Set(kinds)], ...(language ? { language } : {}) }, $setOnInsert: { account } },
      { upsert: true },
    ),
  );
}

/**
 * POST /api/admin/alerts/me/link: a new one-time link to the bot (any earlier one stops working). Only the code's hash is
 * kept; the link works once, for LINK_CODE_MS.
 */
export async function startAlertLink(accountId: string, language: Language, now: Date) {
  const { botUsername } = await getAppConfig();
  if (!botUsername) throw new AppError('BOT_MISSING');
  const code = randomBytes(18).toString('base64url');
  const expiresAt = new Date(now.getTime() + LINK_CODE_MS);
  const account = objectId(accountId);
  await upsertWithRetry(() =>
    AlertLinkModel.updateOne(
      { account },
      { $set: { codeHash: hashOf(code), codeExpiresAt: expiresAt, language }, $setOnInsert: { account } },
      { upsert: true },
    ),
  );
  return { id: 'link' as const, url: `https://t.me/${botUsername}?start=op-${code}`, expiresAt };
}

/** DELETE /api/admin/alerts/me/link: the bot stops writing to the chat (queued alerts to it are dropped). */
export async function unlinkAlerts(accountId: string): Promise<void> {
  const account = objectId(accountId);
  await AlertLinkModel.updateOne({ account }, { $set: { chatId: null, linkedAt: null, codeHash: null, codeExpiresAt: null } });
  await OperatorAlertModel.updateMany({ account, status: 'queued' }, { $set: { status: 'failed', outcome: 'unlinked' } });
}

/** Whether `/start` carries an operator's link code (then it is not a player's start). */
export function isOperatorStart(parameter: string): boolean {
  return parameter.startsWith('op-');
}

/**
 * `/start op-<code>` in a private chat: links the chat to the account whose unexpired code this is, by one conditional
 * update that also clears the code (so it works once), and answers in the operator's language (a refusal in the
 * Telegram user's).
 */
export async function linkAlertChat(parameter: string, chatId: number, telegramLanguage: Language, now: Date): Promise<string> {
  const code = OPERATOR_START.exec(parameter)?.[1];
  const link = code
    ? await AlertLinkModel.findOneAndUpdate(
        { codeHash: hashOf(code), codeExpiresAt: { $gt: now } },
        { $set: { chatId, linkedAt: now, codeHash: null, codeExpiresAt: null } },
        { returnDocument: 'after' },
      ).lean()
    : null;
  if (!link) return linkAnswer(telegramLanguage, null);
  const [operator] = await operatorsByIds([link.account]);
  return linkAnswer(link.language, { username: operator?.username ?? '' });
}

// ---------------------------------------------------------------------------------------------------------------------
// The menu's badges

/**
 * GET /api/admin/alerts/counts: what waits, each count only where the operator's permissions reach; indexed counts alone, and
 * the brake changes the dashboard's live figures hold (those on the resources the operator writes, asked by someone else).
 */
export async function alertCounts(account: { id: string; permissions: string[] }, now: Date) {
  const can = (resource: string, access: 'read' | 'write') => hasPermission(account.permissions, resource, access);
  const decides: string[] = BRAKE_RESOURCES.filter((resource) => can(resource, 'write'));
  const [claims, withdrawals, gifts, grants, config, live] = await Promise.all([
    can('user-missions', 'read') ? countClaimsWaiting() : undefined,
    can('withdraws', 'read') ? countWithdrawalsToDecide() : undefined,
    can('gifts', 'write') ? countGiftsWaitingFor(account.id) : undefined,
    can('accounts', 'write') ? countGrantsWaitingFor(account.id) : undefined,
    can('withdraws', 'read') ? getAppConfig() : undefined,
    decides.length ? liveFigures(now) : undefined,
  ]);
  const changes = live?.changesWaiting?.filter((change) => decides.includes(change.resource) && change.requestedBy !== account.id).length;
  return {
    id: 'counts' as const,
    ...(claims !== undefined ? { claims } : {}),
    ...(withdrawals !== undefined ? { withdrawals } : {}),
    ...(gifts !== undefined || grants !== undefined || changes !== undefined
      ? { approvals: (gifts ?? 0) + (grants ?? 0) + (changes ?? 0) }
      : {}),
    ...(config ? { payoutsStopped: config.payoutsPaused || !!config.payoutsStopped } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// The sweep: what happened, queued once per operator and event

interface Recipient {
  id: string;
  username: string;
  permissions: string[];
  chatId: number;
  linkedAt: Date;
  language: Language;
  kinds: string[];
}

/** Linked chats of enabled operators. */
async function recipients(): Promise<Recipient[]> {
  const links = await AlertLinkModel.find({ chatId: { $ne: null } }, { account: 1, chatId: 1, linkedAt: 1, language: 1, kinds: 1 }).lean();
  if (!links.length) return [];
  const operators = new Map((await operatorsByIds(links.map((link) => link.account))).map((operator) => [operator.id, operator]));
  return links.flatMap((link) => {
    const operator = operators.get(String(link.account));
    if (!operator?.enabled || link.chatId == null) return [];
    return [
      {
        ...operator,
        chatId: link.chatId,
        linkedAt: link.linkedAt ?? new Date(0),
        language: link.language,
        kinds: link.kinds,
      },
    ];
  });
}

/** Queues one alert for (operator, kind, event): an upsert on the key, so any number of sweeps queue it once. */
async function queue<K extends OperatorAlertKind>(to: Recipient, kind: K, eventKey: string, facts: AlertFacts[K], now: Date) {
  const key = `${to.id}:${kind}:${eventKey}`;
  const written = await upsertWithRetry(() =>
    OperatorAlertModel.updateOne(
      { key },
      {
        $setOnInsert: {
          key,
          account: objectId(to.id),
          kind,
          eventKey,
          chatId: to.chatId,
          language: to.language,
          facts,
          status: 'queued',
          dueAt: now,
          leaseUntil: null,
          leaseHolder: '',
          attempts: 0,
        },
      },
      { upsert: true },
    ),
  );
  return written.upsertedCount;
}

/**
 * The number of the condition's current episode while it holds, null while it does not. Opened by one conditional update
 * (closed → open), so two sweeps open it once; the record itself is created by an upsert first.
 */
async function episode(key: string, kind: OperatorAlertKind, holds: boolean, facts: Record<string, unknown>): Promise<number | null> {
  if (!holds) {
    await AlertEpisodeModel.updateOne({ key, open: true }, { $set: { open: false } });
    return null;
  }
  await upsertWithRetry(() =>
    AlertEpisodeModel.updateOne({ key }, { $setOnInsert: { key, kind, open: false, number: 0 } }, { upsert: true }),
  );
  await AlertEpisodeModel.updateOne({ key, open: false }, { $set: { open: true, facts }, $inc: { number: 1 } });
  const current = await AlertEpisodeModel.findOne({ key }, { number: 1, open: 1 }).lean();
  return current?.open ? current.number : null;
}

async function queueClaims(wanting: Recipient[], now: Date): Promise<number> {
  if (!wanting.length) return 0;
  const until = new Date(Math.floor(now.getTime() / CLAIMS_BATCH_MS) * CLAIMS_BATCH_MS);
  let queued = 0;
  let waiting: number | undefined;
  for (const to of wanting) {
    const last = await OperatorAlertModel.findOne({ account: objectId(to.id), kind: 'claims' }, { facts: 1 })
      .sort({ createdAt: -1 })
      .lean();
    const lastUntil = (last?.facts as { until?: string } | undefined)?.until;
    const from = new Date(Math.max(lastUntil ? Date.parse(lastUntil) : 0, to.linkedAt.getTime(), until.getTime() - CLAIMS_LOOK_BACK_MS));
    if (from >= until) continue;
    const count = await countClaimsWaitingBetween(from, until);
    if (!count) continue;
    waiting ??= await countClaimsWaiting();
    queued += await queue(to, 'claims', `until:${until.toISOString()}`, { count, waiting, until: until.toISOString() }, now);
  }
  return queued;
}

async function queueApprovals(wanting: Recipient[], now: Date): Promise<number> {
  if (!wanting.length) return 0;
  const since = new Date(Math.min(...wanting.map((to) => to.linkedAt.getTime())));
  // brake changes as the live figures' last recount found them (named, with who asked): not read again for each pass
  const [gifts, grants, live] = await Promise.all([giftsWaitingSince(since), grantsWaitingSince(since), liveFigures(now)]);
  const changes = (live.changesWaiting ?? []).filter((change) => change.requestedBy && change.at >= since);
  if (!gifts.length && !grants.length && !changes.length) return 0;
  const asking = [...new Set([...gifts, ...grants].map((item) => item.requestedBy))];
  const names = new Map((asking.length ? await operatorsByIds(asking) : []).map((o) => [o.id, o.username]));
  const by = (id: string) => names.get(id) ?? '';
  // each ask: who may decide it (write on `resource`), never the operator who asked nor (access) the account it is for
  const asks: Array<{ key: string; resource: string; requestedBy: string; about?: string; at: Date; facts: AlertFacts['approvals'] }> = [
    ...gifts.map((gift) => ({
      key: `gift:${gift.id}`,
      resource: 'gifts',
      requestedBy: gift.requestedBy,
      at: gift.createdAt,
      facts: { what: 'gift' as const, ...gift, by: by(gift.requestedBy) },
    })),
    ...grants.map(({ id, account, username, permissions, requestedBy, createdAt }) => ({
      key: `grant:${id}`,
      resource: 'accounts',
      requestedBy,
      about: account,
      at: createdAt,
      facts: { what: 'grant' as const, username, permissions, by: by(requestedBy) },
    })),
    ...changes.map(({ id, resource, name, requestedBy, by: asker, at }) => ({
      key: `change:${id}`,
      resource,
      requestedBy,
      at,
      facts: { what: 'change' as const, resource, name: name ?? '', by: asker ?? '' },
    })),
  ];
  let queued = 0;
  for (const to of wanting)
    for (const ask of asks)
      if (ask.requestedBy !== to.id && ask.about !== to.id && ask.at >= to.linkedAt && hasPermission(to.permissions, ask.resource, 'write'))
        queued += await queue(to, 'approvals', ask.key, ask.facts, now);
  return queued;
}

async function queuePayoutsStopped(wanting: Recipient[], now: Date): Promise<number> {
  const config = await getAppConfig();
  const facts = { reason: config.payoutsStopped, paused: !!config.payoutsPaused && !config.payoutsStopped };
  const number = await episode('payouts-stopped', 'payouts-stopped', !!config.payoutsStopped || !!config.payoutsPaused, facts);
  if (number === null) return 0;
  let queued = 0;
  for (const to of wanting) queued += await queue(to, 'payouts-stopped', `episode:${number}`, facts, now);
  return queued;
}

async function queueHotWallet(wanting: Recipient[], now: Date): Promise<number> {
  const warnings = await currentHotWalletWarnings();
  const holding = new Set(warnings.map((warning) => `hot-wallet:${warning.coin}:${warning.why}`));
  // an episode that no longer holds is closed, so the next time it begins operators are told again
  for (const open of await AlertEpisodeModel.find({ kind: 'hot-wallet', open: true }, { key: 1 }).lean())
    if (!holding.has(open.key)) await episode(open.key, 'hot-wallet', false, {});
  let queued = 0;
  for (const warning of warnings) {
    const facts = {
      symbol: warning.symbol,
      balance: warning.balance,
      threshold: warning.threshold,
      pending: warning.pending,
      why: warning.why,
    };
    const number = await episode(`hot-wallet:${warning.coin}:${warning.why}`, 'hot-wallet', true, facts);
    if (number === null) continue;
    for (const to of wanting) queued += await queue(to, 'hot-wallet', `${warning.coin}:${warning.why}:${number}`, facts, now);
  }
  return queued;
}

async function queueBroadcasts(wanting: Recipient[], now: Date): Promise<number> {
  if (!wanting.length) return 0;
  const since = new Date(Math.min(...wanting.map((to) => to.linkedAt.getTime())));
  let queued = 0;
  for (const broadcast of await broadcastsFinishedSince(since)) {
    const { id, finishedAt, ...facts } = broadcast;
    for (const to of wanting) if (finishedAt >= to.linkedAt) queued += await queue(to, 'broadcast-finished', `broadcast:${id}`, facts, now);
  }
  return queued;
}

async function queueUnmatchedStars(wanting: Recipient[], now: Date): Promise<number> {
  if (!wanting.length) return 0;
  const since = new Date(Math.min(...wanting.map((to) => to.linkedAt.getTime())));
  let queued = 0;
  for (const { chargeId, seenAt, ...facts } of await unmatchedStarPaymentsSince(since))
    for (const to of wanting)
      if (seenAt >= to.linkedAt) queued += await queue(to, 'stars-unmatched', `stars:${chargeId}`, { chargeId, ...facts }, now);
  return queued;
}

/** One sweep: each kind's events queued for every linked, enabled operator who wants them and may see them. */
async function queueAlerts(now: Date): Promise<number> {
  const everyone = await recipients();
  const wanting = (kind: OperatorAlertKind) => everyone.filter((to) => to.kinds.includes(kind) && covers(to.permissions, kind));
  // a condition's episode is followed even while nobody wants it, so linking later does not report an old one as new
  const counts = await Promise.all([
    queueClaims(wanting('claims'), now),
    queueApprovals(wanting('approvals'), now),
    queuePayoutsStopped(wanting('payouts-stopped'), now),
    queueHotWallet(wanting('hot-wallet'), now),
    queueBroadcasts(wanting('broadcast-finished'), now),
    queueUnmatchedStars(wanting('stars-unmatched'), now),
  ]);
  return counts.reduce((sum, count) => sum + count, 0);
}

// ---------------------------------------------------------------------------------------------------------------------
// Sending

/** Takes the next due alert for `holder`: one conditional update, so two senders never take the same. */
function claimNext(holder: string, now: Date) {
  return OperatorAlertModel.findOneAndUpdate(
    { status: 'queued', dueAt: { $lte: now }, $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }] },
    { $set: { leaseUntil: new Date(now.getTime() + LEASE_MS), leaseHolder: holder }, $inc: { attempts: 1 } },
    { sort: { dueAt: 1, _id: 1 }, returnDocument: 'after' },
  ).lean();
}

/** Sends what is queued and due, one at a time, through the paced Bot API the players' notifications use. */
async function sendAlerts(api: Api, holder: string, now: Date): Promise<number> {
  let sent = 0;
  for (let i = 0; i < SEND_PER_ROUND; i++) {
    const alert = await claimNext(holder, now);
    if (!alert) break;
    const mine = { _id: alert._id, leaseHolder: holder, status: 'queued' };
    try {
      const text = alertText(alert.language, alert.kind, alert.facts as never);
      await api.sendMessage(alert.chatId, text, { link_preview_options: { is_disabled: true } });
    } catch (caught) {
      const error = toBotApiError(caught, 'sendMessage');
      const why = error instanceof BotApiError ? error.description : 'unexpected error';
      const givenUp = alert.attempts >= MAX_ATTEMPTS || (error instanceof BotApiError && error.status === 403);
      await OperatorAlertModel.updateOne(
        mine,
        givenUp
          ? { $set: { status: 'failed', outcome: why, leaseUntil: null } }
          : { $set: { dueAt: new Date(now.getTime() + RETRY_PAUSE_MS * alert.attempts), leaseUntil: null, leaseHolder: '', outcome: why } },
      );
      continue;
    }
    await OperatorAlertModel.updateOne(mine, { $set: { status: 'sent', sentAt: now, leaseUntil: null, outcome: '' } });
    sent++;
  }
  return sent;
}

/** One round: queue what happened, then send what is due. */
export async function runAlertRound(api: Api | null, holder: string, now: Date): Promise<void> {
  await queueAlerts(now);
  if (api) await sendAlerts(api, holder, now);
}

/** Runs alert rounds every `intervalMs` while started (on the instance holding the bot's sender lease). */
export class AlertSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly options: { api: () => Api | null; holder: string; logger: Logger; clock: () => Date; intervalMs?: number },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    const tick = () => {
      if (!this.running) return;
      void runAlertRound(this.options.api(), this.options.holder, this.options.clock())
        .catch((error) => this.options.logger.warn({ err: error }, 'alert round failed'))
        .finally(() => {
          if (this.running) this.timer = setTimeout(tick, this.options.intervalMs ?? 30_000).unref();
        });
    };
    tick();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }
}
