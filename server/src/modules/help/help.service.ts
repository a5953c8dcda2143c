import { objectId, type Id } from '../../db/ids';
import { upsertWithRetry } from '../../db/mongoErrors';
import { AppError } from '../../lib/errors';
import { textFor } from '../../lib/playerLanguage';
import { getAppConfig } from '../config/config.service';
import { notify } from '../notifications/notifications.service';
import type { ConsoleRecord } from '../../db/schemaKit';
import { AppealModel, FaqModel } from './help.models';

export type FaqRecord = ConsoleRecord<typeof FaqModel>;
export type AppealRecord = ConsoleRecord<typeof AppealModel>;

interface Standing {
  _id: Id;
  status?: string | null;
  statusReason?: string | null;
  statusChangedAt?: Date | null;
  language?: string | null;
}

/** The Help page: the operators' questions and answers in the player's language, and where to write to them. */
export async function helpFor(language: string | null | undefined) {
  const [faqs, config] = await Promise.all([
    FaqModel.find({ enabled: true }, { question: 1, answer: 1, fa: 1 }).sort({ order: 1, _id: 1 }).limit(100).lean(),
    getAppConfig(),
  ]);
  const text = textFor(language ?? undefined);
  return {
    faqs: faqs.map((faq) => ({
      id: String(faq._id),
      question: text(faq.question, faq.fa?.question),
      answer: text(faq.answer, faq.fa?.answer),
    })),
    contact: (config.toObject() as { supportContact?: string }).supportContact ?? '',
  };
}

/** One appeal per ban or freeze: the player and the moment their standing last changed. */
const appealKey = (player: Standing) => `${String(player._id)}:${player.statusChangedAt ? player.statusChangedAt.toISOString() : 'first'}`;

const presentAppeal = (appeal: {
  _id: unknown;
  text: string;
  status: string;
  answer?: string | null;
  createdAt?: Date;
  answeredAt?: Date | null;
}) => ({
  id: String(appeal._id),
  text: appeal.text,
  status: appeal.status as 'open' | 'answered',
  answer: appeal.answer ?? '',
  sentAt: appeal.createdAt ?? null,
  answeredAt: appeal.answeredAt ?? null,
});

/** The player's appeal against their current ban or freeze, if they sent one (null for an active player). */
export async function appealOf(player: Standing) {
  if (!player.status || player.status === 'active') return null;
  const appeal = await AppealModel.findOne({ key: appealKey(player) }).lean();
  return appeal ? presentAppeal(appeal) : null;
}

/**
 * A banned or frozen player's appeal, once per ban or freeze: the first text is kept (a conditional insert on the key), so a
 * double tap or a retry answers the same appeal, and a second appeal against the same decision is refused.
 */
export async function sendAppeal(player: Standing, text: string) {
  const standing = player.status;
  if (standing !== 'banned' && standing !== 'frozen') throw new AppError('NOT_APPEALABLE');
  const key = appealKey(player);
  const before = await AppealModel.findOne({ key }, { text: 1 }).lean();
  if (before && before.text !== text) throw new AppError('ALREADY_APPEALED');
  await upsertWithRetry(() =>
    AppealModel.updateOne(
      { key },
      { $setOnInsert: { key, user: objectId(player._id), standing, standingReason: player.statusReason ?? '', text, status: 'open' } },
      { upsert: true },
    ),
  );
  const appeal = (await AppealModel.findOne({ key }).lean())!;
  if (appeal.text !== text) throw new AppError('ALREADY_APPEALED');
  return presentAppeal(appeal);
}

/**
 * An operator's answer: recorded once (open → answered, a conditional write), then sent to the player by the bot in the words
 * the operator wrote, whatever the player's standing (the notification is keyed, so a retry sends it once).
 */
export async function answerAppeal(id: string, answer: string, accountId: Id, now: Date) {
  const answered = await AppealModel.findOneAndUpdate(
    { _id: objectId(id), status: 'open' },
    { $set: { status: 'answered', answer, answeredBy: objectId(accountId), answeredAt: now } },
    { returnDocument: 'after' },
  );
  const appeal = answered ?? (await AppealModel.findById(objectId(id)));
  if (!appeal) throw new AppError('NOT_FOUND');
  if (!answered && appeal.answer !== answer) throw new AppError('ALREADY_ANSWERED');
  await notify(appeal.user, `appeal:${String(appeal._id)}:answered`, 'appeal-answered', { answer: appeal.answer });
  return appeal;
}
