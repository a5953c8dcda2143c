import { isValidObjectId, type Types } from 'mongoose';
import type { BoostKind, Language } from '@gift/shared';
import type { Env } from '../../env';
import type { Logger } from '../../lib/logger';
import { AppError } from '../../lib/errors';
import { objectId, type Id } from '../../db/ids';
import type { ConsoleRecord, NewRecord } from '../../db/schemaKit';
import { interactiveApi, toBotApiError, BotApiError } from '../../lib/telegramBot';
import { getAppConfig, resolveBotToken } from '../config/config.service';
import { holdOf, runOperation, type OperationKind } from '../ledger/ledger.service';
import { grantExtraSession, hasBoostSession, registerMultiplierSource, takeBackBoostSession } from '../mining/mining.service';
import { grantStreakFreeze, takeBackStreakFreeze } from '../users/players.service';
import { playerLabels } from '../users/playerDays.service';
import { recordAudit, type Operator } from '../audit/audit.service';
import { StarOfferModel, StarPurchaseModel, type BoostState } from './shop.models';

/** The console's records: a shop item as stored; a purchase with its player's name beside the id (see shop.resource.ts). */
export type StarOfferRecord = ConsoleRecord<typeof StarOfferModel>;
export type StarPurchaseRecord = Omit<ConsoleRecord<typeof StarPurchaseModel>, 'user'> & {
  user: string;
  userName: string;
  username: string;
};

/** Telegram Stars: the only currency of the shop; an invoice in Stars carries no provider token. */
const STARS = 'XTR';
/** The money engine's kinds: a payment received, and its refund; each keyed by Telegram's charge id. */
const PAYMENT_KIND = 'stars-payment';
const REFUND_KIND = 'stars-refund';
const paymentKey = (chargeId: string) => `stars:${chargeId}`;
const refundKey = (chargeId: string) => `stars-refund:${chargeId}`;

type OfferRow = {
  _id: Types.ObjectId;
  title: string;
  description?: string | null;
  fa?: { title?: string | null; description?: string | null } | null;
  kind: BoostKind;
  stars: number;
  multiplierPercent?: number | null;
  enabled?: boolean | null;
};

/** An item as the player reads it, in their language (a blank Persian text shows the English). */
function presentOffer(offer: OfferRow, language: Language) {
  const fa = language === 'fa';
  return {
    id: String(offer._id),
    kind: offer.kind,
    title: (fa && offer.fa?.title) || offer.title,
    description: (fa && offer.fa?.description) || offer.description || '',
    stars: offer.stars,
    multiplierPercent: offer.multiplierPercent ?? null,
  };
}

/** The items on sale, in the operators' order. */
export async function shopOffers(language: Language) {
  const offers = await StarOfferModel.find({ enabled: true }).sort({ order: 1, _id: 1 }).limit(50).lean<OfferRow[]>();
  return offers.map((offer) => presentOffer(offer, language));
}

/** Inserts shop items as given (the demo seed). */
export function insertStarOffers(records: Array<NewRecord<typeof StarOfferModel>>) {
  return StarOfferModel.insertMany(records);
}

/** What the player holds now: multipliers waiting for their next session, and streak freezes. */
export async function playerBoosts(player: { _id: Types.ObjectId; streakFreezes?: number | null }) {
  const multipliers = await StarPurchaseModel.find({ user: player._id, kind: 'multiplier', boost: 'ready' }, { multiplierPercent: 1 })
    .sort({ paidAt: 1, _id: 1 })
    .limit(20)
    .lean();
  return { multipliers: multipliers.map((m) => m.multiplierPercent ?? 100), streakFreezes: player.streakFreezes ?? 0 };
}

/** The player's purchases, newest first, each with Telegram's charge id once paid. */
export async function playerPurchases(userId: Id) {
  const purchases = await StarPurchaseModel.find({ user: objectId(userId), status: { $ne: 'pending' } })
    .sort({ createdAt: -1, _id: -1 })
    .limit(50)
    .lean();
  return purchases.map((p) => ({
    id: String(p._id),
    title: p.title,
    kind: p.kind,
    stars: p.stars,
    status: p.status,
    boost: p.boost,
    telegram_payment_charge_id: p.chargeId ?? '',
    paidAt: p.paidAt,
  }));
}

/** A mining boost needs mining configured: App Config's coin and amount. */
async function miningConfigured(): Promise<boolean> {
  const config = await getAppConfig();
  return !!config.miningCoin && ((config.earnAmount as number | undefined) ?? 0) > 0;
}

let settings: Env | null = null;

/** Set by createApp: the bot (its token and the Bot API root) that makes invoices and refunds. */
export function configureShop(env: Env): void {
  settings = env;
}

/** The bot's Bot API client (its token and the configurable Bot API root); NOT_CONFIGURED before createApp or without a token. */
export const botApi = async () => {
  const token = settings ? await resolveBotToken(settings) : undefined;
  if (!settings || !token) throw new AppError('NOT_CONFIGURED');
  return interactiveApi({ apiRoot: settings.TELEGRAM_API_ROOT, token });
};

/**
 * An invoice for one item: a pending purchase whose id is the invoice's payload, and the link the bot makes for it
 * (createInvoiceLink, in Stars). The price and what it gives are copied from the item now. Telegram refusing leaves nothing.
 */
export async function createInvoice(player: { _id: Types.ObjectId; language?: string | null }, offerId: string, logger?: Logger) {
  const offer = await StarOfferModel.findOne({ _id: objectId(offerId), enabled: true }).lean<OfferRow>();
  if (!offer) throw new AppError('OFFER_OFF_SALE');
  if (offer.kind !== 'streakFreeze' && !(await miningConfigured())) throw new AppError('NOT_CONFIGURED');
  const api = await botApi();
  const shown = presentOffer(offer, player.language === 'fa' ? 'fa' : 'en');
  const purchase = await StarPurchaseModel.create({
    user: player._id,
    offer: offer._id,
    title: offer.title,
    kind: offer.kind,
    stars: offer.stars,
    multiplierPercent: offer.kind === 'multiplier' ? offer.multiplierPercent : null,
  });
  let invoiceLink: string;
  try {
    invoiceLink = await api.createInvoiceLink(shown.title, shown.description || shown.title, String(purchase._id), '', STARS, [
      { label: shown.title, amount: offer.stars },
    ]);
  } catch (error) {
    logger?.warn({ err: toBotApiError(error, 'createInvoiceLink') }, 'invoice link not made');
    await StarPurchaseModel.deleteOne({ _id: purchase._id, status: 'pending' });
    throw new AppError('UNAVAILABLE');
  }
  await StarPurchaseModel.updateOne({ _id: purchase._id }, { $set: { invoiceLink } });
  return { invoiceLink, purchaseId: String(purchase._id) };
}

/** What the player reads in Telegram's payment sheet when the bot refuses a pre-checkout query. */
const REFUSALS = {
  en: {
    unknown: 'This purchase is not known. Open the shop and try again.',
    taken: 'This invoice was already paid or closed. Open the shop and buy again.',
    notYours: 'This invoice was made for another player.',
    price: 'The price has changed. Open the shop and try again.',
    offSale: 'This item is not on sale any more.',
    held: 'Your account is frozen or blocked: purchases are closed.',
    mining: 'Mining is not available right now, so this boost cannot be used.',
  },
  fa: {
    unknown: 'این خرید شناخته نشد. فروشگاه را باز کنید و دوباره تلاش کنید.',
    taken: 'این صورت‌حساب قبلاً پرداخت یا بسته شده است. فروشگاه را باز کنید و دوباره بخرید.',
    notYours: 'این صورت‌حساب برای بازیکن دیگری ساخته شده است.',
    price: 'قیمت تغییر کرده است. فروشگاه را باز کنید و دوباره تلاش کنید.',
    offSale: 'این کالا دیگر فروخته نمی‌شود.',
    held: 'حساب شما مسدود یا معلق است: خرید بسته است.',
    mining: 'استخراج اکنون در دسترس نیست، پس این تقویت‌کننده قابل استفاده نیست.',
  },
} as const;
type PreCheckoutRefusal = keyof (typeof REFUSALS)['en'];

interface PreCheckoutQuery {
  from: { id: number; language_code?: string };
  currency: string;
  total_amount: number;
  invoice_payload: string;
}

/** Why a pre-checkout query is refused, or null to accept it. */
async function preCheckoutRefusal(query: PreCheckoutQuery): Promise<PreCheckoutRefusal | null> {
  if (!isValidObjectId(query.invoice_payload)) return 'unknown';
  const purchase = await StarPurchaseModel.findById(query.invoice_payload).lean();
  if (!purchase) return 'unknown';
  const [labels, offer, hold] = await Promise.all([
    playerLabels([purchase.user]),
    StarOfferModel.findById(purchase.offer).lean<OfferRow>(),
    holdOf(purchase.user),
  ]);
  if (labels.get(String(purchase.user))?.telegramId !== query.from.id) return 'notYours';
  if (purchase.status !== 'pending') return 'taken';
  if (query.currency !== STARS || query.total_amount !== purchase.stars) return 'price';
  if (!offer?.enabled || offer.kind !== purchase.kind) return 'offSale';
  if (offer.stars !== purchase.stars) return 'price';
  if (hold) return 'held';
  if (purchase.kind !== 'streakFreeze' && !(await miningConfigured())) return 'mining';
  return null;
}

/** The answer to Telegram's pre_checkout_query: ok, or refused with a message in the payer's language. */
export async function answerForPreCheckout(query: PreCheckoutQuery, language: Language) {
  const refusal = await preCheckoutRefusal(query);
  return refusal ? { ok: false as const, reason: refusal, errorMessage: REFUSALS[language][refusal] } : { ok: true as const };
}

interface SuccessfulPayment {
  currency: string;
  total_amount: number;
  invoice_payload: string;
  telegram_payment_charge_id: string;
}

/**
 * Telegram's successful_payment: one operation of the money engine under the charge id, with no coin postings (Stars are
 * not a coin of the app; the purchase record holds the Stars). Its steps mark the purchase paid and grant the boost, each
 * once; a crash between them is finished by the engine's sweep, and a repeated update finds the operation done.
 */
export async function recordStarPayment(payment: SuccessfulPayment): Promise<void> {
  if (!isValidObjectId(payment.invoice_payload)) throw new AppError('NOT_FOUND');
  await runOperation({
    kind: PAYMENT_KIND,
    key: paymentKey(payment.telegram_payment_charge_id),
    refType: 'StarPurchase',
    refId: payment.invoice_payload,
    players: [],
    house: [],
    note: `${payment.total_amount} ${payment.currency}`,
  });
}

type OperationRecord = { key: string; refId?: string | null; createdAt?: Date | null; createdBy?: Types.ObjectId | null };
const chargeOf = (operation: OperationRecord, kind: string) =>
  operation.key.slice(kind === PAYMENT_KIND ? 'stars:'.length : 'stars-refund:'.length);

/** Step 1 of a payment: the pending purchase becomes paid under the charge (a second charge for one invoice changes nothing). */
async function markPaid(operation: OperationRecord): Promise<void> {
  const chargeId = chargeOf(operation, PAYMENT_KIND);
  await StarPurchaseModel.updateOne(
    { _id: objectId(operation.refId!), status: 'pending' },
    { $set: { status: 'paid', chargeId, paidAt: operation.createdAt ?? new Date() } },
  );
}

/** Step 2 of a payment: the boost, once per purchase (each kind's grant is itself a conditional write). */
async function grantBoost(operation: OperationRecord): Promise<void> {
  const chargeId = chargeOf(operation, PAYMENT_KIND);
  const purchase = await StarPurchaseModel.findOne({ _id: objectId(operation.refId!), chargeId }).lean();
  // no purchase paid under this charge (a second payment of one invoice): nothing to grant; an operator refunds it
  if (!purchase || purchase.grantedAt) return;
  const now = operation.createdAt ?? new Date();
  if (purchase.kind === 'extraSession') await grantExtraSession(purchase.user, purchase._id, now);
  if (purchase.kind === 'streakFreeze') await grantStreakFreeze(purchase.user, paymentKey(chargeId));
  await StarPurchaseModel.updateOne({ _id: purchase._id, grantedAt: null }, { $set: { grantedAt: now, boost: 'ready' } });
}

/** Step 1 of a refund: takes the boost back (an unused one is removed; a used one stays used) and marks the purchase refunded. */
async function takeBoostBack(operation: OperationRecord): Promise<void> {
  const chargeId = chargeOf(operation, REFUND_KIND);
  const purchase = await StarPurchaseModel.findOne({ chargeId }).lean();
  if (!purchase || purchase.status === 'refunded') return;
  let boost: BoostState = purchase.boost;
  if (purchase.kind === 'multiplier') {
    const revoked = await StarPurchaseModel.updateOne({ _id: purchase._id, boost: 'ready' }, { $set: { boost: 'revoked' } });
    if (revoked.modifiedCount) boost = 'revoked';
    // a start that read it as ready just before: it was used after all
    if (await hasBoostSession(purchase._id)) boost = 'used';
  } else if (purchase.kind === 'extraSession') {
    const outcome = await takeBackBoostSession(purchase._id);
    if (outcome !== 'none') boost = outcome;
  } else {
    const outcome = await takeBackStreakFreeze(purchase.user, paymentKey(chargeId));
    if (outcome !== 'none') boost = outcome;
  }
  await StarPurchaseModel.updateOne(
    { _id: purchase._id, status: 'paid' },
    { $set: { status: 'refunded', boost, refundedAt: operation.createdAt ?? new Date(), refundedBy: operation.createdBy ?? null } },
  );
}

/** The player's oldest mining multiplier granted and not used yet (its purchase and percent), or null. */
function readyMultiplier(userId: Id) {
  return StarPurchaseModel.findOne({ user: objectId(userId), kind: 'multiplier', boost: 'ready' }, { multiplierPercent: 1 })
    .sort({ paidAt: 1, _id: 1 })
    .lean<{ _id: Types.ObjectId; multiplierPercent: number }>();
}

/** Marks a granted boost used (one conditional update): false when it was not ready (a refund took it back meanwhile). */
async function markBoostUsed(purchaseId: Id, now: Date): Promise<boolean> {
  const marked = await StarPurchaseModel.updateOne({ _id: objectId(purchaseId), boost: 'ready' }, { $set: { boost: 'used', usedAt: now } });
  return marked.modifiedCount > 0;
}

registerMultiplierSource({ next: readyMultiplier, markUsed: markBoostUsed });

const starsPaymentKind: OperationKind = {
  kind: PAYMENT_KIND,
  steps: [
    { name: 'paid', run: markPaid },
    { name: 'grant', run: grantBoost },
  ],
};
/** What a refund's operation records: whom Telegram returns the Stars to, the operator, the purchase as they saw it. */
interface RefundData {
  telegramId: number;
  operator: Operator;
  before: { status: string; boost: BoostState };
}

/**
 * The refund's admit: Telegram returns the Stars (refundStarPayment), by whoever finishes the refund (the operator's call, a
 * repeat, the engine's sweep). A charge Telegram already refunded counts as returned; a refusal refuses the refund, nothing
 * changed. An older version called Telegram before recording the refund (no data): returned already.
 */
async function returnStars(operation: OperationRecord & { data?: unknown }): Promise<AppError | null> {
  const data = operation.data as RefundData | undefined;
  if (!data?.telegramId) return null;
  try {
    await (await botApi()).refundStarPayment(data.telegramId, chargeOf(operation, REFUND_KIND));
    return null;
  } catch (error) {
    const failure = toBotApiError(error, 'refundStarPayment');
    if (failure instanceof BotApiError && /CHARGE_ALREADY_REFUNDED/.test(failure.description)) return null;
    return new AppError('STARS_REFUND_REFUSED', {
      reason: failure instanceof BotApiError ? failure.description : 'Telegram could not be reached',
    });
  }
}

/** Step 2 of a refund: the operator's refund audited, once per charge. */
async function auditRefund(operation: OperationRecord & { data?: unknown }): Promise<void> {
  const data = operation.data as RefundData | undefined;
  if (!data?.operator) return;
  const after = (await StarPurchaseModel.findById(objectId(operation.refId!)).lean())!;
  await recordAudit({
    operator: data.operator,
    action: 'update',
    resource: 'star-purchases',
    record: String(after._id),
    before: data.before,
    after: { status: after.status, boost: after.boost },
    note: `refund ${after.stars} Stars`,
    key: refundKey(chargeOf(operation, REFUND_KIND)),
  });
}

const starsRefundKind: OperationKind = {
  kind: REFUND_KIND,
  admit: returnStars,
  steps: [
    { name: 'take-back', run: takeBoostBack },
    { name: 'audit', run: auditRefund },
  ],
};

/**
 * An operator's refund: one operation per charge, recorded first, whose admit has Telegram return the Stars and whose steps
 * take the boost back and audit the refund, each once. A crash anywhere is finished by a repeat or by the engine's sweep alone:
 * the Stars are never returned without the boost taken back.
 */
export async function refundPurchase(purchaseId: string, operator: Operator, logger?: Logger) {
  const purchase = await StarPurchaseModel.findById(objectId(purchaseId)).lean();
  if (!purchase) throw new AppError('NOT_FOUND');
  if (purchase.status !== 'paid' || !purchase.chargeId) throw new AppError('PURCHASE_NOT_REFUNDABLE', { status: purchase.status });
  const telegramId = (await playerLabels([purchase.user])).get(String(purchase.user))?.telegramId;
  if (!telegramId) throw new AppError('NOT_FOUND');
  const data: RefundData = { telegramId, operator, before: { status: purchase.status, boost: purchase.boost } };
  try {
    await runOperation({
      kind: REFUND_KIND,
      key: refundKey(purchase.chargeId),
      refType: 'StarPurchase',
      refId: String(purchase._id),
      players: [],
      house: [],
      note: `${purchase.stars} ${STARS}`,
      createdBy: operator.id,
      data: { ...data },
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'STARS_REFUND_REFUSED') logger?.warn({ err: error }, 'stars refund refused');
    throw error;
  }
  return (await StarPurchaseModel.findById(purchase._id))!;
}

/** Stars received, less refunds, in total and per day over the last `days` days (UTC), for the console. */
export async function starsRevenue(now: Date, days = 30) {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const [total, perDay] = await Promise.all([
    StarPurchaseModel.aggregate<{ _id: string; stars: number; count: number }>([
      { $match: { status: { $in: ['paid', 'refunded'] } } },
      { $group: { _id: '$status', stars: { $sum: '$stars' }, count: { $sum: 1 } } },
    ]),
    StarPurchaseModel.find({ status: 'paid', paidAt: { $gte: from } }, { paidAt: 1, stars: 1 }).lean(),
  ]);
  const byStatus = new Map(total.map((row) => [row._id, row]));
  const daily = new Map<string, number>();
  for (const row of perDay) {
    const day = row.paidAt!.toISOString().slice(0, 10);
    daily.set(day, (daily.get(day) ?? 0) + row.stars);
  }
  return {
    stars: byStatus.get('paid')?.stars ?? 0,
    purchases: byStatus.get('paid')?.count ?? 0,
    refundedStars: byStatus.get('refunded')?.stars ?? 0,
    refunds: byStatus.get('refunded')?.count ?? 0,
    days: [...daily].sort(([a], [b]) => a.localeCompare(b)).map(([day, stars]) => ({ day, stars })),
  };
}

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const shopKinds: readonly OperationKind[] = [starsPaymentKind, starsRefundKind];
